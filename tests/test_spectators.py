"""Spectators: anyone watches a public or ranked table, a private one only with the host's
watcher link; they get the public view (seat null), can't act, and the table counts them."""

import asyncio
import html
import json
import re
import threading

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from cubiccards.asgi import application
from gameplay import store
from gameplay.engine import registry
from lobby import services
from lobby.models import Room, Watcher
from tests.socket_helpers import refused

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def text(response) -> str:
    return html.unescape(response.content.decode())


def _table(public: bool = False) -> tuple[Client, Client, str]:
    """A room of two people playing War (no computer seat: nothing moves by itself)."""
    host = Client()
    host.get("/")
    code = host.post("/rooms/").url.rstrip("/").split("/")[-1]
    guest = Client()
    guest.get("/")
    guest.post("/rooms/join/", {"code": code})
    if public:
        host.post(f"/rooms/{code}/public/", {"public": "1", "game": "war", "seats": "2"})
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
    return host, guest, code


def _watcher_link(host: Client, code: str) -> str:
    page = text(host.get(f"/rooms/{code}/"))
    return re.search(r'data-copy="(http://testserver/rooms/[A-Z]+/watch/[^"]*)"', page)[1]


def _socket(path: str, client: Client | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def _receive(communicator, kind: str) -> dict:
    for _ in range(20):
        message = json.loads(await communicator.receive_from(timeout=5))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


async def test_a_private_table_is_watched_only_with_the_hosts_link(real_services):
    host, _, code = await database_sync_to_async(_table)()
    stranger = Client()
    page = await database_sync_to_async(stranger.get)(f"/rooms/{code}/watch/")
    assert page.status_code == 404 and services.WATCH_REFUSED in text(page)
    refused_socket = _socket(f"/ws/rooms/{code}/watch/?format=json")
    assert await refused(refused_socket) == 4403
    forged = _socket(f"/ws/rooms/{code}/watch/?format=json&invite=1:forged")
    assert await refused(forged) == 4403

    link = await database_sync_to_async(_watcher_link)(host, code)
    assert "invite=" in link
    page = await database_sync_to_async(stranger.get)(link.removeprefix("http://testserver"))
    assert page.status_code == 200 and "Watching" in text(page)
    invite = link.split("invite=")[1]
    watcher = _socket(f"/ws/rooms/{code}/watch/?format=json&invite={invite}")
    assert (await watcher.connect())[0]
    state = await _receive(watcher, "state")
    assert state["seat"] is None and state["legal"] == []
    game = await database_sync_to_async(lambda: Room.objects.get(code=code, is_open=True).game)()
    view = registry.get("war").view(await database_sync_to_async(store.load_state)(game), None)
    assert state["view"] == json.loads(json.dumps(view))
    await watcher.disconnect()


async def test_an_invitation_is_for_its_own_room_only(real_services):
    host, _, code = await database_sync_to_async(_table)()
    _, _, other = await database_sync_to_async(_table)()
    invite = (await database_sync_to_async(_watcher_link)(host, code)).split("invite=")[1]
    page = await database_sync_to_async(Client().get)(f"/rooms/{other}/watch/?invite={invite}")
    assert page.status_code == 404


async def test_a_public_table_is_watched_by_anyone_without_a_session(real_services):
    _, _, code = await database_sync_to_async(_table)(public=True)
    watcher = _socket(f"/ws/rooms/{code}/watch/?format=json")
    assert (await watcher.connect())[0]
    assert (await _receive(watcher, "state"))["seat"] is None
    await watcher.disconnect()


async def test_a_ranked_table_is_watched_by_anyone(real_services):
    _, _, code = await database_sync_to_async(_table)()
    await database_sync_to_async(Room.objects.filter(code=code).update)(ranked=True)
    page = await database_sync_to_async(Client().get)(f"/rooms/{code}/watch/")
    assert page.status_code == 200


async def test_a_spectator_cannot_act_and_nothing_changes(real_services):
    _, _, code = await database_sync_to_async(_table)(public=True)
    watcher = _socket(f"/ws/rooms/{code}/watch/?format=json")
    assert (await watcher.connect())[0]
    await _receive(watcher, "state")
    for message in (
        {"type": "act", "action": {"type": "flip"}, "seq": 0, "id": "w1"},
        {"type": "hint"},
        {"type": "speed_play", "speed": "fast"},
    ):
        await watcher.send_to(text_data=json.dumps(message))
        error = await _receive(watcher, "error")
        assert error["message"] == "You are watching this game: spectators can't play."
    game = await database_sync_to_async(lambda: Room.objects.get(code=code, is_open=True).game)()
    assert game.seq == 0 and game.speed_play == "normal"
    await watcher.disconnect()


async def test_the_table_counts_its_spectators_live(real_services):
    host, _, code = await database_sync_to_async(_table)(public=True)
    seat = _socket(f"/ws/rooms/{code}/?format=json", host)
    assert (await seat.connect())[0]
    await _receive(seat, "state")
    watchers = []
    for expected in (1, 2):
        watcher = _socket(f"/ws/rooms/{code}/watch/?format=json")
        assert (await watcher.connect())[0]
        watchers.append(watcher)
        assert (await _receive(seat, "watchers"))["count"] == expected
    await watchers.pop().disconnect()
    assert (await _receive(seat, "watchers"))["count"] == 1
    page = await database_sync_to_async(host.get)(f"/rooms/{code}/")
    assert "1 watching" in text(page)
    await watchers.pop().disconnect()
    assert (await _receive(seat, "watchers"))["count"] == 0
    assert not await database_sync_to_async(Watcher.objects.exists)()
    await seat.disconnect()


async def test_the_html_count_is_a_fragment_swapped_by_id(real_services):
    host, _, code = await database_sync_to_async(_table)(public=True)
    seat = _socket(f"/ws/rooms/{code}/", host)
    assert (await seat.connect())[0]
    await seat.receive_from(timeout=5)  # the table
    watcher = _socket(f"/ws/rooms/{code}/watch/")
    assert (await watcher.connect())[0]
    fragment = await seat.receive_from(timeout=5)
    assert fragment.startswith('<span id="watching"') and "1 watching" in fragment
    await watcher.disconnect()
    await seat.disconnect()


async def test_a_crowd_arriving_is_counted_in_one_message_not_one_each(real_services):
    """Each arrival used to send every socket at the table the new count: a thousand
    spectators arriving together sent half a million messages, and the server's sockets missed
    their keepalive pings under them. Now a table's count goes out at most once a
    WATCH_COUNT_EVERY from each process, with the count as it is then."""
    host, _, code = await database_sync_to_async(_table)(public=True)
    seat = _socket(f"/ws/rooms/{code}/?format=json", host)
    assert (await seat.connect())[0]
    await _receive(seat, "state")
    room = await database_sync_to_async(Room.objects.get)(code=code, is_open=True)

    def crowd():
        for n in range(40):
            services.started_watching(room_id=room.pk, channel=f"crowd-{n}")

    await database_sync_to_async(crowd)()
    assert (await _receive(seat, "watchers"))["count"] == 40
    assert await seat.receive_nothing(timeout=services.WATCH_COUNT_EVERY + 0.5)
    await database_sync_to_async(Watcher.objects.filter(room=room).delete)()
    await seat.disconnect()


async def test_html_spectators_share_one_rendering_of_each_view(real_services, monkeypatch):
    """Each spectator's socket used to render the table's template for itself: 20 HTML
    spectators at a table cost 20 renderings of one and the same page on the event loop at
    every move, which kept the seats' own views waiting. Spectators show no form, so one
    rendering per view (and card style) serves them all."""
    from lobby import tables

    renders = []
    render = tables.render_fragment
    monkeypatch.setattr(
        tables, "render_fragment", lambda context: renders.append(1) or render(context)
    )
    _, _, code = await database_sync_to_async(_table)(public=True)
    watchers = []
    for _ in range(5):
        watcher = _socket(f"/ws/rooms/{code}/watch/")
        assert (await watcher.connect())[0]
        watchers.append(watcher)
    fragments = {await w.receive_from(timeout=5) for w in watchers}
    assert len(fragments) == 1 and 'id="room-main"' in fragments.pop()
    assert len(renders) == 1
    for watcher in watchers:
        await watcher.disconnect()


async def _seats_and_crowd(code: str, host: Client, guest: Client, n: int, slow: int = 0):
    """`n` JSON spectators (the first `slow` marked slow), then the table's two JSON seats
    (the spectators' subscription is first in the game's group: what is sent first is not
    left to the order the sockets joined), each past its first views."""
    crowd = []
    for i in range(n):
        mark = "&slow=1" if i < slow else ""
        watcher = _socket(f"/ws/rooms/{code}/watch/?format=json{mark}")
        assert (await watcher.connect())[0]
        await _receive(watcher, "state")
        crowd.append(watcher)
    seats = []
    for client in (host, guest):
        seat = _socket(f"/ws/rooms/{code}/?format=json", client)
        assert (await seat.connect())[0]
        await _receive(seat, "state")
        seats.append(seat)
    await asyncio.gather(*(_views(socket, 0.5) for socket in (*seats, *crowd)))
    return seats, crowd


async def _flip(seat, seq: int) -> None:
    act = {"type": "act", "action": {"type": "flip"}, "seq": seq, "id": f"f{seq}"}
    await seat.send_to(text_data=json.dumps(act))


async def _views(socket, seconds: float = 1.0) -> list[int]:
    """The seqs of the state messages this socket is sent until it has been quiet a while."""
    seqs = []
    while not await socket.receive_nothing(timeout=seconds):
        message = json.loads(await socket.receive_from())
        if message["type"] == "state":
            seqs.append(message["seq"])
    return seqs


async def test_json_spectators_share_one_message_per_move_sent_after_the_seats(
    real_services, monkeypatch
):
    """Each JSON spectator's socket used to build the table's message for itself, and a
    move's views went out in whatever order the sockets heard it. Now one message per move
    serves a process's spectators, and they are sent it after the seats."""
    from lobby import consumers, tables

    builds, sent = [], []
    build = tables.state_message
    monkeypatch.setattr(
        tables,
        "state_message",
        lambda context: builds.append(context["seat"]) or build(context),
    )
    send = consumers.RoomConsumer.send

    async def recording_send(self, text_data=None, bytes_data=None, close=False):
        message = json.loads(text_data) if text_data else {}
        if message.get("type") == "state":
            spectator = isinstance(self, consumers.WatchConsumer)
            sent.append(("spectator" if spectator else "seat", message["seq"]))
        await send(self, text_data=text_data, bytes_data=bytes_data, close=close)

    monkeypatch.setattr(consumers.RoomConsumer, "send", recording_send)
    host, guest, code = await database_sync_to_async(_table)(public=True)
    (ann, bob), crowd = await _seats_and_crowd(code, host, guest, 12)
    for seq, seat in enumerate((ann, bob, ann)):
        builds.clear()
        await _flip(seat, seq)
        for watcher in crowd:
            assert (await _receive(watcher, "state"))["seq"] == seq + 1
        assert builds.count(None) == 1  # the spectators' message, built once
        order = [who for who, at in sent if at == seq + 1]
        assert order.count("seat") == 2 and order.count("spectator") == 12
        assert order[:2] == ["seat", "seat"], order
    for socket in (ann, bob, *crowd):
        await socket.disconnect()


async def test_a_slow_spectator_is_sent_the_newest_view_not_a_backlog(real_services, monkeypatch):
    from lobby import consumers

    send = consumers.RoomConsumer.send

    async def slow_send(self, text_data=None, bytes_data=None, close=False):
        if b"slow=1" in self.scope.get("query_string", b"") and text_data:
            await asyncio.sleep(1.5)  # a spectator whose connection is behind
        await send(self, text_data=text_data, bytes_data=bytes_data, close=close)

    host, guest, code = await database_sync_to_async(_table)(public=True)
    monkeypatch.setattr(consumers.RoomConsumer, "send", slow_send)
    (ann, bob), crowd = await _seats_and_crowd(code, host, guest, 3, slow=1)
    slow, quick = crowd[0], crowd[1:]
    await _views(slow, 2.0)  # its views of the seats arriving, each 1.5 s late
    for seq, seat in enumerate((ann, bob, ann, bob)):  # each move delivered to the others
        await _flip(seat, seq)
        for watcher in quick:
            assert (await _receive(watcher, "state"))["seq"] == seq + 1
    moves = await _views(slow, 2.0)
    assert moves[-1] == 4  # it ends on the newest view
    assert len(moves) <= 2, moves  # the first move's, then the newest: none of those between
    for socket in (ann, bob, *crowd):
        await socket.disconnect()


async def test_a_seat_moves_on_while_the_spectators_view_is_rendering(real_services, monkeypatch):
    """The HTML spectators' view of a move (a render of the whole table) used to be built on
    the event loop, and every seat's move in that process waited until it was done. It is
    built on the render thread now: the next seat's move is answered while it renders."""
    from lobby import tables

    rendering, gate, rendered = threading.Event(), threading.Event(), []
    render = tables.render_fragment

    def held(context):
        if context["room"].game.seq == 1:  # the first move's view: held until the test says
            rendering.set()
            gate.wait(timeout=3)
            rendered.append(context["room"].game.seq)
        return render(context)

    host, guest, code = await database_sync_to_async(_table)(public=True)
    (ann, bob), _ = await _seats_and_crowd(code, host, guest, 0)
    watchers = []
    for _ in range(3):
        watcher = _socket(f"/ws/rooms/{code}/watch/")
        assert (await watcher.connect())[0]
        await watcher.receive_from(timeout=5)
        watchers.append(watcher)
    monkeypatch.setattr(tables, "render_fragment", held)
    await _flip(ann, 0)
    assert (await _receive(ann, "state"))["seq"] == 1
    assert await asyncio.to_thread(rendering.wait, 5)
    await _flip(bob, 1)
    while (await _receive(bob, "state"))["seq"] < 2:
        pass  # (ann's move first)
    assert rendered == []  # bob's move was answered with the spectators' view still rendering
    gate.set()
    for watcher in watchers:
        seqs = set()
        while 2 not in seqs:
            seqs |= {int(s) for s in re.findall(r'data-seq="(\d+)"', await watcher.receive_from(5))}
    assert rendered == [1]  # one rendering for the three of them
    for socket in (ann, bob, *watchers):
        await socket.disconnect()
