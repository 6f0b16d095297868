"""`sync` (and `hint`) are limited per person and per address across all their sockets, and a
limited one is answered at once with no render."""

import json

import pytest
from channels.db import database_sync_to_async

from lobby import limits

from .test_room_socket import _create_room, _join, _start, connect, receive
from .test_socket_input import _drain_all

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _socket(client, code, address):
    ws = await connect(client, code)
    ws.scope["client"] = (address, 40000)
    assert (await ws.connect())[0]
    await receive(ws)
    return ws


@pytest.fixture
def one_window(monkeypatch):
    """Every request in the same one-second window, whatever the machine's speed."""
    monkeypatch.setattr(limits.time, "time", lambda: 1_000_000.5)


async def test_many_sockets_of_one_person_share_one_allowance(real_services, one_window):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    sockets = [await _socket(host, code, "10.0.0.1") for _ in range(4)]
    for ws in sockets:
        for _ in range(5):
            await ws.send_to(text_data=json.dumps({"type": "sync"}))
    answers = [m for ws in sockets for m in await _drain_all(ws)]
    states = [m for m in answers if m["type"] == "state"]
    limited = [m for m in answers if m["type"] == "error" and "too often" in m["message"]]
    assert len(states) == 4 and len(limited) == 16
    # Someone else, elsewhere, is not held up.
    guest = await database_sync_to_async(_join)(code)
    other = await _socket(guest, code, "10.0.0.2")
    await other.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive(other))["type"] == "state"
    for ws in [*sockets, other]:
        await ws.disconnect()


async def test_many_people_at_one_address_share_a_larger_allowance(real_services, one_window):
    host, code = await database_sync_to_async(_create_room)()
    people = [host] + [await database_sync_to_async(_join)(code) for _ in range(5)]
    sockets = [await _socket(client, code, "10.0.0.3") for client in people]
    for ws in sockets:
        await _drain_all(ws, quiet=0.5)  # the news of each other's arrival
    for ws in sockets:
        for _ in range(4):  # each within their own allowance
            await ws.send_to(text_data=json.dumps({"type": "sync"}))
    answers = [m for ws in sockets for m in await _drain_all(ws)]
    limited = [m for m in answers if m["type"] == "error"]
    assert len(answers) == 24 and len(limited) == 4
    for ws in sockets:
        await ws.disconnect()
