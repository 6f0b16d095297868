from django.utils.deprecation import MiddlewareMixin

from . import referrals


class ReferralCookieMiddleware(MiddlewareMixin):
    """Responses note which accounts use this browser (referrals' self-invite check)."""

    def process_response(self, request, response):
        referrals.remember_account(request, response)
        return response
