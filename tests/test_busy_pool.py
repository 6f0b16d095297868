"""A table socket never dies of a busy database pool: when its view can't get a connection it
says so in a sentence and asks for the view again a little later. The pool here is really
dry (every connection taken), not imitated."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from psycopg_pool import PoolTimeout

from gameplay import services as gameplay
from infra import sockets
from lobby.models import Room
from tests.socket_helpers import refused

from .test_room_socket import _create_room, _start, connect, receive_until

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _drain_pool():
    """Take every free connection of the process's pool, and make a wait for one short."""
    pool = connection.pool
    held = []
    while True:
        try:
            held.append(pool.getconn(timeout=0.2))
        except PoolTimeout:
            break
    timeout, pool.timeout = pool.timeout, 0.5
    return pool, held, timeout


def _refill(pool, held, timeout) -> None:
    for conn in held:
        pool.putconn(conn)
    pool.timeout = timeout


async def test_a_busy_pool_is_a_sentence_and_a_resync_not_a_dead_socket(real_services, monkeypatch):
    monkeypatch.setattr(sockets, "RESYNC_AFTER", 0.5)
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    game_id = await database_sync_to_async(lambda: Room.objects.get(code=code).game_id)()
    ws = await connect(host, code)
    assert (await ws.connect())[0]
    first = await receive_until(ws, lambda m: m["type"] == "state")
    drained = await sync_to_async(_drain_pool, thread_sensitive=False)()
    try:
        await ws.send_to(text_data=json.dumps({"type": "sync"}))  # a view asked for
        error = await receive_until(ws, lambda m: m["type"] == "error", timeout=10)
        assert error["message"] == sockets.BUSY and error["retry_after"] == 0.5
        news = {"type": "game.update", "seq": first["seq"] + 1}  # a move written elsewhere
        await get_channel_layer().group_send(gameplay.group_name(game_id), news)
        error = await receive_until(ws, lambda m: m["type"] == "error", timeout=10)
        assert error["message"] == sockets.BUSY
    finally:
        await sync_to_async(_refill, thread_sensitive=False)(*drained)
    state = await receive_until(ws, lambda m: m["type"] == "state", timeout=10)  # the resync
    assert state["seq"] == first["seq"] and state["game_id"] == game_id
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive_until(ws, lambda m: m["type"] == "pong"))["type"] == "pong"
    await ws.disconnect()


async def test_a_socket_opened_while_the_pool_is_dry_is_told_to_come_back(real_services):
    host, code = await database_sync_to_async(_create_room)()
    drained = await sync_to_async(_drain_pool, thread_sensitive=False)()
    try:
        ws = await connect(host, code)
        assert await refused(ws) == sockets.UNAVAILABLE_CLOSE  # the page comes back
    finally:
        await sync_to_async(_refill, thread_sensitive=False)(*drained)
    ws = await connect(host, code)
    assert (await ws.connect())[0]
    assert (await receive_until(ws, lambda m: m["type"] == "lobby"))["type"] == "lobby"
    await ws.disconnect()
