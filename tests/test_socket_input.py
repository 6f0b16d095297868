"""Hostile input on the room socket: every message is answered (an error, or a close with a
reason), nothing crashes the consumer, and nothing but the action as the engine read it is
logged."""

import json

import pytest
from channels.db import database_sync_to_async

from gameplay.models import Game
from lobby.messages import MALFORMED_SEQ
from lobby.models import Room

from .test_room_socket import (
    _create_room,
    _start,
    connect,
    receive_until,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _war_table(fmt: str = "json"):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    ws = await connect(host, code, fmt=fmt)
    assert (await ws.connect())[0]
    await ws.receive_from(timeout=5)
    game_id = await database_sync_to_async(lambda: Room.objects.get(code=code).game_id)()
    return ws, game_id


async def _error(ws, payload: str) -> dict:
    await ws.send_to(text_data=payload)
    return await receive_until(ws, lambda m: m["type"] == "error")


async def test_deeply_nested_json_is_an_answer_not_a_crash(real_services):
    ws, game_id = await _war_table()
    error = await _error(ws, "[" * 2000 + "]" * 2000)
    assert "nested" in error["message"]
    error = await _error(ws, '{"type": "act", "action": ' + '{"a":' * 500 + "1" + "}" * 501)
    assert "nested" in error["message"]
    assert (await Game.objects.aget(pk=game_id)).seq == 0
    await ws.disconnect()


@pytest.mark.parametrize("seq", ["²", "①", "٣", "1_0", " 1", "1e3", 1.5, -1, 10**40, True])
async def test_a_seq_that_is_not_a_plain_number_is_refused(real_services, seq):
    ws, game_id = await _war_table()
    error = await _error(ws, json.dumps({"type": "act", "action": {"type": "flip"}, "seq": seq}))
    assert error["message"]
    assert (await Game.objects.aget(pk=game_id)).seq == 0
    await ws.disconnect()


@pytest.mark.parametrize("seq", ["x", True, None, "missing", [0], {"n": 0}, 1.5, "1e3", "²"])
async def test_a_malformed_seq_is_called_malformed_not_a_table_that_moved_on(real_services, seq):
    ws, game_id = await _war_table()
    act = {"type": "act", "action": {"type": "flip"}, "id": "a1"}
    if seq != "missing":
        act["seq"] = seq
    error = await _error(ws, json.dumps(act))
    assert error["message"] == MALFORMED_SEQ and error["id"] == "a1"
    assert (await Game.objects.aget(pk=game_id)).seq == 0
    await ws.disconnect()


async def test_a_seq_sent_as_digits_still_works(real_services):
    ws, game_id = await _war_table()
    await ws.send_to(text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": "0"}))
    state = await receive_until(ws, lambda m: m["type"] == "state" and m["seq"] >= 1)
    assert state["seq"] >= 1
    await ws.disconnect()


async def test_lone_surrogates_get_an_answer_on_the_html_path(real_services):
    ws, game_id = await _war_table(fmt="html")
    for payload in (
        '{"type": "act", "action": {"type": "\\ud800"}, "seq": 0}',
        '{"type": "\\udfff"}',
        '{"type": "act", "action": "{\\"type\\": \\"\\\\ud800\\"}", "seq": 0}',
    ):
        await ws.send_to(text_data=payload)
        html = await ws.receive_from(timeout=5)
        assert 'id="table-error"' in html
        html.encode()  # what daphne does with it: a lone surrogate can't be sent
    assert (await Game.objects.aget(pk=game_id)).seq == 0
    await ws.disconnect()


@pytest.mark.parametrize("junk", ["\\u0000", "\\ud800", "x\\u0000y"])
async def test_nul_and_surrogates_anywhere_are_refused_and_nothing_is_logged(real_services, junk):
    ws, game_id = await _war_table()
    for payload in (
        '{"type": "act", "action": {"type": "flip", "note": "JUNK"}, "seq": 0}',
        '{"type": "act", "action": {"type": "flip"}, "seq": 0, "id": "JUNK"}',
        '{"type": "act", "action": {"type": "flip", "JUNK": 1}, "seq": 0}',
    ):
        error = await _error(ws, payload.replace("JUNK", junk))
        assert "text" in error["message"], error
    assert (await Game.objects.aget(pk=game_id)).seq == 0
    await ws.disconnect()


async def test_extra_fields_are_not_logged(real_services):
    ws, game_id = await _war_table()
    message = {"type": "act", "action": {"type": "flip", "junk": "x" * 3000}, "seq": 0}
    await ws.send_to(text_data=json.dumps(message))
    await receive_until(ws, lambda m: m["type"] == "state" and m["seq"] >= 1)
    logged = await database_sync_to_async(
        lambda: list(Game.objects.get(pk=game_id).log.values_list("action", flat=True))
    )()
    assert logged[0] == {"type": "flip"}
    await ws.disconnect()


async def _drain_all(ws, quiet: float = 1.0) -> list[dict]:
    """Everything a socket was sent until it has been quiet for `quiet` seconds."""
    messages = []
    while not await ws.receive_nothing(timeout=quiet):
        messages.append(json.loads(await ws.receive_from()))
    return messages
