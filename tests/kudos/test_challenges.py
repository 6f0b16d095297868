"""The Daily Challenge: beat chooses the day's deals ahead (Klondike's proven winnable), one
attempt each that can't be restarted, time and moves on a board, pay for finishing and
winning, the day's fastest wins paid once when it closes, the seed published after the day."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client

from gameplay import hooks, store
from gameplay import services as gameplay
from gameplay.engine.games.klondike import board as klondike_board
from gameplay.engine.games.klondike import solver
from gameplay.models import Game
from kudos import challenges, clock, rules, tasks
from kudos.models import Attempt, Challenge, Entry
from lobby import services as lobby
from lobby.models import Room
from tests.played import person_pace, worker_delivers

from .conftest import ended_game
from .test_ledger import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(client: Client, kind="klondike"):
    """Press Play on today's challenge: the game of the room it leads to."""
    response = client.post(f"/play/{kind}/challenge/")
    assert response.status_code == 302
    if not response.url.startswith("/rooms/"):
        return None
    code = response.url.rstrip("/").split("/")[-1]
    return Room.objects.get(code=code, is_open=True).game


def said(client: Client) -> list[str]:
    return [str(m) for m in client.get("/kudos/challenge/").context["messages"]]


def challenge_kudos(user) -> list[tuple[int, str]]:
    return list(
        Entry.objects.filter(user=user, kind=Entry.Kind.CHALLENGE)
        .order_by("id")
        .values_list("amount", "memo")
    )


def test_beat_chooses_today_and_tomorrow_ahead_once(real_services):
    assert tasks.choose_challenges() == 4
    today = challenges.today()
    chosen = Challenge.objects.order_by("day", "kind")
    assert [(c.day - today).days for c in chosen] == [0, 0, 1, 1]
    assert {c.kind for c in chosen} == {"klondike", "gridcannon"}
    for c in chosen.filter(kind="klondike"):
        assert c.rules == {"draw": 1, "winnable": False}  # dealt as chosen, not searched again
        assert solver.solve(klondike_board.deal(c.seed, 1), 10)["status"] == "won"
        assert c.seed_hash == store.seed_hash(c.seed)
    assert tasks.choose_challenges() == 0
    assert Challenge.objects.count() == 4


def test_a_challenge_is_played_on_the_days_deal_timed_and_paid(real_services, player):
    ann = player("ann")
    client = signed_in(ann)
    game = start(client)
    daily = Challenge.objects.get(day=challenges.today(), kind="klondike")
    assert (game.seed, game.rules) == (daily.seed, daily.rules)
    assert game.sealed_until == challenges.day_end(daily.day)
    # Play the solver's winning line through the service layer, as the table would.
    state = store.load_state(game)
    line = solver.solve(state, 10)["line"]
    with person_pace(1.0):  # a few seconds a move: the solver's line at machine speed is no play
        for seq, action in enumerate(line):
            gameplay.submit_action(game_id=game.pk, seat=0, action=action, seq=seq)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.result["winners"] == [0]
    assert worker_delivers(game.pk) == [game.pk]
    attempt = Attempt.objects.get(user=ann)
    assert attempt.won and attempt.moves == len(line) == game.seq
    assert attempt.seconds == int((game.ended - game.created).total_seconds())
    assert challenge_kudos(ann) == [
        (
            rules.CHALLENGE_WON,
            f"Won the Klondike Daily Challenge of {daily.day:%-d %B} in "
            f"{challenges.clock_time(attempt.seconds)}",
        )
    ]
    hooks.deliver(game.pk)  # again: pays nothing more
    assert len(challenge_kudos(ann)) == 1
    board = client.get("/kudos/challenge/").content.decode()
    section = board[board.index('data-challenge="klondike"') :]
    assert "Your attempt: <strong>won</strong>" in section and "place 1" in section
    assert daily.seed not in board  # not before the day is over
    # The finished game keeps its deal secret until the day ends: no log, no replay.
    log = client.get(f"/games/{game.pk}/log.json")
    assert log.status_code == 403 and daily.seed not in log.content.decode()
    assert "published at" in json.loads(log.content)["error"]
    assert client.get(f"/games/{game.pk}/").status_code == 404
    Game.objects.filter(pk=game.pk).update(sealed_until=clock.now() - timedelta(seconds=1))
    assert json.loads(client.get(f"/games/{game.pk}/log.json").content)["seed"] == daily.seed
    assert client.get(f"/games/{game.pk}/").status_code == 200


def test_an_attempt_cannot_be_restarted(real_services, player):
    ann = player("ann")
    client = signed_in(ann)
    game = start(client, "gridcannon")
    daily = Challenge.objects.get(day=challenges.today(), kind="gridcannon")
    refusal = (
        "You have played today's Gridcannon challenge: one attempt each. A new deal comes at "
        "midnight UTC."
    )
    # Pressing Play again, mid-game: refused, nothing new.
    assert start(client, "gridcannon") is None
    assert said(client) == [refusal]
    # Quitting the game (abandoned) leaves the attempt used, unfinished.
    room = Room.objects.get(game=game)
    client.post(f"/rooms/{room.code}/leave/")
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert start(client, "gridcannon") is None and said(client) == [refusal]
    attempt = Attempt.objects.get(user=ann)
    assert attempt.game == game and attempt.finished is None
    assert Game.objects.filter(seed=daily.seed).count() == 1
    assert challenge_kudos(ann) == []
    # The other game's challenge is still there to play.
    assert (
        start(client, "klondike").seed
        == Challenge.objects.get(day=challenges.today(), kind="klondike").seed
    )


def test_play_again_after_a_challenge_deals_a_fresh_game_that_does_not_count(real_services, player):
    ann = player("ann")
    client = signed_in(ann)
    game = start(client)
    gameplay.submit_action(game_id=game.pk, seat=0, action={"type": "resign"}, seq=0)
    attempt = Attempt.objects.get(user=ann)
    # Resigned at once: the attempt is spent, but it is no game played and pays nothing.
    assert attempt.finished is None and challenge_kudos(ann) == []
    room = Room.objects.get(game=game)
    client.post(f"/rooms/{room.code}/start/", {"game": "klondike", "rules": json.dumps(game.rules)})
    again = Room.objects.get(pk=room.pk).game
    assert again.pk != game.pk and again.seed != game.seed and again.sealed_until is None
    gameplay.submit_action(game_id=again.pk, seat=0, action={"type": "resign"}, seq=0)
    attempt.refresh_from_db()
    assert attempt.game == game and attempt.finished is None and challenge_kudos(ann) == []


def test_parallel_starts_make_one_attempt(real_services, player):
    ann = player("ann")
    challenges.todays()
    connection.close()

    def press(i):
        return lobby.play_challenge(kind="klondike", player=f"user:{ann.pk}", name="ann", user=ann)

    results, errors = in_parallel(10, press)
    assert len([r for r in results if isinstance(r, Room)]) == 1
    assert len(errors) == 9 and all(isinstance(e, lobby.RoomError) for e in errors)
    daily = Challenge.objects.get(day=challenges.today(), kind="klondike")
    assert Attempt.objects.filter(user=ann).count() == 1
    assert Game.objects.filter(seed=daily.seed).count() == 1
    assert Room.objects.filter(members__user=ann).count() == 1


def test_guests_and_unknown_games_are_told_why(real_services, client):
    client.get("/")
    response = client.post("/play/klondike/challenge/", follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Sign in to play the Daily Challenge: it keeps your time."
    ]
    assert not Attempt.objects.exists()


def test_unknown_challenge_game(real_services, player):
    client = signed_in(player())
    assert start(client, "war") is None
    assert said(client) == ["There is no Daily Challenge for that game."]


def yesterday_with(attempts, kind="klondike") -> Challenge:
    """Yesterday's challenge with finished attempts: (user, won, seconds, moves) each."""
    day = challenges.today() - timedelta(days=1)
    daily = Challenge.objects.create(
        day=day, kind=kind, rules={}, seed="yesterday/1", seed_hash="0" * 64, chosen=clock.now()
    )
    for user, won, seconds, moves in attempts:
        Attempt.objects.create(
            challenge=daily,
            user=user,
            started=clock.now(),
            finished=clock.now(),
            won=won,
            seconds=seconds,
            moves=moves,
            score=52 if won else 20,
        )
    return daily


def test_the_day_closes_once_paying_the_ten_fastest_wins(real_services, player):
    people = [player(f"p{i}") for i in range(13)]
    # 11 wins (two tied on time: fewer moves first) and 2 that didn't win.
    runs = [(p, True, 100 + 10 * i, 90) for i, p in enumerate(people[:11])]
    runs[3] = (people[3], True, 110, 80)  # ties p1 on time, fewer moves
    runs += [(people[11], False, 50, 40), (people[12], False, 60, 40)]
    daily = yesterday_with(runs)
    order = [a.user.username for a in challenges.standings(daily)]
    assert order[:4] == ["p0", "p3", "p1", "p2"] and order[-2:] == ["p11", "p12"]
    connection.close()
    results, errors = in_parallel(4, lambda i: challenges.close_days())
    assert errors == [] and sorted(map(len, results)) == [0, 0, 0, 1]
    challenges.close_days()
    bonus = Entry.objects.filter(key__startswith=f"challenge-top:{daily.pk}:")
    paid = set(bonus.values_list("user__username", flat=True))
    assert paid == set(order[: rules.CHALLENGE_TOP])
    assert all(e.amount == rules.CHALLENGE_TOP_BONUS for e in bonus)
    first = Entry.objects.get(key=f"challenge-top:{daily.pk}:{people[0].pk}")
    assert first.memo.startswith("1st fastest in the Klondike Daily Challenge of")


def test_a_game_ended_after_its_day_does_not_count(real_services, player):
    ann = player("ann")
    daily = yesterday_with([])
    game = ended_game(seats=[{"user_id": ann.pk}], winners=[0], kind="klondike")
    challenges.attach(
        Attempt.objects.create(challenge=daily, user=ann, started=clock.now()), game
    )  # as the lobby does
    hooks.deliver(game.pk)
    assert Attempt.objects.get(user=ann).finished is None and challenge_kudos(ann) == []


def test_the_page_shows_today_and_yesterday_with_its_seed(real_services, player):
    ann = player("ann")
    yesterday_with([(ann, True, 75, 120)])
    html = signed_in(ann).get("/kudos/challenge/").content.decode()
    assert html.count("Play today's") == 2
    assert 'data-yesterday="klondike"' in html and "yesterday/1" in html
    yesterday = html[html.index('data-yesterday="klondike"') :]
    assert "1:15" in yesterday and "ann" in yesterday
    for daily in Challenge.objects.filter(day=challenges.today()):
        assert daily.seed not in html and daily.seed_hash[:19] in html
    guest = Client().get("/kudos/challenge/").content.decode()
    assert "Sign in</a> to play" in guest


def test_the_day_is_utc_and_closes_five_minutes_after(at, player):
    ann = player("ann")
    at(datetime(2030, 1, 7, 23, 59, tzinfo=UTC))
    assert challenges.today().isoformat() == "2030-01-07"
    assert challenges.day_end(challenges.today()) == datetime(2030, 1, 8, tzinfo=UTC)
    daily = Challenge.objects.create(
        day=challenges.today(), kind="klondike", rules={}, seed="s", seed_hash="0" * 64,
        chosen=clock.now(),
    )  # fmt: skip
    Attempt.objects.create(
        challenge=daily, user=ann, started=clock.now(), finished=clock.now(), won=True, seconds=9
    )
    at(datetime(2030, 1, 8, 0, 4, tzinfo=UTC))
    assert challenges.close_days() == []  # a game that ended at midnight may still be recording
    at(datetime(2030, 1, 8, 0, 5, tzinfo=UTC))
    assert challenges.close_days() == [daily]
    assert challenge_kudos(ann)[0][0] == rules.CHALLENGE_TOP_BONUS
