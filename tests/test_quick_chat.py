"""Quick chat at a table: a seated player says one of the fixed phrases and everyone at the
table hears it (seats, the room's other people, spectators, JSON and HTML); spectators can't
say anything; unknown, malformed, replayed and too many phrases are answered to the sender
alone and shown to nobody; nothing of it reaches the game's log."""

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from cubiccards.asgi import application
from gameplay.models import GameEvent
from infra import limits
from lobby import chat
from lobby.models import Member, Room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _table(people: int = 2) -> tuple[list[Client], str]:
    """A public room where the first two of `people` play War (nothing moves by itself)."""
    clients = [Client() for _ in range(people)]
    for client in clients:
        client.get("/")
    host = clients[0]
    code = host.post("/rooms/").url.rstrip("/").split("/")[-1]
    for client in clients[1:]:
        client.post("/rooms/join/", {"code": code})
    host.post(f"/rooms/{code}/public/", {"public": "1", "game": "war", "seats": "2"})
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
    return clients, code


async def _open(path: str, client: Client | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    assert (await socket.connect())[0]
    return socket


async def _seat(client: Client, code: str) -> tuple[WebsocketCommunicator, dict]:
    socket = await _open(f"/ws/rooms/{code}/?format=json", client)
    return socket, await _next(socket, "state")


async def _next(socket, kind: str) -> dict:
    for _ in range(20):
        message = json.loads(await socket.receive_from(timeout=5))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


async def _no_chat(socket, seconds: float = 0.5) -> None:
    """Nothing said reaches this socket (other messages may)."""
    while not await socket.receive_nothing(timeout=seconds):
        message = json.loads(await socket.receive_from())
        assert message["type"] != "chat", message


async def _say(socket, **message) -> None:
    await socket.send_to(text_data=json.dumps({"type": "chat", **message}))


async def test_a_players_phrase_reaches_everyone_at_the_table_and_not_the_log(real_services):
    (host, guest, third), code = await database_sync_to_async(_table)(3)
    ann, ann_state = await _seat(host, code)
    bob, _ = await _seat(guest, code)
    cat, cat_state = await _seat(third, code)  # in the room, without a seat
    assert cat_state["seat"] is None
    watcher = await _open(f"/ws/rooms/{code}/watch/?format=json")
    await _next(watcher, "state")
    page = await _open(f"/ws/rooms/{code}/watch/")  # the watch page's socket: HTML
    await page.receive_from(timeout=5)  # its table

    await _say(ann, phrase="gg")
    seat = ann_state["seat"]
    said = {
        "type": "chat",
        "seat": seat,
        "name": ann_state["seats"][seat]["name"],
        "phrase": "gg",
        "text": "Good game",
    }
    for socket in (ann, bob, cat, watcher):
        assert await _next(socket, "chat") == said
    fragment = await page.receive_from(timeout=5)
    while "chat-said" not in fragment:  # (the watching count came first)
        fragment = await page.receive_from(timeout=5)
    assert f'data-seat="{seat}"' in fragment and 'data-text="Good game"' in fragment

    room = await database_sync_to_async(Room.objects.select_related("game").get)(
        code=code, is_open=True
    )
    assert room.game.seq == 0
    assert not await database_sync_to_async(GameEvent.objects.filter(game=room.game).exists)()
    for socket in (ann, bob, cat, watcher, page):
        await socket.disconnect()


async def test_unknown_and_malformed_phrases_are_answered_and_shown_to_nobody(real_services):
    (host, guest), code = await database_sync_to_async(_table)()
    ann, _ = await _seat(host, code)
    bob, _ = await _seat(guest, code)
    for message, said in (
        ({"phrase": "hello"}, chat.UNKNOWN),
        ({"phrase": "Good game"}, chat.UNKNOWN),  # the text, not its id: no free text
        ({"phrase": "you are all terrible"}, chat.UNKNOWN),
        ({"phrase": ["gg"]}, chat.MALFORMED),
        ({"phrase": None}, chat.MALFORMED),
        ({}, chat.MALFORMED),
        ({"phrase": "gg", "id": 7}, chat.BAD_ID),
        ({"phrase": "gg", "id": "x" * 65}, chat.BAD_ID),
    ):
        await _say(ann, **message)
        error = await _next(ann, "error")
        assert error["message"] == said, (message, error)
    await _no_chat(bob)
    await ann.send_to(text_data='{"type": "chat", "phrase": "gg"')  # cut short: not JSON
    assert (await _next(ann, "error"))["message"] == "Messages must be JSON."
    await _no_chat(bob)
    for socket in (ann, bob):
        await socket.disconnect()


async def test_spectators_and_people_without_a_seat_cannot_chat(real_services):
    (host, guest, third), code = await database_sync_to_async(_table)(3)
    ann, _ = await _seat(host, code)
    cat, _ = await _seat(third, code)
    watcher = await _open(f"/ws/rooms/{code}/watch/?format=json")
    await _next(watcher, "state")
    for socket in (cat, watcher):
        await _say(socket, phrase="gg", id="w1")
        error = await _next(socket, "error")
        assert error == {"type": "error", "message": chat.SPECTATORS_CANNOT_CHAT, "id": "w1"}
    await _no_chat(ann)

    # Back in the lobby nobody sits at a game.
    await database_sync_to_async(host.post)(f"/rooms/{code}/lobby/")
    await _next(ann, "lobby")
    await _say(ann, phrase="gg")
    assert (await _next(ann, "error"))["message"] == chat.NO_GAME
    for socket in (ann, cat, watcher):
        await socket.disconnect()


async def test_too_many_phrases_are_refused_to_the_sender_alone(real_services, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    (host, guest), code = await database_sync_to_async(_table)()
    ann, _ = await _seat(host, code)
    bob, _ = await _seat(guest, code)

    async def heard(n: int) -> None:
        for _ in range(n):
            await _say(ann, phrase="wp")
            await _next(bob, "chat")

    async def refused(wait: float) -> None:
        await _say(ann, phrase="wp")
        error = await _next(ann, "error")
        assert error["message"].startswith("Slow down: at most 3 quick chats in 10 seconds")
        assert error["retry_after"] == wait
        await _no_chat(bob, 0.3)

    await heard(3)
    await refused(10.0)  # a 4th within 10 seconds
    clock[0] += 4
    await refused(6.0)
    for _ in range(3):  # 3 more every 10 seconds, to 12 in the minute
        clock[0] += 10
        await heard(3)
    clock[0] += 10  # 44 s after the first: the 10 seconds are free, the minute is not
    await refused(16.0)
    clock[0] += 16.5
    await heard(1)
    for socket in (ann, bob):
        await socket.disconnect()


async def test_a_phrase_sent_again_with_its_id_is_not_shown_again(real_services):
    (host, guest), code = await database_sync_to_async(_table)()
    ann, _ = await _seat(host, code)
    ann_again, _ = await _seat(host, code)  # the same person's second tab
    bob, _ = await _seat(guest, code)
    await _say(ann, phrase="thanks", id="c1")
    assert (await _next(bob, "chat"))["phrase"] == "thanks"
    for socket in (ann, ann_again):
        await _say(socket, phrase="thanks", id="c1")
        error = await _next(socket, "error")
        assert error == {"type": "error", "message": chat.REPLAYED, "id": "c1"}
    await _no_chat(bob)
    await _say(ann, phrase="thanks", id="c2")
    assert (await _next(bob, "chat"))["phrase"] == "thanks"
    for socket in (ann, ann_again, bob):
        await socket.disconnect()


async def test_a_person_the_block_check_names_does_not_see_the_phrase(real_services, monkeypatch):
    (host, guest), code = await database_sync_to_async(_table)()
    bob_key = await database_sync_to_async(
        lambda: Member.objects.exclude(player=Room.objects.get(code=code).host).get().player
    )()
    monkeypatch.setattr(chat, "unheard_by", lambda room, speaker: {bob_key})
    ann, _ = await _seat(host, code)
    bob, _ = await _seat(guest, code)
    watcher = await _open(f"/ws/rooms/{code}/watch/?format=json")
    await _next(watcher, "state")
    await _say(ann, phrase="oops")
    assert (await _next(watcher, "chat"))["phrase"] == "oops"
    assert (await _next(ann, "chat"))["phrase"] == "oops"
    await _no_chat(bob)
    for socket in (ann, bob, watcher):
        await socket.disconnect()


def _signed_up_table() -> tuple[list[Client], str]:
    """ann hosts a War table for two and bob sits at it, both signed up (blocks are between
    accounts)."""
    from django.contrib.auth import get_user_model

    clients = []
    for name in ("ann", "bob"):
        get_user_model().objects.create_user(username=name, password="pw-for-tests-1")
        client = Client()
        client.login(username=name, password="pw-for-tests-1")
        clients.append(client)
    host, guest = clients
    code = host.post("/rooms/").url.rstrip("/").split("/")[-1]
    guest.post("/rooms/join/", {"code": code})
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
    return clients, code


async def test_a_person_who_blocked_the_speaker_does_not_see_the_phrase(real_services):
    from social import services as social

    (host, guest), code = await database_sync_to_async(_signed_up_table)()
    ann, _ = await _seat(host, code)
    bob, _ = await _seat(guest, code)
    await _say(ann, phrase="thanks")
    assert (await _next(bob, "chat"))["phrase"] == "thanks"  # before the block, bob hears it
    assert (await _next(ann, "chat"))["phrase"] == "thanks"
    bob_user = await database_sync_to_async(lambda: Member.objects.get(name="bob").user)()
    await database_sync_to_async(social.block)(user=bob_user, username="ann")
    await _say(ann, phrase="oops")
    assert (await _next(ann, "chat"))["phrase"] == "oops"
    await _no_chat(bob)
    await _say(bob, phrase="thanks")  # nor does the speaker see the blocker's
    assert (await _next(bob, "chat"))["phrase"] == "thanks"
    await _no_chat(ann)
    for socket in (ann, bob):
        await socket.disconnect()


def _count_at_once(room_id: int, player: str, senders: int) -> int:
    """`senders` threads count a phrase for one person at one table at the same instant (the
    step of `chat.say` that reads and writes the limit); how many pass."""
    start = threading.Barrier(senders)

    def send(_) -> bool:
        start.wait()
        try:
            chat._count(room_id, player, "")
            return True
        except chat.Refused:
            return False

    with ThreadPoolExecutor(senders) as pool:
        return sum(pool.map(send, range(senders)))


async def test_sends_at_the_same_instant_from_one_person_pass_the_limit_exactly(
    real_services, monkeypatch
):
    clock = [5000.0]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    (host, guest), code = await database_sync_to_async(_table)()
    room = await database_sync_to_async(Room.objects.get)(code=code)
    for _ in range(4):  # each round a fresh minute
        clock[0] += 61
        passed = await asyncio.to_thread(_count_at_once, room.pk, room.host, 16)
        assert passed == chat.CHAT_BURST
    # and through two of the person's sockets, sending together
    clock[0] += 61
    ann, _ = await _seat(host, code)
    ann_again, _ = await _seat(host, code)
    bob, _ = await _seat(guest, code)
    await asyncio.gather(*(_say(s, phrase="wow") for _ in range(5) for s in (ann, ann_again)))
    heard = 0
    while not await bob.receive_nothing(timeout=1):
        heard += json.loads(await bob.receive_from())["type"] == "chat"
    assert heard == chat.CHAT_BURST
    for socket in (ann, ann_again, bob):
        await socket.disconnect()
