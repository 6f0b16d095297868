"""Arenas on PostgreSQL and Redis: the schedule's beat run twice, joining (twice, finished, full,
beside a queue), pairing into ranked games, scoring as games end (ratings move, the flame, an
abandon), the end (games in play count, prizes once, the badge, the weekly board), the page
and its socket."""

import html
import importlib
import json
from datetime import UTC, datetime, time, timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from accounts.models import RatingChange, User
from arenas import selectors, services
from arenas.models import Arena, ArenaGame, ArenaSchedule, Entrant, Result
from cubiccards.asgi import application
from gameplay import hooks
from gameplay.models import Game
from infra import news as news_module
from kudos import selectors as kudos_selectors
from kudos.models import BadgeEarned, Entry
from lobby import ranked
from lobby.models import Member, QueueEntry

pytestmark = pytest.mark.usefixtures("real_services")

KIND = "gin"  # a table of two: who won is plain


def person(name: str, **fields) -> User:
    return User.objects.create_user(name, password="pw-long-enough", **fields)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return html.unescape(response.content.decode())


def live_arena(kind: str = KIND, **fields) -> Arena:
    now = timezone.now()
    values = {
        "name": "Test",
        "kind": kind,
        "starts": now - timedelta(minutes=1),
        "ends": now + timedelta(minutes=29),
        "status": Arena.Status.LIVE,
        "prizes": [100, 60, 40],
        "min_games": 1,
        **fields,
    }
    return Arena.objects.create(**values)


def later(seconds: float) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


def pair_now(arena: Arena) -> list[ArenaGame]:
    """One pairing, as if everyone free had waited past the computers' wait."""
    return services.pair(arena.pk, now=later(60))


def end(arena_game: ArenaGame, *ranking: list[int]) -> Game:
    """End the arena's game with people in this finishing order (user ids; one list per
    place), and run the end-of-game hook as the worker would."""
    game = Game.objects.get(pk=arena_game.game_id)
    seat = {s["user_id"]: i for i, s in enumerate(game.seats)}
    places = [[seat[u] for u in group] for group in ranking]
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.OVER,
        result={"scores": [0] * len(game.seats), "winners": places[0], "ranking": places},
        ended=timezone.now(),
    )
    hooks.deliver(game.pk)
    return Game.objects.get(pk=game.pk)


def entrant(arena: Arena, user: User) -> Entrant:
    return Entrant.objects.get(arena=arena, user=user)


# ---- the schedule: beat run twice is the same --------------------------------------------------


@pytest.mark.django_db
def test_the_seeded_schedule_and_beat_run_twice_make_the_same_arenas():
    from django.apps import apps

    seeded = importlib.import_module("arenas.migrations.0002_seed_schedules")
    seeded.seed(apps, None)  # as the migration did (a flushing test before may have emptied it)
    assert set(ArenaSchedule.objects.values_list("name", "every")) == {
        ("Hourly Crazy 8", "hourly"),
        ("Daily Gin", "daily"),
        ("Weekly Cardice", "weekly"),
    }
    now = datetime(2026, 12, 5, 19, 10, tzinfo=UTC)  # a Saturday: all three are on
    first = services.advance(now)
    arenas = set(Arena.objects.values_list("name", "starts", "status"))
    assert services.advance(now) == {"created": 0, "started": 0, "closed": 0, "finished": 0}
    assert set(Arena.objects.values_list("name", "starts", "status")) == arenas
    assert first["created"] == len(arenas) and first["started"] >= 3
    at = lambda h, m, day=5: datetime(2026, 12, day, h, m, tzinfo=UTC)  # noqa: E731
    assert arenas == {
        ("Hourly Crazy 8", at(19, 0), "live"),
        ("Hourly Crazy 8", at(20, 0), "upcoming"),
        ("Daily Gin", at(19, 0), "live"),
        ("Daily Gin", at(19, 0, day=6), "upcoming"),
        ("Weekly Cardice", at(18, 0), "live"),
        ("Weekly Cardice", at(18, 0, day=12), "upcoming"),
    }


@pytest.mark.django_db
def test_start_and_end_run_twice_change_once():
    ArenaSchedule.objects.update(active=False)
    arena = live_arena(status=Arena.Status.UPCOMING, starts=later(-1), ends=later(600))
    assert services.start(arena.pk, timezone.now()) is True
    assert services.start(arena.pk, timezone.now()) is False
    arena.refresh_from_db()
    assert arena.status == "live"
    ann = person("ann")
    services.join(user=ann, arena_id=arena.pk)
    assert services.close(arena.pk) is True and services.close(arena.pk) is False
    assert services.finish(arena.pk) is True and services.finish(arena.pk) is False
    arena.refresh_from_db()
    assert arena.status == "finished" and entrant(arena, ann).place == 1


@pytest.mark.django_db
def test_an_admin_schedule_is_checked():
    from django.core.exceptions import ValidationError

    bad = ArenaSchedule(name="x", kind="klondike", minutes=30, every="hourly", at=time(0, 0))
    with pytest.raises(ValidationError, match="not played ranked"):
        bad.full_clean()
    bad = ArenaSchedule(
        name="x", kind=KIND, minutes=30, every="weekly", at=time(0, 0), prizes=[10, "a lot"]
    )
    with pytest.raises(ValidationError) as caught:
        bad.full_clean()
    assert {"prizes", "weekday"} <= set(caught.value.message_dict)


# ---- joining: every refusal a sentence, nothing changed -----------------------------------------


@pytest.mark.django_db
def test_joining_twice_from_two_tabs_is_one_entry():
    arena, ann = live_arena(), person("ann")
    first, second = signed_in(ann), signed_in(ann)
    assert first.post(f"/arenas/{arena.pk}/join/").status_code == 302
    answer = second.post(f"/arenas/{arena.pk}/join/?format=json")
    assert (
        answer.status_code == 409 and answer.json()["message"] == "You are already in this arena."
    )
    assert Entrant.objects.filter(arena=arena, user=ann).count() == 1


@pytest.mark.django_db
def test_a_finished_or_full_arena_refuses_and_guests_are_asked_to_sign_in():
    ann, bob = person("ann"), person("bob")
    over = live_arena(status=Arena.Status.FINISHED)
    answer = signed_in(ann).post(f"/arenas/{over.pk}/join/?format=json")
    assert answer.status_code == 409 and "has ended" in answer.json()["message"]
    full = live_arena(capacity=1)
    services.join(user=ann, arena_id=full.pk)
    page = text(signed_in(bob).post(f"/arenas/{full.pk}/join/", follow=True))
    assert "The Test arena is full: 1 players." in page
    answer = Client().post(f"/arenas/{full.pk}/join/?format=json")
    assert answer.status_code == 401 and "Sign up or sign in" in answer.json()["message"]
    assert Entrant.objects.count() == 1
    assert signed_in(bob).post("/arenas/999999/join/?format=json").json()["message"] == (
        "There is no such arena."
    )


@pytest.mark.django_db
def test_an_arena_and_a_ranked_queue_are_one_or_the_other():
    arena, ann = live_arena(), person("ann")
    ranked.enqueue(user=ann, kind=KIND)
    with pytest.raises(services.ArenaError, match="You are in the queue for ranked Gin Rummy"):
        services.join(user=ann, arena_id=arena.pk)
    ranked.leave(user=ann, kind=KIND)
    services.join(user=ann, arena_id=arena.pk)
    with pytest.raises(ranked.QueueError, match="You are playing in the Test arena: pause there"):
        ranked.enqueue(user=ann, kind=KIND)
    with pytest.raises(ranked.QueueError, match="You are playing in the Test arena"):
        ranked.enqueue(user=ann, kind=KIND, casual=True)
    assert not QueueEntry.objects.filter(user=ann, status="waiting").exists()
    services.pause(user=ann, arena_id=arena.pk)  # paused: the queue is open again
    ranked.enqueue(user=ann, kind=KIND)
    with pytest.raises(services.ArenaError, match="leave it before you join"):
        services.join(user=ann, arena_id=arena.pk)  # coming back waits for the queue too
    assert entrant(arena, ann).paused


@pytest.mark.django_db
def test_bots_and_computer_players_do_not_join():
    arena = live_arena()
    for role in (User.BOT, User.COMPUTER):
        with pytest.raises(services.ArenaError, match="Arenas are for people"):
            services.join(user=person(f"p-{role}", role=role), arena_id=arena.pk)


# ---- pairing ---------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_free_players_are_paired_into_a_ranked_game_and_no_one_twice():
    arena = live_arena()
    people = [person(n) for n in ("ann", "bob", "cid")]
    for p in people:
        services.join(user=p, arena_id=arena.pk)
    assert services.pair(arena.pk) and services.pair(arena.pk) == []  # cid waits for someone
    [first] = ArenaGame.objects.filter(arena=arena)
    game = Game.objects.get(pk=first.game_id)
    assert game.ranked and game.kind == KIND and not first.computers
    assert {s["user_id"] for s in game.seats} == set(first.people)
    [alone] = pair_now(arena)  # after the wait, cid plays the computer
    assert alone.computers and len(Game.objects.get(pk=alone.game_id).seats) == 2
    assert pair_now(arena) == []
    seated = [u for g in ArenaGame.objects.filter(arena=arena) for u in g.people]
    assert sorted(seated) == sorted(p.pk for p in people)
    assert Member.objects.filter(room__ranked=True, seat__isnull=False).count() == 3


@pytest.mark.django_db(transaction=True)
def test_someone_seated_elsewhere_is_paired_after_that_game():
    arena, ann, bob = live_arena(), person("ann"), person("bob")
    ranked.enqueue(user=ann, kind="poker")
    [room] = ranked.match("poker", now=later(31))  # ann sits at a ranked poker table
    services.join(user=bob, arena_id=arena.pk)
    services.join(user=ann, arena_id=arena.pk)
    [game] = pair_now(arena)
    assert game.people == [bob.pk] and game.computers
    Game.objects.filter(pk=room.game_id).update(status=Game.Status.OVER)
    assert services.pair(arena.pk, now=later(60))  # now she is free


# ---- scoring ------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_finished_arena_game_scores_by_place_and_moves_ratings():
    arena, ann, bob = live_arena(), person("ann"), person("bob")
    for p in (ann, bob):
        services.join(user=p, arena_id=arena.pk)
    [table] = services.pair(arena.pk)
    end(table, [ann.pk], [bob.pk])
    assert (entrant(arena, ann).points, entrant(arena, bob).points) == (4, 0)
    assert RatingChange.objects.filter(game_id=table.game_id, user__in=[ann, bob]).count() == 2
    a = entrant(arena, ann)
    assert a.table is None and a.free_since is not None and a.games == 1 and a.streak == 1
    assert a.skill != entrant(arena, bob).skill  # paired next by the new ratings
    assert hooks.deliver(table.game_id) == []  # the hook again scores nothing twice
    # The result screen leads back to the arena, not to the ranked queue.
    result = text(signed_in(ann).get(f"/rooms/{table.room.code}/"))
    assert f'href="/arenas/{arena.pk}/" data-game-home>Back to the Test arena</a>' in result
    assert "Play ranked again" not in result
    assert Result.objects.filter(arena_game=table).count() == 2
    # No immediate rematch: alone together, they wait the computers' wait first.
    assert services.pair(arena.pk) == []
    assert len(pair_now(arena)) == 1


@pytest.mark.django_db(transaction=True)
def test_two_wins_in_a_row_light_the_flame_and_double_the_next():
    arena = live_arena()
    ann, others = person("ann"), [person(n) for n in ("bob", "cid", "dan")]
    services.join(user=ann, arena_id=arena.pk)
    for other in others:
        services.join(user=other, arena_id=arena.pk)
        table = next(
            g for g in pair_now(arena) if ann.pk in g.people
        )  # ann and the newcomer (the others wait: no rematch)
        rival = next(u for u in table.people if u != ann.pk)
        end(table, [ann.pk], [rival])
        Entrant.objects.filter(arena=arena).exclude(user=ann).update(paused=True)
    assert list(Result.objects.filter(entrant__user=ann).order_by("pk").values_list("points", "doubled")) == [
        (4, False),
        (4, False),
        (8, True),
    ]  # fmt: skip
    state = selectors.arena_state(arena, ann)
    assert state["standings"][0]["on_fire"] and state["standings"][0]["points"] == 16


@pytest.mark.django_db(transaction=True)
def test_leaving_mid_game_scores_nothing_and_pauses():
    arena, ann, bob = live_arena(), person("ann"), person("bob")
    for p in (ann, bob):
        services.join(user=p, arena_id=arena.pk)
    [table] = services.pair(arena.pk)
    signed_in(ann).post(f"/rooms/{table.room.code}/leave/")
    game = Game.objects.get(pk=table.game_id)
    assert any(s.get("left") for s in game.seats)
    end(table, [ann.pk], [bob.pk])  # the computer won her seat's game: it still scores 0
    a, b = entrant(arena, ann), entrant(arena, bob)
    assert (a.points, a.paused, a.free_since, a.streak) == (0, True, None, 0)
    assert Result.objects.get(entrant=a).abandoned
    assert b.points == 4 and not b.paused
    assert services.pair(arena.pk, now=later(600)) and entrant(arena, ann).table is None
    services.join(user=ann, arena_id=arena.pk)  # coming back
    assert not entrant(arena, ann).paused


# ---- the end --------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_games_in_play_at_the_end_count_and_prizes_are_paid_once():
    ArenaSchedule.objects.update(active=False)
    arena = live_arena(min_games=2, prizes=[100, 60, 40])
    ann, bob, cid, dan = (person(n) for n in ("ann", "bob", "cid", "dan"))
    for p in (ann, bob, cid, dan):
        services.join(user=p, arena_id=arena.pk)
    tables = services.pair(arena.pk)
    assert len(tables) == 2
    for table in tables:
        end(table, [min(table.people)], [max(table.people)])
    tables = pair_now(arena)  # a second game each, still in play when time is up
    Arena.objects.filter(pk=arena.pk).update(ends=later(-1))
    assert services.advance()["closed"] == 1
    assert services.finish(arena.pk) is False  # waits for the games in play
    assert not Entry.objects.filter(key__startswith="arena:").exists()
    assert services.pair(arena.pk, now=later(600)) == []  # nobody new is seated
    for table in tables:
        end(table, [min(table.people)], [max(table.people)])
    arena.refresh_from_db()
    assert arena.status == "closing"
    assert services.finish(arena.pk) is True
    assert services.finish(arena.pk) is False and services.advance()["finished"] == 0
    prizes = Entry.objects.filter(key__startswith=f"arena:{arena.pk}:").order_by("-amount")
    assert [e.amount for e in prizes] == [100, 60, 40]
    assert prizes[0].memo == "1st place in the Test arena"
    podium = [e.user_id for e in prizes]
    assert BadgeEarned.objects.filter(badge="arena-podium").count() == 3
    assert set(BadgeEarned.objects.filter(badge="arena-podium").values_list("user_id", flat=True)) == set(podium)  # fmt: skip
    week = kudos_selectors.week_start(timezone.now())
    board = kudos_selectors.place_of(podium[0], week, week + kudos_selectors.WEEK)
    assert board["earned"] >= 100  # the prize counts on the weekly board
    arena.refresh_from_db()
    state = selectors.arena_state(arena, None)
    assert [r["prize"] for r in state["podium"]] == [100, 60, 40]
    assert len(state["standings"]) == 4 and len(state["games"]) == 4


@pytest.mark.django_db
def test_prizes_need_the_minimum_games():
    arena = live_arena(min_games=2, prizes=[100, 60])
    ann, bob = person("ann"), person("bob")
    for p, got, games in ((ann, 9, 1), (bob, 2, 2)):
        Entrant.objects.create(arena=arena, user=p, points=got, games=games, joined=timezone.now())
    services.close(arena.pk)
    services.finish(arena.pk)
    assert list(
        Entry.objects.filter(key__startswith="arena:").values_list("user_id", "amount")
    ) == [(bob.pk, 100)]
    assert entrant(arena, ann).place == 1 and entrant(arena, ann).prize == 0


# ---- the page and its socket ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_arenas_page_shows_start_times_in_the_viewers_zone():
    ArenaSchedule.objects.update(active=False)
    starts = datetime(2030, 1, 7, 18, 0, tzinfo=UTC)
    live_arena(status=Arena.Status.UPCOMING, starts=starts, ends=starts + timedelta(minutes=30))
    tokyo = person("kei", time_zone="Asia/Tokyo")
    page = text(signed_in(tokyo).get("/arenas/"))
    assert "Tue 8 Jan, 03:00" in page and "Asia/Tokyo" in page and "data-countdown" in page
    assert "Mon 7 Jan, 18:00" in text(Client().get("/arenas/"))  # a guest: UTC
    assert "After 2 wins in a row you are on fire" in page


@pytest.mark.django_db
def test_the_arena_page_highlights_your_row_and_pausing_says_why_it_cannot():
    arena, ann, bob = live_arena(), person("ann"), person("bob")
    client = signed_in(ann)
    answer = client.post(f"/arenas/{arena.pk}/pause/?format=json")
    assert answer.status_code == 409 and answer.json()["message"] == "You are not in this arena."
    services.join(user=bob, arena_id=arena.pk)
    client.post(f"/arenas/{arena.pk}/join/")
    page = text(client.get(f"/arenas/{arena.pk}/"))
    assert '<tr class="you" aria-current="true" data-player="ann">' in page
    assert 'data-player="bob">' in page and f'ws-connect="/ws/arenas/{arena.pk}/"' in page
    state = client.get(f"/arenas/{arena.pk}/?format=json").json()
    assert state["you"]["name"] == "ann" and state["players"] == 2
    client.post(f"/arenas/{arena.pk}/pause/")
    answer = client.post(f"/arenas/{arena.pk}/pause/?format=json")
    assert answer.json()["message"] == "You are already paused: join again to come back."
    assert "Come back" in text(client.get(f"/arenas/{arena.pk}/"))
    assert Client().get("/arenas/999999/").status_code == 404


def _socket(path: str, client: Client | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    socket.scope["headers"] = headers
    return socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_sends_the_standings_with_your_row_and_the_news():
    from asgiref.sync import sync_to_async

    arena = await sync_to_async(live_arena)()
    ann, bob = await sync_to_async(person)("ann"), await sync_to_async(person)("bob")
    client = await sync_to_async(signed_in)(ann)
    socket = _socket(f"/ws/arenas/{arena.pk}/?format=json", client)
    connected, _ = await socket.connect()
    assert connected
    first = json.loads(await socket.receive_from(timeout=10))
    assert first["type"] == "arena" and first["standings"] == [] and first["you"] is None
    await sync_to_async(services.join)(user=bob, arena_id=arena.pk)
    await sync_to_async(services.join)(user=ann, arena_id=arena.pk)
    for _ in range(5):
        news = json.loads(await socket.receive_from(timeout=10))
        if len(news["standings"]) == 2:
            break
    rows = [(r["name"], r["you"]) for r in news["standings"]]
    assert rows == [("bob", False), ("ann", True)]  # level: who joined first is higher
    assert news["you"]["name"] == "ann"
    await socket.send_to(text_data="not json")
    assert "JSON objects" in json.loads(await socket.receive_from(timeout=10))["message"]
    await socket.disconnect()
    gone = _socket("/ws/arenas/999999/?format=json")
    await gone.connect()
    assert json.loads(await gone.receive_from(timeout=10))["message"] == "There is no such arena."
    await gone.disconnect()


async def _arena_messages(socket, count: int) -> list[dict]:
    return [json.loads(await socket.receive_from(timeout=10)) for _ in range(count)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_standings_are_built_once_per_change_for_every_viewer(settings):
    from asgiref.sync import sync_to_async

    from arenas import consumers

    settings.ARENA_STANDINGS_EVERY = 0  # no waiting: only the change's stamp saves builds
    arena = await sync_to_async(live_arena)()
    people = [await sync_to_async(person)(name) for name in ("ann", "bob", "cat", "dan")]
    clients = [await sync_to_async(signed_in)(p) for p in people]
    sockets = [_socket(f"/ws/arenas/{arena.pk}/?format=json", c) for c in clients]
    sockets.append(_socket(f"/ws/arenas/{arena.pk}/"))  # a guest following the page
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=10)
    board = consumers.boards[arena.pk]
    assert board.builds == 1 and board.viewers == 5
    for joined, p in enumerate(people[:2], start=1):
        await sync_to_async(services.join)(user=p, arena_id=arena.pk)
        for socket in sockets[:4]:
            [news] = await _arena_messages(socket, 1)
            assert news["players"] == joined
        assert "data-standings" in await sockets[4].receive_from(timeout=10)
        assert board.builds == 1 + joined
    assert [r["you"] for r in news["standings"]] == [False, False]  # dan sees no row of his
    # A change's news that reaches a viewer late (a busy process) is the same change: no build.
    for stamp, builds in (("late", 4), ("late", 4), ("next", 5)):
        await news_module.tell(services.group(arena.pk), "arena.update", change=stamp)
        for socket in sockets[:4]:
            await _arena_messages(socket, 1)
        await sockets[4].receive_from(timeout=10)
        assert board.builds == builds
    for socket in sockets:
        await socket.disconnect()
    assert arena.pk not in consumers.boards


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_crowded_arena_sends_the_top_rows_and_your_own(settings):
    from asgiref.sync import sync_to_async

    def crowd():
        arena, last = live_arena(), person("last")
        others = User.objects.bulk_create(User(username=f"p{i:03}") for i in range(104))
        now = timezone.now()
        Entrant.objects.bulk_create(
            Entrant(arena=arena, user=u, points=200 - i, joined=now) for i, u in enumerate(others)
        )
        Entrant.objects.create(arena=arena, user=last, joined=now)
        return arena, signed_in(last), signed_in(others[3])

    arena, last, fourth = await sync_to_async(crowd)()
    top = selectors.TOP_ROWS
    socket = _socket(f"/ws/arenas/{arena.pk}/?format=json", last)
    assert (await socket.connect())[0]
    [state] = await _arena_messages(socket, 1)
    assert state["players"] == 105 and len(state["standings"]) == top + 1
    assert [r["name"] for r in state["standings"][:3]] == ["p000", "p001", "p002"]
    assert state["standings"][-1] == {**state["you"], "rank": 105, "name": "last", "you": True}
    assert not any(r["you"] for r in state["standings"][:top])
    page = _socket(f"/ws/arenas/{arena.pk}/", fourth)
    assert (await page.connect())[0]
    fragment = html.unescape(await page.receive_from(timeout=10))
    assert "The top 100 of 105 players, and your own row." in fragment
    assert fragment.count("data-player=") == top
    assert 'class="you" aria-current="true" data-player="p003"' in fragment
    await socket.disconnect()
    await page.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_closing_one_of_two_tabs_keeps_the_one_entry():
    from asgiref.sync import sync_to_async

    arena = await sync_to_async(live_arena)()
    ann, bob = await sync_to_async(person)("ann"), await sync_to_async(person)("bob")
    tabs = [await sync_to_async(signed_in)(ann) for _ in range(2)]
    sockets = [_socket(f"/ws/arenas/{arena.pk}/?format=json", tab) for tab in tabs]
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=10)
    first = await sync_to_async(tabs[0].post)(f"/arenas/{arena.pk}/join/?format=json")
    second = await sync_to_async(tabs[1].post)(f"/arenas/{arena.pk}/join/?format=json")
    assert first.json()["ok"] and second.json()["message"] == "You are already in this arena."
    await sockets[0].receive_from(timeout=10)
    await sockets[1].receive_from(timeout=10)
    await sockets[0].disconnect()  # one tab closed
    await sync_to_async(services.join)(user=bob, arena_id=arena.pk)
    [news] = await _arena_messages(sockets[1], 1)
    assert news["players"] == 2 and news["you"]["name"] == "ann" and not news["you"]["paused"]
    entries = await sync_to_async(list)(Entrant.objects.filter(arena=arena, user=ann))
    assert len(entries) == 1 and not entries[0].paused and entries[0].free_since is not None
    [table] = await sync_to_async(pair_now)(arena)  # and she is still paired
    assert sorted(table.people) == sorted([ann.pk, bob.pk])
    await sockets[1].disconnect()
