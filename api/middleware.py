"""HTTP requests signed with ``Authorization: Bearer <token>`` act as the token's account."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext

from . import tokens

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# A token may not manage the account it acts for (make tokens, turn it into a bot, change the
# password, delete it): that takes the person, signed in on the site.
ACCOUNT_PATHS = ("/accounts/", "/admin/")
EXEMPT = ("/metrics",)  # its own Bearer token (METRICS_TOKEN), not an account's


def refusal(status: int, message: str) -> JsonResponse:
    response = JsonResponse({"ok": False, "message": message}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="cubiccards"'
    return response


class BearerTokens:
    """After Django's own authentication: a request with a Bearer token is its account's, or
    is refused (401 for a wrong or revoked token, 403 for a scope it lacks, 429 past the
    token's limit). Requests without one are left as they are."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = request.headers.get("Authorization", "")
        if not header or request.path.startswith(EXEMPT):
            return self.get_response(request)
        secret = tokens.from_header(header)
        token = tokens.authenticate(secret) if secret else None
        if token is None:
            return refusal(401, gettext("That access token is wrong or was revoked."))
        if request.path.startswith(ACCOUNT_PATHS):
            return refusal(
                403, gettext("An access token can't manage its account: sign in on the site.")
            )
        if request.method not in SAFE_METHODS and not token.may_play:
            return refusal(
                403, gettext('This token may only read: make one with the "play" scope.')
            )
        if not tokens.allowed(token):
            return refusal(
                429, gettext("Slow down: this token made too many requests. Wait a minute.")
            )
        tokens.touch(token)
        request.user, request.access_token = token.user, token
        # CSRF guards against a browser sending a visitor's cookies to the site on another
        # site's behalf. A Bearer token is never sent by a browser on its own: whoever sends it
        # holds the secret, so a request signed with one can't be forged that way.
        request._dont_enforce_csrf_checks = True
        return self.get_response(request)
