"""Times on every page in the viewer's own time zone (the account's; UTC for guests); the
account's language over the browser's; every browser's device cookie (accounts/sightings.py)."""

import zoneinfo

from django.utils import timezone, translation
from django.utils.functional import LazyObject

from . import sightings


def time_zone(get_response):
    def middleware(request):
        zone = request.user.time_zone if request.user.is_authenticated else "UTC"
        try:
            timezone.activate(zoneinfo.ZoneInfo(zone or "UTC"))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        return get_response(request)

    return middleware


def language(get_response):
    """A signed-in person's chosen language wins over the cookie and Accept-Language, which
    LocaleMiddleware has already read.

    It reads the account on every request, so it also puts the account itself on the request
    in place of the lazy stand-in Django's middleware left there: every later look at
    ``request.user`` (middleware, views, a template's dozens) went through the stand-in's
    proxy, a failed attribute lookup each time."""

    def middleware(request):
        if isinstance(request.user, LazyObject):
            request.user.is_authenticated  # noqa: B018 -- read the account now
            request.user = request.user._wrapped
        chosen = request.user.is_authenticated and getattr(request.user, "language", "")
        if chosen and translation.check_for_language(chosen):
            translation.activate(chosen)
            request.LANGUAGE_CODE = translation.get_language()
        return get_response(request)

    return middleware


def device_cookie(get_response):
    """A browser without a (well-formed) ``cc_device`` cookie gets one: random, http-only,
    kept two years. Sightings hash it; it is read for nothing else."""

    def middleware(request):
        device = request.COOKIES.get(sightings.DEVICE_COOKIE, "")
        new = not sightings.DEVICE_SHAPE.fullmatch(device)
        request.device = sightings.new_device() if new else device
        response = get_response(request)
        if new:
            response.set_cookie(
                sightings.DEVICE_COOKIE,
                request.device,
                max_age=sightings.DEVICE_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response

    return middleware
