import logging

from django.utils.deprecation import MiddlewareMixin

from . import awards, badges, clock, referrals, selectors, services

log = logging.getLogger(__name__)

SEEN = "kudos_day"  # the session remembers the local date it last counted a visit for


class DailyVisitMiddleware(MiddlewareMixin):
    """A signed-in player's first request of their day pays the day's streak reward (and any
    streak badge it reaches). Each session asks once a day; the service pays once a day
    whatever the sessions. Responses note which accounts use this browser (referrals'
    self-invite check)."""

    def process_request(self, request):
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not user.is_person:
            return
        if getattr(request, "access_token", None) is not None:
            return  # a program's request is no visit: a streak is for people coming by
        today = clock.now().astimezone(selectors.zone_of(user)).date().isoformat()
        if request.session.get(SEEN) == today:
            return
        try:
            entry = services.visit(user)
            earned = awards.award_due(user.pk, {badges.STREAK}) if entry is not None else []
        except Exception:  # the page matters more: the next request asks again
            log.exception("daily streak visit for user %s failed", user.pk)
            return
        request.session[SEEN] = today
        if entry is not None:
            request.kudos_news = f"+{entry.amount} Kudos: {entry.memo[0].lower()}{entry.memo[1:]}"
        request.kudos_badges = earned

    def process_response(self, request, response):
        referrals.remember_account(request, response)
        return response
