from django.utils.deprecation import MiddlewareMixin

from . import referrals


class DailyVisitMiddleware(MiddlewareMixin):
    """Responses note which accounts use this browser (referrals' self-invite check). Streak
    days are paid by play now (kudos.services.pay_for_game), not by a visit."""

    def process_response(self, request, response):
        referrals.remember_account(request, response)
        return response
