"""The room socket on the Redis channel layer and PostgreSQL: joining, acting, bad input,
spectators, reconnecting, and seats handed to the computer and back."""

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from cubiccards.asgi import application
from gameplay import store
from gameplay.engine import registry
from gameplay.models import Game
from lobby import services
from lobby.models import Member, Room
from tests.socket_helpers import refused

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SHORT_WAR = "short/235"  # a two-player War that ends in 47 rounds


def _client() -> Client:
    client = Client()
    client.get("/")
    return client


def _create_room() -> tuple[Client, str]:
    client = _client()
    response = client.post("/rooms/")
    return client, response.url.rstrip("/").split("/")[-1]


def _join(code: str) -> Client:
    client = _client()
    response = client.post("/rooms/join/", {"code": code})
    assert response.url == f"/rooms/{code}/", response.url
    return client


def _play_solo(kind: str) -> tuple[Client, str]:
    client = _client()
    response = client.post(f"/play/{kind}/")
    connection.close()  # this thread's connection would outlive the test database
    return client, response.url.rstrip("/").split("/")[-1]


def _start(client: Client, code: str, **form) -> None:
    response = client.post(f"/rooms/{code}/start/", form)
    assert response.status_code == 302


def _start_seeded(code: str, kind: str, seats: int, seed: str) -> Game:
    room = Room.objects.get(code=code, is_open=True)
    return services.start_game(room=room, player=room.host, kind=kind, seats=seats, seed=seed)


async def connect(client: Client | None, code: str, fmt: str = "json") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        headers.append((b"cookie", cookie.encode()))
    query = "?format=json" if fmt == "json" else ""
    communicator = WebsocketCommunicator(application, f"/ws/rooms/{code}/{query}", headers=headers)
    communicator.scope["headers"] = headers
    return communicator


async def receive(communicator, timeout=5) -> dict:
    return json.loads(await communicator.receive_from(timeout=timeout))


async def receive_until(communicator, predicate, timeout=5, limit=50) -> dict:
    for _ in range(limit):
        message = await receive(communicator, timeout)
        if predicate(message):
            return message
    raise AssertionError("no matching message")


async def test_needs_a_session(real_services):
    client, code = await database_sync_to_async(_create_room)()
    communicator = await connect(None, code)
    assert await refused(communicator) == 4401


async def test_strangers_are_turned_away(real_services):
    _, code = await database_sync_to_async(_create_room)()
    stranger = await database_sync_to_async(_client)()
    await database_sync_to_async(stranger.get)(
        f"/rooms/{code}/"
    )  # the join page makes a guest session
    communicator = await connect(stranger, code)
    assert await refused(communicator) == 4403


async def test_lobby_then_game_then_flip(real_services):
    host, code = await database_sync_to_async(_create_room)()
    communicator = await connect(host, code)
    assert (await communicator.connect())[0]
    lobby = await receive(communicator)
    assert lobby["type"] == "lobby" and lobby["room"] == code and lobby["host"] is True
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    state = await receive_until(communicator, lambda m: m["type"] == "state")
    assert state["game"] == "war" and state["seat"] == 0 and state["seq"] == 0
    game = await database_sync_to_async(lambda: Room.objects.get(code=code).game)()
    assert state["seed_sha256"] == game.seed_hash and len(game.seed_hash) == 64
    assert state["legal"] == [{"type": "flip"}] and state["seats"][1]["bot"] is True
    await communicator.send_to(
        text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": 0})
    )
    after = await receive_until(communicator, lambda m: m["type"] == "state" and m["seq"] >= 1)
    assert after["view"]["stage"]["flipped"] == [0] or after["seq"] > 1
    await communicator.disconnect()


async def test_bad_messages_get_plain_answers_and_change_nothing(real_services):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    communicator = await connect(host, code)
    await communicator.connect()
    await receive(communicator)
    game_id = await database_sync_to_async(lambda: Room.objects.get(code=code).game_id)()

    async def expect_error(payload, fragment):
        await communicator.send_to(text_data=payload)
        message = await receive_until(communicator, lambda m: m["type"] == "error")
        assert fragment in message["message"], message

    await expect_error("not json", "must be JSON")
    await expect_error("[1, 2]", "JSON object")
    await expect_error(json.dumps({"type": "dance"}), "Unknown message type")
    await expect_error("x" * 5000, "too large")
    await expect_error(
        json.dumps({"type": "act", "action": {"type": "fold"}, "seq": 0}), "no action"
    )
    await expect_error(json.dumps({"type": "act", "action": "{nope", "seq": 0}), "JSON object")
    await expect_error(
        json.dumps({"type": "act", "action": {"type": "flip"}, "seq": 7}), "moved on"
    )
    await expect_error(json.dumps({"type": "act", "action": None, "seq": 0}), "object with a")
    await expect_error(json.dumps({"type": "act", "action": {"type": "flip"}}), "malformed")
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    assert game.seq == 0  # nothing was applied
    await communicator.disconnect()


async def test_stale_seq_gets_the_current_state(real_services):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    communicator = await connect(host, code)
    await communicator.connect()
    await receive(communicator)
    await communicator.send_to(
        text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": 3})
    )
    error = await receive(communicator)
    state = await receive(communicator)
    assert error["type"] == "error" and state["type"] == "state" and state["seq"] == 0
    await communicator.disconnect()


async def test_flooding_is_throttled(real_services):
    host, code = await database_sync_to_async(_create_room)()
    communicator = await connect(host, code)
    await communicator.connect()
    await receive(communicator)
    for _ in range(40):
        await communicator.send_to(text_data=json.dumps({"type": "ping"}))
    answers = [await receive(communicator) for _ in range(40)]
    assert any(a["type"] == "error" and "Slow down" in a["message"] for a in answers)
    assert sum(a["type"] == "pong" for a in answers) <= 21
    await communicator.disconnect()


async def test_spectators_get_the_public_view_and_cannot_act(real_services):
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    watcher = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(
        host, code, game="poker", seats="2"
    )  # the third person watches
    engine = registry.get("poker")
    game = await database_sync_to_async(lambda: Room.objects.get(code=code).game)()

    state = await database_sync_to_async(store.load_state)(game)
    hands = {card for seat in range(2) for card in engine.view(state, seat)["hands"][seat]}
    communicator = await connect(watcher, code)
    await communicator.connect()
    message = await receive(communicator)
    assert message["seat"] is None and message["legal"] == []
    assert message["view"] == engine.view(state, None)
    text = json.dumps(message)
    assert not [card for card in hands if f'"{card}"' in text]
    await communicator.send_to(
        text_data=json.dumps({"type": "act", "action": {"type": "fold"}, "seq": 0})
    )
    error = await receive_until(communicator, lambda m: m["type"] == "error")
    assert "spectators can't play" in error["message"]
    # The seated players each see their own hand, and not the other's.
    for client, seat in ((host, 0), (guest, 1)):
        player = await connect(client, code)
        await player.connect()
        mine = await receive(player)
        assert mine["seat"] == seat
        other = 1 - seat
        own_cards = engine.view(state, seat)["hands"][seat]
        others_cards = engine.view(state, other)["hands"][other]
        dumped = json.dumps(mine)
        assert all(f'"{c}"' in dumped for c in own_cards)
        assert not any(f'"{c}"' in dumped for c in others_cards)
        await player.disconnect()
    await communicator.disconnect()


async def test_html_format_sends_fragments_for_htmx(real_services):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    communicator = await connect(host, code, fmt="html")
    await communicator.connect()
    html = await communicator.receive_from(timeout=5)
    assert html.startswith('\n<div id="room-main"') or '<div id="room-main"' in html[:200]
    assert "ws-send" in html and "Flip" in html
    await communicator.send_to(text_data="nonsense")
    error = await communicator.receive_from(timeout=5)
    assert 'id="table-error"' in error and "must be JSON" in error
    await communicator.disconnect()


async def test_reconnect_gets_the_current_state_at_once(real_services):
    host, code = await database_sync_to_async(_create_room)()
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    first = await connect(host, code)
    await first.connect()
    await receive(first)
    await first.send_to(text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": 0}))
    await receive_until(first, lambda m: m["type"] == "state" and m["seq"] >= 1)
    await first.disconnect()
    game = await database_sync_to_async(lambda: Room.objects.get(code=code).game)()
    again = await connect(host, code)
    await again.connect()
    state = await receive(again)
    assert state["type"] == "state" and state["seq"] == game.seq
    await again.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive(again))["seq"] == game.seq
    await again.disconnect()


def _gone_for_the_grace_period(member_id: int) -> None:
    away = timezone.now() - timedelta(seconds=settings.RECONNECT_GRACE + 1)
    Member.objects.filter(pk=member_id).update(last_seen=away)


def _seat_is_bot(code: str, seat: int) -> bool:
    return Room.objects.get(code=code).game.seats[seat]["bot"]


async def test_leave_then_computer_plays_then_seat_returned(real_services):
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    assert not await database_sync_to_async(_seat_is_bot)(code, 1)
    await database_sync_to_async(guest.post)(f"/rooms/{code}/leave/")
    assert await database_sync_to_async(_seat_is_bot)(code, 1)
    await database_sync_to_async(_join)(code)  # a fresh client has a fresh session: a new person
    assert await database_sync_to_async(_seat_is_bot)(code, 1)
    response = await database_sync_to_async(guest.post)("/rooms/join/", {"code": code})
    assert response.url == f"/rooms/{code}/"
    assert not await database_sync_to_async(_seat_is_bot)(code, 1)
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=1)
    assert member.player.startswith("guest:") and not member.left


async def test_lost_connection_hands_seat_to_computer_until_back(real_services):
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    communicator = await connect(guest, code)
    await communicator.connect()
    await receive(communicator)
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=1)
    assert await database_sync_to_async(services.is_online)(member.pk)
    await communicator.disconnect()
    assert not await database_sync_to_async(services.check_seat)(member.pk)  # too soon
    await database_sync_to_async(_gone_for_the_grace_period)(member.pk)
    # The grace period's check (a Celery task in production) finds no socket open.
    assert await database_sync_to_async(services.check_seat)(member.pk)
    assert await database_sync_to_async(_seat_is_bot)(code, 1)
    back = await connect(guest, code)
    await back.connect()
    state = await receive(back)
    assert state["seat"] == 1
    assert not await database_sync_to_async(_seat_is_bot)(code, 1)
    await back.disconnect()


async def test_a_quick_reconnect_keeps_the_seat(real_services):
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    first = await connect(guest, code)
    await first.connect()
    second = await connect(guest, code)  # a second tab
    await second.connect()
    await first.disconnect()
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=1)
    assert not await database_sync_to_async(services.check_seat)(member.pk)
    assert not await database_sync_to_async(_seat_is_bot)(code, 1)
    await second.disconnect()


async def test_a_private_table_waits_for_its_player(real_services):
    client, code = await database_sync_to_async(_play_solo)("klondike")
    communicator = await connect(client, code)
    await communicator.connect()
    await receive(communicator)
    await communicator.disconnect()
    member = await database_sync_to_async(Member.objects.get)(room__code=code)
    assert not await database_sync_to_async(services.check_seat)(member.pk)
    assert not await database_sync_to_async(_seat_is_bot)(code, 0)


# ---- an action applies at most once --------------------------------------------------------


def _flip(seq: int, action_id: str | None = None) -> str:
    message = {"type": "act", "action": {"type": "flip"}, "seq": seq}
    if action_id is not None:
        message["id"] = action_id
    return json.dumps(message)


def _events_of(code: str, seat: int) -> int:
    return Room.objects.get(code=code).game.log.filter(seat=seat).count()


async def _war_for_two(sockets_for_host: int = 1):
    """Two people at War, dealt so that the first round is no tie (it ends at seq 2)."""
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start_seeded)(code, "war", 2, SHORT_WAR)
    hosts = []
    for _ in range(sockets_for_host):
        ws = await connect(host, code)
        await ws.connect()
        await receive(ws)
        hosts.append(ws)
    other = await connect(guest, code)
    await other.connect()
    await receive(other)
    return code, hosts, other


async def test_a_flip_sent_again_after_the_round_is_not_applied_again(real_services):
    code, (a,), b = await _war_for_two()
    await a.send_to(text_data=_flip(0))
    await b.send_to(text_data=_flip(0))
    await receive_until(a, lambda m: m["type"] == "state" and m["seq"] == 2)
    await a.send_to(text_data=_flip(0))  # the same message again: the table moved on
    error = await receive_until(a, lambda m: m["type"] == "error")
    assert "moved on" in error["message"]
    state = await receive_until(a, lambda m: m["type"] == "state")
    assert state["seq"] == 2 and state["view"]["round"] == 2
    assert await database_sync_to_async(_events_of)(code, 0) == 1
    for ws in (a, b):
        await ws.disconnect()


async def _answers(sockets, count: int) -> list[dict]:
    answers = []
    for ws in sockets:
        for _ in range(count):
            answers.append(await receive_until(ws, lambda m: m["type"] in ("ack", "error")))
    return answers


async def _drain(ws, quiet: float = 1.5) -> list[dict]:
    """Everything a socket was sent until it has been quiet for `quiet` seconds."""
    messages = []
    while not await ws.receive_nothing(timeout=quiet):
        messages.append(json.loads(await ws.receive_from()))
    return messages


async def test_fifty_copies_from_several_sockets_of_one_seat_apply_once(real_services):
    code, hosts, guest = await _war_for_two(sockets_for_host=5)
    await guest.send_to(text_data=_flip(0))
    await receive_until(guest, lambda m: m["type"] == "state" and m["seq"] == 1)
    await asyncio.gather(*(ws.send_to(text_data=_flip(0)) for ws in hosts for _ in range(10)))
    answers = [m for ws in hosts for m in await _drain(ws)]
    errors = [m["message"] for m in answers if m["type"] == "error"]
    assert len(errors) == 49 and all("moved on" in e for e in errors)
    assert await database_sync_to_async(_events_of)(code, 0) == 1
    for ws in [*hosts, guest]:
        await ws.disconnect()


async def test_fifty_copies_with_one_action_id_get_the_same_answer(real_services):
    code, hosts, guest = await _war_for_two(sockets_for_host=5)
    await guest.send_to(text_data=_flip(0))
    await receive_until(guest, lambda m: m["type"] == "state" and m["seq"] == 1)
    copy = _flip(0, "round-1")
    await asyncio.gather(*(ws.send_to(text_data=copy) for ws in hosts for _ in range(10)))
    answers = await _answers(hosts, 10)
    assert answers == [{"type": "ack", "id": "round-1", "seq": 2}] * 50
    assert await database_sync_to_async(_events_of)(code, 0) == 1
    for ws in [*hosts, guest]:
        await ws.disconnect()


async def test_a_limited_action_says_it_was_not_applied(real_services):
    _, (a,), b = await _war_for_two()
    for _ in range(30):
        await a.send_to(text_data=json.dumps({"type": "ping"}))
    await a.send_to(text_data=_flip(0, "late"))
    error = await receive_until(a, lambda m: m["type"] == "error" and m.get("id") == "late")
    assert "not applied" in error["message"] and error["retry_after"] > 0
    for ws in (a, b):
        await ws.disconnect()


# ---- Speed Play ----------------------------------------------------------------------------


def _speed_of_game(code: str) -> str:
    return Room.objects.get(code=code, is_open=True).game.speed_play


async def test_speed_play_is_the_hosts_choice_and_kept_for_their_next_table(real_services):
    client, code = await database_sync_to_async(_play_solo)("war")  # against the computer
    ws = await connect(client, code)
    await ws.connect()
    assert (await receive(ws))["speed_play"] == "normal"
    await ws.send_to(text_data=json.dumps({"type": "speed_play", "speed": "warp"}))
    error = await receive_until(ws, lambda m: m["type"] == "error")
    assert error["message"] == "Speed Play is Normal, Fast or Instant."
    await ws.send_to(text_data=json.dumps({"type": "speed_play", "speed": "instant"}))
    state = await receive_until(ws, lambda m: m["type"] == "state")
    assert state["speed_play"] == "instant"
    assert await database_sync_to_async(_speed_of_game)(code) == "instant"
    await ws.disconnect()
    next_code = await database_sync_to_async(_play_again)(client)
    assert next_code != code
    assert await database_sync_to_async(_speed_of_game)(next_code) == "instant"


def _play_again(client: Client) -> str:
    response = client.post("/play/war/")
    connection.close()
    return response.url.rstrip("/").split("/")[-1]


async def test_speed_play_is_kept_on_a_signed_in_players_account(real_services):
    from accounts.models import User

    user = await database_sync_to_async(User.objects.create_user)("speedy", password="x")
    client = Client()
    await database_sync_to_async(client.force_login)(user)
    code = await database_sync_to_async(_play_again)(client)
    ws = await connect(client, code)
    await ws.connect()
    await receive(ws)
    await ws.send_to(text_data=json.dumps({"type": "speed_play", "speed": "fast"}))
    await receive_until(ws, lambda m: m["type"] == "state" and m["speed_play"] == "fast")
    await ws.disconnect()
    assert (await User.objects.aget(pk=user.pk)).speed_play == "fast"
    fresh = Client()  # another browser, signed in as the same person
    await database_sync_to_async(fresh.force_login)(user)
    next_code = await database_sync_to_async(_play_again)(fresh)
    assert await database_sync_to_async(_speed_of_game)(next_code) == "fast"


async def test_only_the_host_changes_speed_play(real_services):
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="3")
    ws = await connect(guest, code, fmt="html")
    await ws.connect()
    page = await ws.receive_from()
    assert "Speed Play: Normal" in page and 'name="speed"' not in page
    await ws.send_to(text_data=json.dumps({"type": "speed_play", "speed": "instant"}))
    assert "Only the host can change Speed Play." in await ws.receive_from()
    assert await database_sync_to_async(_speed_of_game)(code) == "normal"
    await ws.disconnect()
    mine = await connect(host, code, fmt="html")
    await mine.connect()
    assert 'name="speed"' in await mine.receive_from()
    await mine.disconnect()
