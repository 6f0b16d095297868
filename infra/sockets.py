"""What every socket of the site shares."""

import json
import logging

from autobahn.exception import Disconnected
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

UNAVAILABLE = "The tables are unavailable right now. Reconnect in a few seconds."
UNAVAILABLE_CLOSE = 4503  # the close code when Redis can't be reached


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
