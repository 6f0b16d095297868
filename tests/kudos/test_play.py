"""Kudos from play, through the end-of-game hook: by table size and result, once per game,
the first win of the day doubled, bonus events, the daily cap."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from accounts.models import User
from gameplay import hooks
from gameplay import services as gameplay
from gameplay import tasks as gameplay_tasks
from gameplay.models import Game
from kudos import rules, services
from kudos.models import Account, BonusEvent, Entry

from .conftest import ended_game

pytestmark = pytest.mark.django_db(transaction=True)


def person(user):
    return {"user_id": user.pk, "name": user.username}


BOT = {"bot": True}


def kudos_of(user) -> list[tuple[str, int, str]]:
    return [
        (e.kind, e.amount, e.memo)
        for e in Entry.objects.filter(user=user, kind__in=Entry.PLAY_KINDS).order_by("id")
    ]


def balance(user) -> int:
    return Account.objects.get(user=user).balance


def play(seats, winners, kind="war", ended="2030-01-07 10:00", status=Game.Status.OVER) -> Game:
    game = ended_game(seats=seats, winners=winners, kind=kind, ended=ended, status=status)
    hooks.deliver(game.pk)
    return game


@pytest.mark.parametrize(
    "kind, seats, pay_win, pay_finish",
    [("klondike", 1, 10, 1), ("war", 2, 10, 3), ("poker", 4, 15, 4), ("crazy8", 6, 20, 5)],
)
def test_pay_by_table_size_and_result(real_services, player, kind, seats, pay_win, pay_finish):
    ann, bob = player(), player()
    table = [person(ann)] + ([person(bob)] + [BOT] * (seats - 2) if seats > 1 else [])
    # Bob's first win of the day is doubled: count only the base here.
    play(table, winners=[0], kind=kind)
    assert kudos_of(ann)[0][:2] == ("play", pay_win) and rules.play_pay(seats, True) == pay_win
    if seats > 1:
        assert kudos_of(bob) == [("play", pay_finish, kudos_of(bob)[0][2])]
        assert rules.play_pay(seats, False) == pay_finish


def test_the_memo_names_the_game_by_its_title(real_services, player):
    ann = player()
    play([person(ann), BOT], winners=[0])
    assert kudos_of(ann) == [
        ("play", 10, "Won War at a table of 2"),
        ("bonus", 10, "First win of the day at War"),
    ]


def test_a_game_pays_once(real_services, player):
    ann = player()
    game = play([person(ann), BOT], winners=[1])
    hooks.deliver(game.pk)
    services.pay_for_game(game)
    assert kudos_of(ann) == [("play", 3, "Finished War at a table of 2")]


@pytest.mark.parametrize(
    "why, seats, status",
    [
        ("computer players only", [BOT, BOT], Game.Status.OVER),
        ("abandoned", ["ann", BOT], Game.Status.ABANDONED),
        ("a guest", [{"name": "guest"}, BOT], Game.Status.OVER),
        ("the computer finished ann's seat", [{"bot": True, "who": "ann"}, BOT], Game.Status.OVER),
        ("ann left a ranked table", [{"left": True, "who": "ann"}, BOT], Game.Status.OVER),
    ],
)
def test_games_that_pay_nothing(real_services, player, why, seats, status):
    ann = player()
    table = []
    for seat in seats:
        if seat == "ann":
            table.append(person(ann))
        elif seat.get("who") == "ann":
            table.append({**person(ann), **{k: v for k, v in seat.items() if k != "who"}})
        else:
            table.append(seat)
    play(table, winners=[0], status=status)
    assert Entry.objects.filter(kind__in=Entry.PLAY_KINDS).count() == 0, why


def test_first_win_of_the_day_at_each_game_pays_double(at, player):
    ann = player(zone="Pacific/Kiritimati")  # UTC+14: her day starts at 10:00 UTC
    play([person(ann), BOT], winners=[0], ended="2030-01-07 08:00")  # the 7th, local
    play([person(ann), BOT], winners=[0], ended="2030-01-07 09:00")
    play([person(ann), BOT, BOT, BOT], winners=[0], kind="poker", ended="2030-01-07 09:30")
    play([person(ann), BOT], winners=[0], ended="2030-01-07 10:30")  # the 8th, local
    assert [(k, a) for k, a, _ in kudos_of(ann)] == [
        ("play", 10),
        ("bonus", 10),
        ("play", 10),
        ("play", 15),
        ("bonus", 15),
        ("play", 10),
        ("bonus", 10),
    ]


def test_bonus_events_multiply_without_stacking(real_services, player):
    ann = player()
    window = {"starts": datetime(2030, 1, 7, tzinfo=UTC), "ends": datetime(2030, 1, 8, tzinfo=UTC)}
    BonusEvent.objects.create(name="Double Kudos day", multiplier=Decimal("2"), **window)
    BonusEvent.objects.create(name="Poker night", multiplier=Decimal("3"), kind="poker", **window)
    play([person(ann), BOT], winners=[1], ended="2030-01-07 10:00")
    play([person(ann), BOT], winners=[1], kind="poker", ended="2030-01-07 11:00")
    play([person(ann), BOT], winners=[1], ended="2030-01-08 00:00")  # just after the event
    assert kudos_of(ann) == [
        ("play", 3, "Finished War at a table of 2"),
        ("bonus", 3, "Double Kudos day (×2)"),
        ("play", 3, "Finished Poker at a table of 2"),
        ("bonus", 6, "Poker night (×3)"),
        ("play", 3, "Finished War at a table of 2"),
    ]


def test_a_bonus_event_multiplies_the_first_win_double_too(real_services, player):
    ann = player()
    BonusEvent.objects.create(
        name="Half as much again",
        multiplier=Decimal("1.5"),
        starts=datetime(2030, 1, 7, tzinfo=UTC),
        ends=datetime(2030, 1, 8, tzinfo=UTC),
    )
    play([person(ann), BOT, BOT], winners=[0], ended="2030-01-07 10:00")
    assert [(k, a) for k, a, _ in kudos_of(ann)] == [("play", 15), ("bonus", 15), ("bonus", 15)]


def test_the_daily_cap_from_play(real_services, player):
    ann = player()
    moment = datetime(2030, 1, 7, 1, tzinfo=UTC)
    for i in range(20):  # 4-seat wins pay 15 each (the first doubled): 30 + 11 × 15 = 195
        play(
            [person(ann)] + [BOT] * 3,
            winners=[0],
            kind="poker",
            ended=moment + timedelta(minutes=i),
        )
    assert sum(a for _, a, _ in kudos_of(ann)) == rules.PLAY_DAILY_CAP
    assert kudos_of(ann)[-1] == (
        "play",
        5,
        "Won Poker at a table of 4 (today's cap from play reached)",
    )
    assert Account.objects.get(user=ann).play_today == rules.PLAY_DAILY_CAP
    play([person(ann)] + [BOT] * 3, winners=[0], kind="poker", ended="2030-01-08 00:00")
    assert sum(a for _, a, _ in kudos_of(ann)) == rules.PLAY_DAILY_CAP + 30


def test_a_late_game_counts_on_the_players_latest_day(real_services, player):
    """A game delivered late (the sweep) never reopens a day whose cap is spent."""
    ann = player()
    play([person(ann), BOT], winners=[0], ended="2030-01-08 10:00")
    play([person(ann), BOT], winners=[0], ended="2030-01-07 23:00")
    assert [(k, a) for k, a, _ in kudos_of(ann)] == [("play", 10), ("bonus", 10), ("play", 10)]


def test_a_deleted_player_is_skipped_and_the_others_paid(real_services, player):
    ann, bob = player(), player()
    game = ended_game(seats=[person(ann), person(bob)], winners=[0], ended="2030-01-07 10:00")
    User.objects.filter(pk=ann.pk).delete()
    assert "kudos" in hooks.deliver(game.pk)
    assert kudos_of(bob) == [("play", 3, "Finished War at a table of 2")]


def test_a_real_game_pays_when_it_ends(real_services, player):
    """A War game played through gameplay's services: the hook pays as the game ends."""
    ann = player()
    game = gameplay.start_game(
        kind="war", seats=[person(ann), {"name": "Cubot", "bot": True}], seed="short/235"
    )
    while not game.is_over:
        gameplay_tasks.play_for_seats(game.pk, game.seq, people_too=True)
        game.refresh_from_db()
    won = 0 in game.result["winners"]
    assert kudos_of(ann)[0] == (
        "play",
        10 if won else 3,
        f"{'Won' if won else 'Finished'} War at a table of 2",
    )
    # Play, the first win of the day doubled, and the badges of a first game (and first win).
    badges = 10 + (15 if won else 0)
    assert balance(ann) == (20 if won else 3) + badges
    assert Entry.objects.filter(user=ann, kind=Entry.Kind.BADGE).count() == (2 if won else 1)
