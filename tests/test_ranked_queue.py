"""The ranked queue: joining and leaving over HTTP (every bad request answered, nothing
changed), the matcher seating similar ratings, computer players after the wait, two
matchers at once on PostgreSQL, and ranked tables people leave."""

import html
import re
import threading
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import Rating, RatingChange, User
from gameplay import services as game_services
from gameplay import tasks
from gameplay.engine import registry
from gameplay.models import Game
from lobby import ranked, services
from lobby.models import Member, QueueEntry, Room
from tests.played import worker_delivers

KIND = "poker"  # the rated game that exists today; nothing below depends on its rules
SIZE = ranked.table_size(registry.get(KIND))


def text(response) -> str:
    return html.unescape(response.content.decode())


def person(name: str, mu: float | None = None) -> User:
    user = User.objects.create_user(name, password="pw-long-enough")
    if mu is not None:  # a settled rating at this estimate
        Rating.objects.create(
            user=user, kind=KIND, mu=mu, sigma=3, ordinal=mu - 9, games=30, updated=timezone.now()
        )
    return user


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def entries(**filters):
    return QueueEntry.objects.filter(**filters)


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


# ---- joining and leaving: a plain answer, no state change ----------------------------------------


@pytest.mark.django_db
def test_play_ranked_queues_and_shows_the_waiting_page():
    client = signed_in(person("ann"))
    response = client.post(f"/ranked/{KIND}/")
    assert response.status_code == 302 and response.url == f"/ranked/{KIND}/"
    entry = entries(user__username="ann").get()
    assert entry.status == "waiting" and entry.rating == 1500 and entry.provisional
    page = text(client.get(f"/ranked/{KIND}/"))
    assert (
        "Looking for players near your rating" in page and 'ws-connect="/ws/queue/poker/"' in page
    )


@pytest.mark.django_db
def test_guests_are_asked_to_sign_up():
    response = Client().post(f"/ranked/{KIND}/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/accounts/signup/?next=/ranked/poker/")
    assert "Sign up or sign in to play ranked" in text(response)
    answer = Client().post(f"/ranked/{KIND}/?format=json")
    assert answer.status_code == 401 and "Sign up" in answer.json()["message"]
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kind, message",
    [
        ("nosuchgame", "There is no game called “nosuchgame”."),
        ("war", "War is not played ranked: pick a game of skill."),
        ("klondike", "Klondike is not played ranked: pick a game of skill."),
    ],
)
def test_unknown_and_unrated_games_are_refused(kind, message):
    client = signed_in(person("ann"))
    response = client.post(f"/ranked/{kind}/", follow=True)
    assert message in text(response)
    answer = client.post(f"/ranked/{kind}/?format=json")
    assert answer.status_code == 409 and answer.json() == {"ok": False, "message": message}
    assert not QueueEntry.objects.exists()
    assert client.get(f"/ranked/{kind}/").status_code == 404


@pytest.mark.django_db
def test_queueing_twice_is_refused(monkeypatch):
    client = signed_in(person("ann"))
    client.post(f"/ranked/{KIND}/")
    first = entries().get()
    response = client.post(f"/ranked/{KIND}/", follow=True)
    assert "You are already in the queue for Poker." in text(response)
    answer = client.post(f"/ranked/{KIND}/?format=json")
    assert answer.json()["message"] == "You are already in the queue for Poker."
    # Another rated game while waiting for this one.
    monkeypatch.setattr(type(registry.get("blackjack")), "rated", True)
    answer = client.post("/ranked/blackjack/?format=json")
    assert answer.json()["message"] == "You are already in the queue for Poker: leave it first."
    assert list(entries().values_list("pk", "status", "enqueued")) == [
        (first.pk, "waiting", first.enqueued)
    ]


@pytest.mark.django_db
def test_queueing_while_seated_at_a_table_is_refused():
    user = person("ann")
    client = signed_in(user)
    client.post(f"/play/{KIND}/")  # a game against the computer, in play
    code = Member.objects.get(user=user).room.code
    answer = client.post(f"/ranked/{KIND}/?format=json")
    assert answer.json() == {
        "ok": False,
        "message": f"You have a seat at a game in play (room {code}): finish or leave it first.",
    }
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_a_seat_elsewhere_is_named_with_the_way_back_or_leave_it_and_queue():
    user = person("ann")
    client = signed_in(user)
    client.post("/play/war/")  # a game against the computer, in play
    member = Member.objects.get(user=user)
    code = member.room.code
    # Play ranked: the waiting page says where the seat is, not the home page.
    answer = client.post(f"/ranked/{KIND}/")
    assert answer.status_code == 302 and answer["Location"] == f"/ranked/{KIND}/"
    page = text(client.get(answer["Location"]))
    words = " ".join(re.sub(r"<[^>]+>", "", page).split())
    assert f"You still have a seat at War in room {code}, a game in play." in words
    assert f'href="/rooms/{code}/">Go back to it</a>' in page
    assert f'name="leave_table" value="{code}"' in page
    assert not QueueEntry.objects.exists()
    # Another room's code leaves nothing and queues nobody.
    client.post(f"/ranked/{KIND}/", {"leave_table": "ZZZZZ"})
    member.refresh_from_db()
    assert not member.left and not QueueEntry.objects.exists()
    # Leave it and queue: the computer takes the seat and the person waits for ranked.
    answer = client.post(f"/ranked/{KIND}/", {"leave_table": code})
    assert answer["Location"] == f"/ranked/{KIND}/"
    member.refresh_from_db()
    assert member.left
    assert Game.objects.get(pk=member.room.game_id).seats[member.seat]["bot"]
    assert entries(user=user, status=QueueEntry.Status.WAITING).count() == 1
    assert "Looking for players near your rating" in text(client.get(f"/ranked/{KIND}/"))


@pytest.mark.django_db
def test_leaving_the_queue_and_leaving_after_the_match():
    ann = person("ann")
    client = signed_in(ann)
    assert client.post(f"/ranked/{KIND}/leave/?format=json").json() == {
        "ok": False,
        "message": "You are not in the queue for Poker.",
    }
    client.post(f"/ranked/{KIND}/")
    assert client.post(f"/ranked/{KIND}/leave/?format=json").json() == {
        "ok": True,
        "status": "left",
    }
    assert entries().get().status == "left"
    # Queue again and get matched (alone, after the wait): leaving now changes nothing.
    client.post(f"/ranked/{KIND}/")
    [room] = ranked.match(KIND, now=later(ranked_fill() + 1))
    answer = client.post(f"/ranked/{KIND}/leave/?format=json")
    assert answer.status_code == 409
    assert answer.json()["message"] == f"You were already matched: your table is room {room.code}."
    response = client.post(f"/ranked/{KIND}/leave/", follow=True)
    assert f"You were already matched: your table is room {room.code}." in text(response)
    assert response.redirect_chain[-1][0] == f"/rooms/{room.code}/"  # on to their table
    assert entries(status="matched").get().room == room
    assert entries().count() == 2


def ranked_fill() -> float:
    from django.conf import settings

    return settings.RANKED_FILL_AFTER


# ---- matching ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_full_table_of_similar_ratings_is_seated_at_once():
    people = [person(f"p{i}", mu=25 + i) for i in range(SIZE)]
    far = person("far", mu=45)
    for user in [*people, far]:
        ranked.enqueue(user=user, kind=KIND)
    [room] = ranked.match(KIND)
    game = room.game
    assert room.ranked and game.ranked and game.kind == KIND
    assert game.rules == registry.get(KIND).default_rules()
    assert game.turn_timer > 0
    assert sorted(s["user_id"] for s in game.seats) == sorted(u.pk for u in people)
    assert entries(status="waiting").get().user == far  # 600 points away: not yet
    for member in room.present():
        assert game.seats[member.seat]["user_id"] == member.user_id


@pytest.mark.django_db
def test_two_players_are_seated_together_after_the_wait_with_computer_players():
    ann, bob = person("ann", mu=25), person("bob", mu=27)
    ranked.enqueue(user=ann, kind=KIND)
    ranked.enqueue(user=bob, kind=KIND)
    assert ranked.match(KIND) == []  # a table seats 4: wait for two more
    assert ranked.match(KIND, now=later(ranked_fill() - 1)) == []
    [room] = ranked.match(KIND, now=later(ranked_fill() + 1))
    seats = room.game.seats
    assert sorted(s["user_id"] for s in seats if not s["bot"]) == [ann.pk, bob.pk]
    assert sum(1 for s in seats if s["bot"] and s["user_id"] is None) == SIZE - 2


@pytest.mark.django_db
def test_the_window_widens_with_the_wait():
    low, high = person("low", mu=20), person("high", mu=30)  # 300 shown points apart
    ranked.enqueue(user=low, kind=KIND)
    ranked.enqueue(user=high, kind=KIND)
    size = 2
    waiters = [ranked.Waiter(e.pk, e.skill, e.enqueued) for e in entries().order_by("enqueued")]
    now = waiters[0].enqueued
    assert ranked.form_tables(waiters, size, now, fill_after=999) == []
    wait = (300 - ranked.WINDOW_BASE) / ranked.WINDOW_GROWTH
    [table] = ranked.form_tables(waiters, size, now + timedelta(seconds=wait), fill_after=999)
    assert {w.id for w in table} == {w.id for w in waiters}


def test_tables_group_nearest_ratings_first():
    now = timezone.now()
    skills = [1500, 1900, 1510, 1890, 1520, 1880, 1530, 1870]
    waiters = [ranked.Waiter(i, s, now - timedelta(seconds=i)) for i, s in enumerate(skills)]
    tables = ranked.form_tables(waiters, 4, now, fill_after=999)
    assert sorted(sorted(w.skill for w in t) for t in tables) == [
        [1500, 1510, 1520, 1530],
        [1870, 1880, 1890, 1900],
    ]


@pytest.mark.django_db
def test_one_player_alone_gets_computer_players_after_the_wait():
    ann = person("ann")
    ranked.enqueue(user=ann, kind=KIND)
    assert ranked.match(KIND) == []
    [room] = ranked.match(KIND, now=later(ranked_fill()))
    seats = room.game.seats
    assert [s["user_id"] for s in seats if not s["bot"]] == [ann.pk]
    assert len(seats) == SIZE
    assert services.current_room(f"user:{ann.pk}") == room


@pytest.mark.django_db
def test_silent_waiting_pages_and_people_seated_elsewhere_are_dropped():
    ann, bob = person("ann"), person("bob")
    ranked.enqueue(user=ann, kind=KIND)
    ranked.enqueue(user=bob, kind=KIND)
    QueueEntry.objects.filter(user=ann).update(seen=timezone.now() - timedelta(minutes=5))
    signed_in(bob).post(f"/play/{KIND}/")  # bob sat down at another table meanwhile
    assert ranked.match(KIND, now=later(ranked_fill() + 1)) == []
    assert set(entries().values_list("status", flat=True)) == {"left"}


@pytest.mark.django_db(transaction=True)
def test_two_matchers_at_once_never_seat_a_person_twice(real_services):
    """Several matchers run the same queue at the same moment, round after round as more
    people arrive: everyone is seated at most once, and every seated entry is in its room."""
    users = [person(f"p{i:02d}", mu=20 + (i % 7)) for i in range(48)]
    matchers = 4
    for round_ in range(4):
        for user in users[round_ * 12 : (round_ + 1) * 12]:
            ranked.enqueue(user=user, kind=KIND)
        barrier = threading.Barrier(matchers)
        errors = []

        def run(barrier=barrier, errors=errors):
            try:
                barrier.wait()
                ranked.match(KIND, now=later(ranked_fill() + 1))
            except Exception as exc:  # surfaced below
                errors.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=run) for _ in range(matchers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
    seated = [
        s["user_id"]
        for game in Game.objects.filter(ranked=True)
        for s in game.seats
        if s["user_id"]
    ]
    assert len(seated) == len(set(seated)) == len(users)
    assert entries(status="matched").count() == len(users)
    for entry in entries(status="matched"):
        assert entry.room.members.filter(user=entry.user).count() == 1
    assert Member.objects.filter(room__ranked=True).count() == len(users)


# ---- at a ranked table ----------------------------------------------------------------------------


def _ranked_table(*users) -> Room:
    for user in users:
        ranked.enqueue(user=user, kind=KIND)
    # Each enqueue asks a worker to match at once: where a test runs one, its matcher may hold
    # the entries this moment (a matcher skips what another holds), so look again briefly.
    for _ in range(50):
        rooms = ranked.match(KIND, now=later(ranked_fill() + 1))
        if rooms:
            break
        time.sleep(0.1)
    [room] = rooms
    return room


def _finish(game_id: int) -> Game:
    """Play the game out as the turn timer would (the computer for everyone), and deliver its
    end as the worker would."""
    for _ in range(2000):
        game = Game.objects.get(pk=game_id)
        if game.is_over:
            assert worker_delivers(game_id) == [game_id]
            return game
        tasks.play_for_seats(game_id, game.seq, people_too=True)
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_a_leaver_is_ranked_last(real_services, monkeypatch):
    # A deal whose computer-only game ends in about 300 actions (some seeds take thousands).
    monkeypatch.setattr(game_services, "secrets", SimpleNamespace(token_hex=lambda n: "a-leaver-3"))
    ann, bob = person("ann"), person("bob")
    room = _ranked_table(ann, bob)
    connection.close()
    signed_in(ann).post(f"/rooms/{room.code}/leave/")
    game = Game.objects.get(pk=room.game_id)
    seat = next(i for i, s in enumerate(game.seats) if s["user_id"] == ann.pk)
    assert game.seats[seat]["left"] and game.seats[seat]["bot"]
    assert Member.objects.get(user=ann).seat is None
    # The way back is closed: rejoining makes ann a spectator, the computer keeps the seat.
    signed_in(ann).post("/rooms/join/", {"code": room.code})
    assert Game.objects.get(pk=game.pk).seats[seat]["bot"]
    assert Member.objects.get(user=ann).seat is None
    game = _finish(game.pk)
    assert game.status == "over"
    ann_change = RatingChange.objects.get(game=game, user=ann)
    bob_change = RatingChange.objects.get(game=game, user=bob)
    assert ann_change.left and ann_change.place == SIZE  # below the computer players too
    assert bob_change.place < SIZE
    assert ann_change.mu < ann_change.mu_before


@pytest.mark.django_db(transaction=True)
def test_a_ranked_table_refuses_lobby_controls(real_services):
    ann = person("ann")
    room = _ranked_table(ann)
    client = signed_in(ann)
    response = client.post(f"/rooms/{room.code}/lobby/", follow=True)
    assert "A ranked game plays to the end: press Leave to go." in text(response)
    response = client.post(f"/rooms/{room.code}/start/", {"game": KIND}, follow=True)
    assert "A ranked table plays one game: queue again for the next." in text(response)
    assert Game.objects.get(pk=room.game_id).status == "active"


@pytest.mark.django_db(transaction=True)
def test_a_game_everyone_left_is_finished_by_the_computer_and_rated(
    real_services, celery_worker_process
):
    ann, bob = person("ann"), person("bob")
    room = _ranked_table(ann, bob)
    connection.close()
    signed_in(ann).post(f"/rooms/{room.code}/leave/")
    signed_in(bob).post(f"/rooms/{room.code}/leave/")
    room.refresh_from_db()
    assert not room.is_open
    game = Game.objects.get(pk=room.game_id)
    assert game.unattended and game.status == "active"  # not abandoned: it plays on
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if RatingChange.objects.filter(game=game, user__role=User.PERSON).count() == 2:
            break
        time.sleep(0.3)
    game.refresh_from_db()
    assert game.status == "over"
    changes = RatingChange.objects.filter(game=game)
    places = set(changes.filter(user__role=User.PERSON).values_list("place", "left"))
    assert places == {(SIZE - 1, True)}  # both left: tied last, behind the computer players
    # The computer players, all Medium at poker, are rated once, at their best seat.
    assert list(changes.filter(user__role=User.COMPUTER).values_list("user__username", "place"))
    assert changes.filter(user__role=User.COMPUTER).get().place == 1


@pytest.mark.django_db(transaction=True)
def test_a_ranked_seat_away_too_long_is_left_for_good(real_services, settings):
    ann = person("ann")
    room = _ranked_table(ann)
    member = Member.objects.get(user=ann)
    Member.objects.filter(pk=member.pk).update(
        last_seen=timezone.now() - timedelta(seconds=settings.RANKED_FORFEIT + 1)
    )
    assert ranked.check_forfeit(member.pk)
    game = Game.objects.get(pk=room.game_id)
    assert all(s["bot"] for s in game.seats) and game.unattended
    # A person who is connected, or was seen lately, keeps the seat.
    bob = person("bob")
    other = _ranked_table(bob)
    member = Member.objects.get(user=bob, room=other)
    assert not ranked.check_forfeit(member.pk)


@pytest.mark.django_db(transaction=True)
def test_an_outsider_with_a_ranked_tables_code_may_only_watch(real_services):
    """A ranked table is for the people the queue seated: anyone else who knows its code may
    watch (a spectator), never take a seat, and never becomes its host."""
    ann = person("ann")
    room = _ranked_table(ann)
    game = Game.objects.get(pk=room.game_id)
    outsiders = [Client(), signed_in(person("eve"))]
    for outsider in outsiders:
        outsider.get("/")
        response = outsider.post("/rooms/join/", {"code": room.code}, follow=True)
        assert response.redirect_chain[-1][0] == f"/rooms/{room.code}/"
    watchers = Member.objects.filter(room=room).exclude(user=ann)
    assert watchers.count() == 2 and all(m.seat is None for m in watchers)
    assert Game.objects.get(pk=game.pk).seats == game.seats  # nobody new at the table
    signed_in(ann).post(f"/rooms/{room.code}/leave/")
    room.refresh_from_db()
    assert room.host not in {m.player for m in watchers}  # a watcher never runs the table
