"""Presence comes from rows that expire, not a counter: everyone sees the same people here, a
dropped seat says "reconnecting…", then "Computer playing for <name>", then "<name> is back";
a socket whose process died (a crash, a kill) stops counting on its own; a table everyone has
left ends as abandoned."""

import asyncio
import json
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from gameplay.models import Game
from lobby import limits, services
from lobby.consumers import RoomConsumer
from lobby.models import Member, Presence, Room

from .test_room_socket import (
    _create_room,
    _gone_for_the_grace_period,
    _join,
    _seat_is_bot,
    _start,
    connect,
    receive,
    receive_until,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _members(message) -> dict[str, bool]:
    return {m["name"]: m["online"] for m in message["members"]}


async def _opened(client, code):
    ws = await connect(client, code)
    assert (await ws.connect())[0]
    return ws, await receive(ws)


async def test_the_host_sees_a_guest_who_connects_as_here(real_services):
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    host_ws, first = await _opened(host, code)
    assert list(_members(first).values()) == [True, False]
    guest_ws, mine = await _opened(guest, code)
    assert list(_members(mine).values()) == [True, True]
    # The host hears of it: presence is the same for everyone.
    seen = await receive_until(host_ws, lambda m: all(_members(m).values()))
    assert list(_members(seen).values()) == [True, True]
    await guest_ws.disconnect()
    gone = await receive_until(host_ws, lambda m: not all(_members(m).values()))
    assert list(_members(gone).values()) == [True, False]
    await host_ws.disconnect()


def _presence(message, seat: int):
    return message["seats"][seat]["presence"]


async def test_a_dropped_seat_reconnects_then_the_computer_plays_then_they_are_back(
    real_services,
):
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="3")
    host_ws, state = await _opened(host, code)
    assert _presence(state, 0) == "online" and _presence(state, 2) is None  # a computer player
    guest_ws, _ = await _opened(guest, code)
    await receive_until(host_ws, lambda m: _presence(m, 1) == "online")
    await guest_ws.disconnect()
    await receive_until(host_ws, lambda m: _presence(m, 1) == "reconnecting")
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=1)
    await database_sync_to_async(_gone_for_the_grace_period)(member.pk)
    assert await database_sync_to_async(services.check_seat)(member.pk)
    await receive_until(host_ws, lambda m: _presence(m, 1) == "computer" and m["seats"][1]["bot"])
    guest_ws, _ = await _opened(guest, code)
    back = await receive_until(host_ws, lambda m: m.get("notice"))
    assert back["notice"] == f"{member.name} is back." and _presence(back, 1) == "online"
    assert not await database_sync_to_async(_seat_is_bot)(code, 1)
    for ws in (host_ws, guest_ws):
        await ws.disconnect()


async def test_the_html_table_says_reconnecting_and_who_the_computer_plays_for(real_services):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=1)
    ws = await connect(host, code, fmt="html")
    await ws.connect()
    assert "reconnecting…" in await ws.receive_from(timeout=5)  # the guest never connected
    await database_sync_to_async(_gone_for_the_grace_period)(member.pk)
    assert await database_sync_to_async(services.check_seat)(member.pk)
    html = await ws.receive_from(timeout=5)
    assert f"Computer playing for {member.name}" in html
    await ws.disconnect()


def _age_presence(code: str, seconds: float) -> None:
    Presence.objects.filter(member__room__code=code).update(
        seen=timezone.now() - timedelta(seconds=seconds)
    )


async def test_a_crashed_consumer_stops_counting_and_its_seat_is_handed_over(
    real_services, settings, monkeypatch
):
    settings.PRESENCE_TTL = 30
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    guest_ws, _ = await _opened(guest, code)

    async def crash(self):
        raise RuntimeError("a bug in the consumer")

    monkeypatch.setattr(RoomConsumer, "hint", crash)
    await guest_ws.send_to(text_data=json.dumps({"type": "hint"}))
    with pytest.raises(RuntimeError):
        await guest_ws.receive_from(timeout=5)
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=1)
    # disconnect() never ran: the row is still there, but it stops being refreshed.
    assert await database_sync_to_async(Presence.objects.filter(member=member).count)() == 1
    await database_sync_to_async(_age_presence)(code, settings.PRESENCE_TTL + 1)
    await database_sync_to_async(_gone_for_the_grace_period)(member.pk)
    swept = await database_sync_to_async(services.sweep_presence)()
    assert swept["expired"] == 1 and swept["handed"] == 1
    assert await database_sync_to_async(_seat_is_bot)(code, 1)


async def test_a_live_socket_keeps_its_seat_through_the_sweep(real_services, settings):
    settings.PRESENCE_BEAT = 0.2
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    ws, _ = await _opened(host, code)
    await database_sync_to_async(_age_presence)(code, settings.PRESENCE_TTL + 1)
    await ws.receive_nothing(timeout=0.6)  # a heartbeat refreshes the row
    swept = await database_sync_to_async(services.sweep_presence)()
    assert swept == {"expired": 0, "handed": 0, "ended": 0}
    await ws.disconnect()


def _everyone_gone_for(code: str, seconds: float) -> None:
    away = timezone.now() - timedelta(seconds=seconds)
    Member.objects.filter(room__code=code).update(last_seen=away)
    Presence.objects.filter(member__room__code=code).delete()


async def test_a_table_everyone_left_ends_as_abandoned(real_services, settings):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="3")
    game_id = await database_sync_to_async(lambda: Room.objects.get(code=code).game_id)()
    await database_sync_to_async(_everyone_gone_for)(code, settings.RECONNECT_GRACE + 1)
    swept = await database_sync_to_async(services.sweep_presence)()
    assert swept["handed"] == 2 and swept["ended"] == 0  # gone, but not long enough to end
    await database_sync_to_async(_everyone_gone_for)(code, settings.ABANDON_AFTER + 1)
    swept = await database_sync_to_async(services.sweep_presence)()
    assert swept["ended"] == 1
    game = await Game.objects.aget(pk=game_id)
    assert game.status == Game.Status.ABANDONED
    room = await Room.objects.aget(code=code, is_open=True)
    assert room.game_id is None  # whoever comes back finds the lobby


def _beat_for_three_sockets(code: str, notified: list[str]) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    members = list(Member.objects.filter(room__code=code))
    sockets = {f"specific.test!{i}": members[i % len(members)].pk for i in range(3)}
    old = timezone.now() - timedelta(seconds=60)
    Presence.objects.bulk_create(
        [Presence(member_id=m, channel=c, seen=old) for c, m in sockets.items()]
    )
    with CaptureQueriesContext(connection) as queries:
        services.heartbeat(sockets)
    assert len(queries) == 1  # one write for all of a process's sockets
    assert not Presence.objects.filter(channel__in=sockets, seen=old).exists()
    assert not notified
    # One row was swept while the process stalled: the beat puts it back and says so.
    Presence.objects.filter(channel="specific.test!1").delete()
    services.heartbeat(sockets)
    assert Presence.objects.filter(channel__in=sockets).count() == 3
    assert notified == [code]


async def test_one_heartbeat_keeps_every_socket_of_a_process_present(real_services, monkeypatch):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_join)(code)
    notified = []
    monkeypatch.setattr(services, "notify_room", lambda room, **kw: notified.append(room))
    await database_sync_to_async(_beat_for_three_sockets)(code, notified)


async def test_a_socket_gone_while_its_consumer_is_stuck_stops_beating(
    real_services, settings, monkeypatch
):
    """After an overload daphne kills consumers that took too long to end: a consumer whose
    handler waits on a backed-up worker thread neither runs disconnect() nor ends when its
    client has gone. Its heartbeat stops all the same, the moment the socket is gone, so its
    presence expires within PRESENCE_TTL and the seat goes to the computer."""
    settings.PRESENCE_BEAT = 0.1
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    host_ws, _ = await _opened(host, code)  # the process beats on for its other socket
    guest_ws, _ = await _opened(guest, code)
    beats: list[set[str]] = []
    real_heartbeat = services.heartbeat

    def heartbeat(sockets):
        beats.append(set(sockets))
        real_heartbeat(sockets)

    monkeypatch.setattr(services, "heartbeat", heartbeat)
    release = threading.Event()
    real_allowed = limits.sync_allowed

    def backed_up(*args):  # the worker threads are busy with an overload's backlog
        release.wait(30)
        return real_allowed(*args)

    monkeypatch.setattr(limits, "sync_allowed", backed_up)
    await guest_ws.send_to(text_data=json.dumps({"type": "sync"}))
    await asyncio.sleep(0.3)
    channel = await database_sync_to_async(
        lambda: Presence.objects.get(member__room__code=code, member__seat=1).channel
    )()
    assert any(channel in beat for beat in beats)  # alive, though busy: it beats
    await guest_ws.send_input({"type": "websocket.disconnect", "code": 1001})  # the client left
    await asyncio.sleep(0.05)
    left_at = len(beats)
    for _ in range(600):  # four more beats (bounded: a stopped beat fails below, not hangs)
        if len(beats) >= left_at + 4:
            break
        await asyncio.sleep(0.05)
    assert len(beats) >= left_at + 4, "the process stopped beating for its live socket"
    assert not any(channel in beat for beat in beats[left_at:]), "a gone socket kept beating"
    guest_ws.future.cancel()  # daphne kills the consumer; it ends once its thread returns
    release.set()
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=1)
    # Its last beat came before its client left: PRESENCE_TTL after that it has expired.
    await database_sync_to_async(
        lambda: Presence.objects.filter(channel=channel).update(
            seen=timezone.now() - timedelta(seconds=settings.PRESENCE_TTL + 1)
        )
    )()
    await database_sync_to_async(_gone_for_the_grace_period)(member.pk)
    swept = await database_sync_to_async(services.sweep_presence)()
    assert swept["expired"] == 1 and swept["handed"] == 1
    assert await database_sync_to_async(_seat_is_bot)(code, 1)
    await host_ws.disconnect()
