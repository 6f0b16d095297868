import logging

from django.utils.deprecation import MiddlewareMixin

from . import clock, selectors, services

log = logging.getLogger(__name__)

SEEN = "kudos_day"  # the session remembers the local date it last counted a visit for


class DailyVisitMiddleware(MiddlewareMixin):
    """A signed-in player's first request of their day pays the day's streak reward. Each
    session asks once a day; the service pays once a day whatever the sessions."""

    def process_request(self, request):
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return
        today = clock.now().astimezone(selectors.zone_of(user)).date().isoformat()
        if request.session.get(SEEN) == today:
            return
        try:
            entry = services.visit(user)
        except Exception:  # the page matters more: the next request asks again
            log.exception("daily streak visit for user %s failed", user.pk)
            return
        request.session[SEEN] = today
        if entry is not None:
            request.kudos_news = f"+{entry.amount} Kudos: {entry.memo[0].lower()}{entry.memo[1:]}"
