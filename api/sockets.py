"""Sockets opened with an access token act as the token's account.

The token comes in the ``Authorization: Bearer <token>`` header, or, from a client that
can't set a socket's headers (a browser's WebSocket), as the subprotocol ``bearer.<token>``
offered beside ``cubiccards.v1``, which the server answers. A wrong or revoked token is
turned away with 4401, a token past its limit with 4429, each with a sentence first. A token
revoked while its sockets are open closes them within REVOKE_CHECK seconds (4401)."""

from __future__ import annotations

import asyncio
import json
import logging

from channels.security.websocket import AllowedHostsOriginValidator
from django.core.cache import cache
from django.utils.translation import gettext_noop

from infra.scheduling import on_thread
from infra.sockets import said

from . import tokens

log = logging.getLogger(__name__)

REVOKE_CHECK = 2.0  # seconds between an open token socket's looks at whether it was revoked
WRONG_TOKEN = gettext_noop("That access token is wrong or was revoked.")
TOO_MANY = gettext_noop("Slow down: this token made too many requests. Wait a minute.")


def _secret(scope) -> tuple[str | None, bool]:
    """(the token's secret, whether it came as a subprotocol)."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return tokens.from_header(value.decode("latin-1")), False
    secret = tokens.from_subprotocols(scope.get("subprotocols") or [])
    return secret, secret is not None


def _check(secret: str):
    token = tokens.authenticate(secret)
    if token is None:
        return None, WRONG_TOKEN
    if not tokens.allowed(token):
        return None, TOO_MANY
    tokens.touch(token)
    return token, ""


def _revoked(token_id: int) -> bool:
    return bool(cache.get(tokens.revoked_key(token_id)))


class OriginCheckedUnlessToken:
    """The Origin check (channels' AllowedHostsOriginValidator) for sockets that a browser's
    cookies authenticate; a socket that sends a token skips it. The check stops another site's
    page from opening a socket with a visitor's cookies; a token is never sent by a browser on
    its own, so a socket carrying one was opened by whoever holds it, and programs send no
    Origin at all."""

    def __init__(self, app):
        self.app = app
        self.checked = AllowedHostsOriginValidator(app)

    async def __call__(self, scope, receive, send):
        secret, _ = _secret(scope) if scope["type"] == "websocket" else (None, False)
        return await (self.app if secret else self.checked)(scope, receive, send)


class BearerTokenSockets:
    """Inside channels' AuthMiddlewareStack: a token, when one is sent, decides the user."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        secret, as_subprotocol = _secret(scope)
        if secret is None:
            return await self.app(scope, receive, send)
        token, why = await on_thread(_check)(secret)
        if token is None:
            code = 4429 if why == TOO_MANY else 4401
            return await turn_away(receive, send, code, said(why, scope))
        scope = dict(scope, user=token.user, access_token=token)
        revoked = asyncio.Event()

        async def sending(message):
            if message["type"] == "websocket.accept" and as_subprotocol:
                # Browsers fail a handshake that answers none of the subprotocols offered.
                offered = scope.get("subprotocols") or []
                if tokens.SUBPROTOCOL in offered:
                    message = {**message, "subprotocol": tokens.SUBPROTOCOL}
            await send(message)

        async def receiving():
            if revoked.is_set():
                return {"type": "websocket.disconnect", "code": 4401}
            message = asyncio.ensure_future(receive())
            stop = asyncio.ensure_future(revoked.wait())
            try:
                await asyncio.wait({message, stop}, return_when=asyncio.FIRST_COMPLETED)
            finally:  # however it ends (the consumer's own receive cancelled too)
                stop.cancel()
                if not message.done():
                    message.cancel()
            if message.done() and not message.cancelled():
                return message.result()
            return {"type": "websocket.disconnect", "code": 4401}

        watch = asyncio.ensure_future(_watch(token.pk, send, revoked, scope))
        try:
            return await self.app(scope, receiving, sending)
        finally:
            watch.cancel()


async def _watch(token_id: int, send, revoked: asyncio.Event, scope) -> None:
    """Close the socket, saying why, once its token is revoked; the consumer then hears a
    disconnect as if the client had left."""
    while True:
        await asyncio.sleep(REVOKE_CHECK)
        try:
            gone = await on_thread(_revoked)(token_id)
        except Exception:  # the cache is away: the next look tries again
            log.warning("could not check token %s for revocation", token_id, exc_info=True)
            continue
        if gone:
            text = json.dumps({"type": "error", "message": said(WRONG_TOKEN, scope)})
            try:
                await send({"type": "websocket.send", "text": text})
                await send({"type": "websocket.close", "code": 4401})
            except Exception:  # closing already
                pass
            revoked.set()
            return


async def turn_away(receive, send, code: int, reason: str) -> None:
    """As infra.sockets.refuse, before any consumer: accept, say why, close with `code`."""
    await receive()  # the client's websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps({"type": "error", "message": reason})})
    await send({"type": "websocket.close", "code": code})
