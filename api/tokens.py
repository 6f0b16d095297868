"""Personal access tokens: made, checked, revoked. The one place that knows a token's form.

A token reads ``cc_`` and 40 characters drawn from the secrets module. Only its SHA-256 is
stored (a token is long and random, so a plain hash needs no salt or slow hashing: nothing
is guessable to try against it), and it is compared by looking the digest up.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from lobby import limits

from .models import AccessToken

MARK = "cc_"
PREFIX_LENGTH = 8  # "cc_" and five characters: enough to tell one's tokens apart
TOUCH_EVERY = timedelta(minutes=1)  # last_used is written at most this often
MAX_TOKENS = 20  # live tokens per account
SUBPROTOCOL = "cubiccards.v1"  # what the server answers to a socket that sent bearer.<token>


class TokenError(Exception):
    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def create_token(*, user, name: str, scopes: list[str]) -> tuple[AccessToken, str]:
    """A new token for `user`; returns it and its secret, which is never seen again."""
    name = (name or "").strip()
    if not name or len(name) > 60:
        raise TokenError(gettext("Give the token a name of 1 to 60 characters."))
    allowed = {AccessToken.PLAY, AccessToken.READ}
    scopes = sorted(set(scopes or []))
    if not scopes or not set(scopes) <= allowed:
        raise TokenError('Choose what the token may do: "play", "read" or both.')
    live = AccessToken.objects.select_for_update().filter(user=user, revoked__isnull=True)
    if len(live) >= MAX_TOKENS:
        raise TokenError(
            gettext("You have %(max_tokens)s tokens already: revoke one first.")
            % {"max_tokens": MAX_TOKENS}
        )
    secret = MARK + secrets.token_urlsafe(30)
    token = AccessToken.objects.create(
        user=user, name=name, scopes=scopes, digest=digest(secret), prefix=secret[:PREFIX_LENGTH]
    )
    return token, secret


def revoke_token(*, user, token_id: int) -> AccessToken:
    token = AccessToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        raise TokenError(gettext("There is no such token of yours."))
    if token.revoked is None:
        token.revoked = timezone.now()
        token.save(update_fields=["revoked"])
        transaction.on_commit(lambda: cache.set(revoked_key(token.pk), 1, REVOKED_KEPT))
    return token


def revoked_key(token_id: int) -> str:
    """The cache's note that a token was revoked: its open sockets watch for it (api.sockets)
    and close within seconds, in whichever process they are."""
    return f"token-revoked:{token_id}"


REVOKED_KEPT = 24 * 3600  # the note outlives by far the seconds its sockets take to see it


def authenticate(secret: str) -> AccessToken | None:
    """The live token with this secret (with its user), or None."""
    if not secret.startswith(MARK) or len(secret) > 200:
        return None
    token = (
        AccessToken.objects.select_related("user")
        .filter(digest=digest(secret), revoked__isnull=True, user__is_active=True)
        .first()
    )
    return token


def touch(token: AccessToken) -> None:
    """Note the token's use: one write a minute at most, however busy the program."""
    now = timezone.now()
    if token.last_used is not None and now - token.last_used < TOUCH_EVERY:
        return
    AccessToken.objects.filter(pk=token.pk).filter(
        Q(last_used__isnull=True) | Q(last_used__lt=now - TOUCH_EVERY)
    ).update(last_used=now)
    token.last_used = now


def allowed(token: AccessToken) -> bool:
    return limits.token_allowed(token.pk)


def from_header(value: str) -> str | None:
    """The secret in an ``Authorization: Bearer <secret>`` header's value, or None."""
    scheme, _, secret = (value or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None
    return secret.strip()


def from_subprotocols(offered: list[str]) -> str | None:
    """The secret a socket offered as the subprotocol ``bearer.<secret>`` (for clients that
    can't set headers on a socket: browsers' WebSocket API), or None."""
    for protocol in offered or []:
        if protocol.startswith("bearer."):
            return protocol[len("bearer.") :]
    return None
