"""What every socket of the site shares (infra.sockets)."""

import asyncio

import pytest
from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from redis.exceptions import RedisError

from infra.sockets import (
    UNAVAILABLE_CLOSE,
    ClosesWhenRedisIsDown,
    LeavesTheLayer,
    SendsWhileOpen,
)

pytestmark = pytest.mark.usefixtures("real_services")


class Echo(SendsWhileOpen, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)


@pytest.mark.asyncio
async def test_a_send_after_the_client_began_to_close_is_dropped_not_a_crash():
    """daphne raises Disconnected for a send during the client's close handshake (it hears of
    the close only when the handshake ends): the consumer goes on to its disconnect."""
    sent = []

    async def send(message):
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")
        sent.append(message["type"])

    inbox = asyncio.Queue()
    for message in (
        {"type": "websocket.connect"},
        {"type": "websocket.receive", "text": "news"},
        {"type": "websocket.disconnect", "code": 1000},
    ):
        inbox.put_nowait(message)
    scope = {"type": "websocket", "path": "/ws/echo/", "headers": [], "query_string": b""}
    await asyncio.wait_for(Echo.as_asgi()(scope, inbox.get, send), 5)
    assert sent == ["websocket.accept"]


class FailsOnNews(ClosesWhenRedisIsDown, AsyncWebsocketConsumer):
    """Joins a group; Redis fails while it handles the group's news."""

    channels: list[str] = []

    async def connect(self):
        await self.channel_layer.group_add("news", self.channel_name)
        self.channels.append(self.channel_name)
        await self.accept()

    async def game_update(self, event):
        raise RedisError("Connection refused")


class LeavesOnFailure(LeavesTheLayer, FailsOnNews):
    pass


async def _ended_on_news(consumer) -> str:
    """Run the consumer until Redis fails in its news handler; its channel name."""
    sent, inbox, accepted = [], asyncio.Queue(), asyncio.Event()

    async def send(message):
        sent.append(message)
        accepted.set()

    inbox.put_nowait({"type": "websocket.connect"})
    scope = {"type": "websocket", "path": "/ws/news/", "headers": [], "query_string": b""}
    running = asyncio.ensure_future(consumer.as_asgi()(scope, inbox.get, send))
    await asyncio.wait_for(accepted.wait(), 5)
    await get_channel_layer().group_send("news", {"type": "game.update", "seq": 1})
    await asyncio.wait_for(running, 5)
    assert sent[-1] == {"type": "websocket.close", "code": UNAVAILABLE_CLOSE}
    return consumer.channels[-1]


@pytest.mark.asyncio
async def test_a_consumer_that_ends_on_a_layer_message_is_kept_nothing_after():
    """Its membership outlives it (Redis failed, so it never left the group); news for it
    afterwards is dropped, not buffered for the process's life."""
    layer = get_channel_layer()
    try:
        channel = await _ended_on_news(LeavesOnFailure)
        assert channel not in layer._open
        await layer.group_send("news", {"type": "game.update", "seq": 2})
        assert channel not in layer.receive_buffer
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_without_leaving_the_layer_such_a_consumer_is_buffered_for():
    """The control: the layer alone never hears that this consumer ended."""
    layer = get_channel_layer()
    try:
        channel = await _ended_on_news(FailsOnNews)
        await layer.group_send("news", {"type": "game.update", "seq": 2})
        assert layer.receive_buffer[channel].qsize() == 1
    finally:
        await layer.flush()
