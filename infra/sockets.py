"""What every socket of the site shares."""

import asyncio
import json
import logging

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

UNAVAILABLE = "The tables are unavailable right now. Reconnect in a few seconds."
UNAVAILABLE_CLOSE = 4503  # the close code when Redis can't be reached

READ_ONLY = 'This token may only watch: make one with the "play" scope to act.'


def language_of(scope) -> str:
    """The language a socket speaks: what its address asks for (``?lang=fr``, for programs:
    docs/protocol.md), else as for a page: the account's, else the language cookie, else the
    browser's Accept-Language, else English."""
    query = scope.get("query_string", b"").decode("latin-1")
    asked = [part[5:] for part in query.split("&") if part.startswith("lang=")]
    asked.append(getattr(scope.get("user"), "language", "") or "")
    headers = {
        k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
    }
    cookies = scope.get("cookies") or {}
    asked.append(cookies.get(settings.LANGUAGE_COOKIE_NAME, ""))
    for code in filter(None, asked):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    for code, _ in translation.trans_real.parse_accept_lang_header(
        headers.get("accept-language", "")
    ):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def may_act(scope) -> bool:
    """Whether this socket may act (play a move, set the pace, leave a queue): any socket of a
    signed-in person or guest, and a token's only with the "play" scope."""
    token = scope.get("access_token")
    return token is None or token.may_play


class SendsWhileOpen:
    """Mixed into a consumer: a send after the client began to close is dropped. daphne hears
    of a close only when its handshake ends, and a send meanwhile (a move's news on its way to
    a seat that is leaving) would end the consumer with a traceback instead of its
    disconnect."""

    async def __call__(self, scope, receive, send):
        async def sending(message):
            try:
                await send(message)
            except Disconnected:
                pass  # the socket is closing: its disconnect follows

        await super().__call__(scope, receive, sending)


class LeavesTheLayer:
    """Mixed into a consumer: when it ends, however it ends, the channel layer keeps nothing
    more for its channel. The layer hears of most ends from the cancelled receive, but a
    consumer that ends while handling a layer message (Redis failing in a group message's
    handler) had no receive waiting."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            forget = getattr(getattr(self, "channel_layer", None), "forget", None)
            if forget is not None and getattr(self, "channel_name", None):
                forget(self.channel_name)  # (the embedded in-memory layer has no forget)


class ClosesWhenRedisIsDown:
    """Mixed into a consumer: Redis (the channel layer, the cache) unreachable ends the socket
    with 4503 instead of a crash (1011 and a traceback); a JSON client that was told its
    connection was accepted (`says_why`) gets a sentence first. Pages reconnect their sockets,
    and the table page reloads into the "tables unavailable" page, which comes back when Redis
    does. (A server may only send 1000 or 3000-4999 here, so not 1013 "try again later".)"""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except RedisError as exc:
            log.warning("%s closed, Redis unavailable: %s", type(self).__name__, exc)
            if self.says_why():
                message = {"type": "error", "message": UNAVAILABLE, "retry_after": 5}
                await send({"type": "websocket.send", "text": json.dumps(message)})
            await send({"type": "websocket.close", "code": UNAVAILABLE_CLOSE})

    def says_why(self) -> bool:
        return False


async def refuse(consumer, code: int, reason: str) -> None:
    """Turn a socket away with a close code, saying why first in an error message (daphne
    sends no close reason). Closing before accepting would make daphne answer the handshake
    with a bare HTTP 403, which a client can't tell from any other failed connection."""
    await consumer.accept()
    await consumer.send(text_data=json.dumps({"type": "error", "message": reason}))
    await consumer.close(code=code)


NO_SUCH_SOCKET = 4404


class NoSuchSocket(AsyncWebsocketConsumer):
    """The last route: a socket path that matches no other is turned away with 4404 and why,
    as any refused socket is, instead of failing the handshake with an exception (HTTP 500)."""

    async def connect(self):
        await refuse(self, NO_SUCH_SOCKET, "There is no socket at this address.")


BUSY = "The table is busy for a moment: your view will catch up in a few seconds."
BUSY_ON_CONNECT = "The tables are busy right now. Reconnect in a few seconds."
RESYNC_AFTER = 3.0  # seconds before a socket that met a busy database asks for its view again


class RidesOutABusyDatabase:
    """Mixed into a consumer whose dispatch hands a connection-level database failure (the
    pool had no connection within its timeout, the database restarting) to
    ``database_busy``: the socket says so in a sentence and asks for its view again a little
    later, instead of dying with a traceback. Before the handshake is accepted it is turned
    away with 4503, which the page answers by coming back. The consumer provides ``error``
    and ``refresh``."""

    accepted = False
    _resync: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self._resync is not None:
                self._resync.cancel()

    async def accept(self, *args, **kwargs):
        self.accepted = True
        await super().accept(*args, **kwargs)

    async def database_busy(self, exc: Exception) -> None:
        log.warning("%s: the database is busy (%s); resyncing later", type(self).__name__, exc)
        if not self.accepted:
            await refuse(self, UNAVAILABLE_CLOSE, BUSY_ON_CONNECT)
            return
        await self.error(BUSY, retry_after=RESYNC_AFTER)
        if self._resync is None or self._resync.done():
            self._resync = asyncio.ensure_future(self._resync_later())

    async def _resync_later(self) -> None:
        await asyncio.sleep(RESYNC_AFTER)
        try:
            await self.refresh(force=True)
        except (OperationalError, InterfaceError) as exc:
            self._resync = None
            await self.database_busy(exc)


class TurnsAwayWhenTheDatabaseIsBusy:
    """Around the site's sockets: reading the session and the user before a consumer runs
    (channels' AuthMiddlewareStack) needs a database connection too. If the pool has none to
    give in time, the socket is turned away with 4503 and a sentence, and the page comes
    back, instead of the handshake failing with a traceback."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        accepted = False

        async def sending(message):
            nonlocal accepted
            accepted = accepted or message.get("type") == "websocket.accept"
            await send(message)

        try:
            return await self.app(scope, receive, sending)
        except (OperationalError, InterfaceError) as exc:
            log.warning("a socket was turned away, the database is busy: %s", exc)
            if not accepted:
                await receive()  # the client's websocket.connect
                await send({"type": "websocket.accept"})
            message = {"type": "error", "message": BUSY_ON_CONNECT}
            await send({"type": "websocket.send", "text": json.dumps(message)})
            await send({"type": "websocket.close", "code": UNAVAILABLE_CLOSE})


class HearsTheClientLeave:
    """A consumer's `receive` that hears the client leave at once: a task of its own reads
    the server's messages as they come and calls ``on_gone()`` at websocket.disconnect. The
    consumer reads its next message only when its handler returns, and a handler waiting on a
    backed-up worker thread (after an overload) would otherwise keep a socket whose client is
    long gone alive, and beating, until the server kills it and longer. ``stop()`` when the
    consumer ends."""

    def __init__(self, receive, on_gone):
        self._receive, self._on_gone = receive, on_gone
        self._inbox: asyncio.Queue = asyncio.Queue()
        self._reader: asyncio.Task | None = None

    async def receive(self):
        if self._reader is None:
            self._reader = asyncio.ensure_future(self._read())
        return await self._inbox.get()

    async def _read(self) -> None:
        while True:
            message = await self._receive()
            gone = message.get("type") == "websocket.disconnect"
            if gone:
                self._on_gone()
            self._inbox.put_nowait(message)
            if gone:
                return

    def stop(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
