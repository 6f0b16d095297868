"""What every socket of the site shares (cubiccards.sockets)."""

import asyncio

import pytest
from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer

from cubiccards.sockets import SendsWhileOpen

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
