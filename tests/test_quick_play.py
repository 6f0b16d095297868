"""Find players (once "Quick play"): the ranked queue's machinery seating casual, unrated tables of any game for two
or more, computer players after a longer wait or at once on request."""

import html
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import Rating, User
from cubiccards.asgi import application
from lobby import ranked
from lobby.models import QueueEntry

KIND = "war"  # unrated: quick play is not only for rated games
SIZE = 4  # War seats up to 4, and a queued table seats min(4, the most)


def text(response) -> str:
    return html.unescape(response.content.decode())


def person(name: str) -> User:
    return User.objects.create_user(name, password="pw-long-enough")


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


@pytest.mark.django_db
def test_a_casual_table_forms_when_it_is_full_unrated():
    people = [person(f"p{i}") for i in range(SIZE)]
    for user in people[:-1]:
        ranked.enqueue(user=user, kind=KIND, casual=True)
    assert ranked.match(KIND, casual=True) == []  # three of four: they wait
    ranked.enqueue(user=people[-1], kind=KIND, casual=True)
    [room] = ranked.match(KIND, casual=True)  # a full table forms at once
    game = room.game
    assert QueueEntry.objects.get(user=people[0]).status == QueueEntry.Status.MATCHED
    assert not room.ranked and not game.ranked and game.kind == KIND
    assert sorted(s["name"] for s in game.seats) == sorted(u.username for u in people)


@pytest.mark.django_db
def test_computers_fill_a_casual_table_after_the_longer_wait():
    ann, bob = person("ann"), person("bob")
    ranked.enqueue(user=ann, kind=KIND, casual=True)
    ranked.enqueue(user=bob, kind=KIND, casual=True)
    assert ranked.match(KIND, casual=True, now=later(settings.RANKED_FILL_AFTER + 1)) == []
    QueueEntry.objects.update(seen=later(settings.QUICK_FILL_AFTER))  # their pages are open
    [room] = ranked.match(KIND, casual=True, now=later(settings.QUICK_FILL_AFTER + 1))
    seats = room.game.seats
    assert len(seats) == SIZE and sum(s["bot"] for s in seats) == 2
    assert not room.game.ranked


@pytest.mark.django_db
def test_play_now_seats_at_once_with_whoever_waits():
    ann, bob = person("ann"), person("bob")
    ranked.enqueue(user=ann, kind=KIND, casual=True)
    ranked.enqueue(user=bob, kind=KIND, casual=True)
    room = ranked.play_now(user=bob, kind=KIND)
    names = sorted(s["name"] for s in room.game.seats if not s["bot"])
    assert names == ["ann", "bob"] and not room.game.ranked
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {"matched"}


@pytest.mark.django_db
def test_casual_and_ranked_queues_never_mix():
    ann, bob = person("ann"), person("bob")
    for user in (ann, bob):
        Rating.objects.create(
            user=user, kind="poker", mu=25, sigma=3, ordinal=16, games=30, updated=timezone.now()
        )
    ranked.enqueue(user=ann, kind="poker", casual=True)
    ranked.enqueue(user=bob, kind="poker")
    QueueEntry.objects.update(seen=later(settings.QUICK_FILL_AFTER))
    [room] = ranked.match("poker", casual=True, now=later(settings.QUICK_FILL_AFTER + 1))
    assert [s["name"] for s in room.game.seats if not s["bot"]] == ["ann"]
    assert not room.game.ranked
    assert QueueEntry.objects.get(user=bob).status == QueueEntry.Status.WAITING


@pytest.mark.django_db
def test_bad_requests_get_a_sentence_and_change_nothing():
    ann = person("ann")
    with pytest.raises(ranked.QueueError, match="You are not waiting for players for War."):
        ranked.play_now(user=ann, kind=KIND)
    with pytest.raises(ranked.QueueError, match="Klondike is played alone"):
        ranked.enqueue(user=ann, kind="klondike", casual=True)
    ranked.enqueue(user=ann, kind=KIND, casual=True)
    with pytest.raises(
        ranked.QueueError, match=r"already in the queue for War with people \(Find players\)"
    ):
        ranked.enqueue(user=ann, kind="poker")
    assert QueueEntry.objects.count() == 1


@pytest.mark.django_db
def test_the_page_offers_play_now_and_keep_waiting_then_seats():
    client = Client()
    client.force_login(person("ann"))
    page = client.get(f"/quick/{KIND}/")
    assert page.status_code == 200 and "Find players" in text(page)
    waiting = client.post(f"/quick/{KIND}/", follow=True)
    page = text(waiting)
    assert "Play now with computers" in page and "Keep waiting" in page
    assert "No rating is at stake" in page
    seated = client.post(f"/quick/{KIND}/now/")
    assert seated.status_code == 302 and seated.url.startswith("/rooms/")
    assert client.get(seated.url).status_code == 200
    assert "Sign up or sign in" in text(Client().post(f"/quick/{KIND}/", follow=True))


@pytest.mark.django_db
def test_the_tile_and_the_page_say_find_players_not_a_second_quick():
    """The tile's "Quick" is a game length: matchmaking with people has another name."""
    home = text(Client().get("/"))
    assert f'href="/quick/{KIND}/">Find players<' in home and "Quick play" not in home
    page = text(Client().get(f"/quick/{KIND}/"))
    assert "<title>Find players: War" in page and "<h1>Find players: War</h1>" in page
    assert "Quick play" not in page


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_waiting_socket_shows_the_casual_queue(real_services):
    def signed_in():
        client = Client()
        client.force_login(person("ann"))
        ranked.enqueue(user=User.objects.get(username="ann"), kind=KIND, casual=True)
        return client

    client = await database_sync_to_async(signed_in)()
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    communicator = WebsocketCommunicator(
        application, f"/ws/quick/{KIND}/?format=json", headers=headers
    )
    assert (await communicator.connect())[0]
    state = json.loads(await communicator.receive_from(timeout=5))
    assert state["casual"] is True and state["status"] == "waiting"
    assert state["fill_after"] == settings.QUICK_FILL_AFTER
    assert [w["name"] for w in state["waiting"]] == ["ann"]
    await communicator.send_to(text_data=json.dumps({"type": "leave"}))
    state = json.loads(await communicator.receive_from(timeout=5))
    assert state["status"] == "left"
    await communicator.disconnect()
