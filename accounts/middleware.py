"""Times on every page in the viewer's own time zone (the account's; UTC for guests)."""

import zoneinfo

from django.utils import timezone


def time_zone(get_response):
    def middleware(request):
        zone = request.user.time_zone if request.user.is_authenticated else "UTC"
        try:
            timezone.activate(zoneinfo.ZoneInfo(zone or "UTC"))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        return get_response(request)

    return middleware
