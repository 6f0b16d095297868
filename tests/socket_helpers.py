"""Helpers for consumer tests through channels' WebsocketCommunicator."""

import json


async def refused(communicator) -> int:
    """The close code of a socket the server accepted only to turn away, saying why."""
    connected, _ = await communicator.connect()
    assert connected, "refused at the handshake: the client can't read why"
    said = json.loads(await communicator.receive_from(timeout=5))
    assert said["type"] == "error" and said["message"], said
    closed = await communicator.receive_output(timeout=5)
    assert closed["type"] == "websocket.close", closed
    return closed["code"]
