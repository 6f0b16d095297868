"""Open tables: public rooms listed at /tables/ while they wait for players, kept current
over /ws/tables/, joined in one click; private rooms never listed."""

import html
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from accounts import ratings
from accounts.models import Rating, User
from cubiccards.asgi import application
from lobby import selectors, services
from lobby.models import Room

pytestmark = pytest.mark.django_db(transaction=True)


def text(response) -> str:
    return html.unescape(response.content.decode())


def _host(client: Client | None = None) -> tuple[Client, Room]:
    """A room whose host is here (their page's socket is open)."""
    client = client or Client()
    client.get("/")
    code = client.post("/rooms/").url.rstrip("/").split("/")[-1]
    room = Room.objects.get(code=code, is_open=True)
    services.connected(room_id=room.pk, player=room.host, channel=f"test.{code}")
    return client, room


def _list(client: Client, room: Room, **form) -> None:
    form = {"public": "1", "game": "war", **form}
    response = client.post(f"/rooms/{room.code}/public/", form)
    assert response.status_code == 302


def _join_listed(code: str) -> tuple[Client, str]:
    client = Client()
    client.get("/")
    response = client.post("/rooms/join/", {"code": code, "listed": "1"}, follow=True)
    return client, text(response)


def test_a_listed_table_shows_its_game_options_seats_host_and_rating(real_services):
    user = User.objects.create_user("ann", password="pw-long-enough-1")
    client = Client()
    client.force_login(user)
    Rating.objects.create(
        user=user, kind="gin", mu=30.0, sigma=3.0, ordinal=21.0, games=4, updated=timezone.now()
    )
    _, room = _host(client)
    _list(client, room, game="gin", turn_timer="30")
    [table] = selectors.open_tables()
    assert table["code"] == room.code and table["title"] == "Gin Rummy"
    assert table["host"] == "ann" and table["rating"] == ratings.shown(30.0, 3.0)
    assert (table["seats"], table["free"]) == (2, 1)
    assert table["options"] == ["Turn timer: 30 s"]
    page = text(Client().get("/tables/"))
    assert room.code in page and "Gin Rummy" in page and "1 of 2 seats free" in page
    # The rule options the host changed are listed; a guest host has no rating.
    guest, war = _host()
    _list(guest, war, rule_rounds="50", seats="3")
    listed = {t["code"]: t for t in selectors.open_tables()}
    assert listed[war.code]["options"] == ["Game length: Quick: 50 rounds"]
    assert (listed[war.code]["rating"], listed[war.code]["free"]) == (None, 2)


def test_private_rooms_are_never_listed(real_services):
    _host()  # a room shared by code only
    solo = Client()
    solo.post("/play/war/")  # a game against the computer
    assert selectors.open_tables() == []
    assert "No table is waiting" in text(Client().get("/tables/"))


def test_only_the_host_lists_and_a_private_room_cannot_be_joined_from_the_list(real_services):
    host, room = _host()
    guest = Client()
    guest.post("/rooms/join/", {"code": room.code})
    response = guest.post(f"/rooms/{room.code}/public/", {"public": "1", "game": "war"})
    assert "Only the host can open the table to everyone." in text(guest.get(response.url))
    assert not Room.objects.get(pk=room.pk).public
    _, page = _join_listed(room.code)
    assert f"No open room has the code {room.code}." in page


def test_a_full_table_leaves_the_list_and_is_refused_with_a_sentence(real_services):
    host, room = _host()
    _list(host, room, seats="2")
    assert [t["code"] for t in selectors.open_tables()] == [room.code]
    _, page = _join_listed(room.code)
    assert selectors.open_tables() == []  # the second seat is taken
    _, page = _join_listed(room.code)
    assert f"Table {room.code} is full: all 2 seats are taken." in page
    assert Room.objects.get(pk=room.pk).present().count() == 2


def test_a_started_table_is_refused_from_the_list(real_services):
    host, room = _host()
    _list(host, room, seats="3")
    host.post(f"/rooms/{room.code}/start/", {"game": "war", "seats": "3"})
    assert selectors.open_tables() == []
    _, page = _join_listed(room.code)
    assert f"Table {room.code} has started its game: watch it instead." in page


def test_a_table_whose_host_is_gone_is_not_listed(real_services):
    host, room = _host()
    _list(host, room)
    assert selectors.open_tables()
    member = services.member_of(room, room.host)
    services.disconnected(member_id=member.pk, channel=f"test.{room.code}")
    assert selectors.open_tables() == []


async def _tables_socket() -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    communicator = WebsocketCommunicator(application, "/ws/tables/?format=json", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _codes(communicator) -> list[tuple[str, int]]:
    message = json.loads(await communicator.receive_from(timeout=5))
    assert message["type"] == "tables"
    return [(t["code"], t["free"]) for t in message["tables"]]


@pytest.mark.asyncio
async def test_the_list_updates_live_on_listing_joining_starting_and_unlisting(real_services):
    communicator = await _tables_socket()
    assert await _codes(communicator) == []
    host, room = await database_sync_to_async(_host)()
    await database_sync_to_async(_list)(host, room, seats="3")
    assert await _codes(communicator) == [(room.code, 2)]
    await database_sync_to_async(_join_listed)(room.code)
    assert await _codes(communicator) == [(room.code, 1)]
    await database_sync_to_async(host.post)(f"/rooms/{room.code}/start/", {"game": "war"})
    assert await _codes(communicator) == []
    await database_sync_to_async(host.post)(f"/rooms/{room.code}/lobby/")
    assert await _codes(communicator) == [(room.code, 1)]
    await database_sync_to_async(host.post)(f"/rooms/{room.code}/public/", {"public": "0"})
    assert await _codes(communicator) == []
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_the_list_socket_sends_html_for_the_page(real_services):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    communicator = WebsocketCommunicator(application, "/ws/tables/", headers=headers)
    assert (await communicator.connect())[0]
    fragment = await communicator.receive_from(timeout=5)
    assert fragment.startswith('<div id="open-tables"')
    await communicator.disconnect()
