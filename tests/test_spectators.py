"""Spectators: anyone watches a public or ranked table, a private one only with the host's
watcher link; they get the public view (seat null), can't act, and the table counts them."""

import html
import json
import re

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
