"""Kudos from play, through the end-of-game hook: by table size and result, once per game,
the first win of the day doubled, bonus events, the daily cap."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from accounts.models import User
from gameplay import hooks, store
from gameplay import services as gameplay
from gameplay.engine import registry
from gameplay.models import Game
from kudos import rules, services
from kudos.models import Account, BonusEvent, Entry
from tests.played import person_pace, worker_delivers

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


def play(
    seats, winners, kind="war", ended="2030-01-07 10:00", status=Game.Status.OVER, minutes=10
) -> Game:
    game = ended_game(
        seats=seats, winners=winners, kind=kind, ended=ended, status=status, seconds=minutes * 60
    )
    hooks.deliver(game.pk)
    return game


def xp(user) -> int:
    return Account.objects.get(user=user).xp


@pytest.mark.parametrize(
    "kind, seats, pay_win, pay_played",
    [("klondike", 1, 15, 10), ("war", 2, 22, 15), ("poker", 4, 30, 20), ("crazy8", 6, 37, 25)],
)
def test_pay_by_minutes_table_size_and_result(
    real_services, player, kind, seats, pay_win, pay_played
):
    ann, bob = player(), player()
    table = [person(ann)] + ([person(bob)] + [BOT] * (seats - 2) if seats > 1 else [])
    # Ten minutes each. Ann's first win of the day is doubled: count only the base here.
    play(table, winners=[0], kind=kind)
    assert kudos_of(ann)[0][:2] == ("play", pay_win)
    assert rules.hundredths(600, rules.play_rate(seats), True) // 100 == pay_win
    assert xp(ann) == 30  # 2 a minute, a win 1.5 times as much
    if seats > 1:
        assert kudos_of(bob) == [("play", pay_played, kudos_of(bob)[0][2])]
        assert xp(bob) == 20


def test_the_memo_names_the_game_and_the_minutes(real_services, player):
    ann = player()
    play([person(ann), BOT], winners=[0], minutes=4)
    assert kudos_of(ann) == [
        ("play", 9, "Won War at a table of 2: 4 min 0 s of play"),
        ("bonus", 9, "First win of the day at War"),
    ]


def test_a_game_pays_once(real_services, player):
    ann = player()
    game = play([person(ann), BOT], winners=[1])
    hooks.deliver(game.pk)
    services.pay_for_game(game)
    assert kudos_of(ann) == [("play", 15, "Played War at a table of 2: 10 min 0 s of play")]
    assert xp(ann) == 20


def test_parts_of_a_kudos_add_up_from_game_to_game(real_services, player):
    ann = player()
    for minute in range(3):  # 40 seconds of Gridcannon: two thirds of a Kudos each
        play(
            [person(ann)],
            winners=[],
            kind="gridcannon",
            minutes=2 / 3,
            ended=f"2030-01-07 10:0{minute}",
        )
    assert sum(a for _, a, _ in kudos_of(ann)) == 1
    assert Account.objects.get(user=ann).play_owed == 98
    play([person(ann)], winners=[], kind="gridcannon", minutes=2 / 3, ended="2030-01-07 10:05")
    assert sum(a for _, a, _ in kudos_of(ann)) == 2


def test_time_played_at_two_tables_at_once_pays_once(real_services, player):
    ann = player()
    play([person(ann), BOT], winners=[1], ended="2030-01-07 10:10")  # 10:00 to 10:10
    play([person(ann), BOT], winners=[1], ended="2030-01-07 10:10", kind="gin")  # the same time
    play([person(ann), BOT], winners=[1], ended="2030-01-07 10:15", kind="poker")  # 5 min more
    assert [a for _, a, _ in kudos_of(ann)] == [15, 7]  # 10 minutes, then 5 at 1.5 a minute
    assert Account.objects.get(user=ann).seconds_today == 15 * 60


@pytest.mark.parametrize(
    "why, seats, status",
    [
        ("computer players only", [BOT, BOT], Game.Status.OVER),
        ("abandoned", ["ann", BOT], Game.Status.ABANDONED),
        ("a guest", [{"name": "guest"}, BOT], Game.Status.OVER),
        ("the computer finished ann's seat", [{"bot": True, "who": "ann"}, BOT], Game.Status.OVER),
        ("ann left a ranked table", [{"left": True, "who": "ann"}, BOT], Game.Status.OVER),
        ("a computer player's account", ["cubot"], Game.Status.OVER),
    ],
)
def test_games_that_pay_nothing(real_services, player, why, seats, status):
    ann = player()
    cubot = User.objects.create_user("cubot-easy", password=None, role=User.COMPUTER)
    table = []
    for seat in seats:
        if seat == "ann":
            table.append(person(ann))
        elif seat == "cubot":
            table.append(person(cubot))
        elif seat.get("who") == "ann":
            table.append({**person(ann), **{k: v for k, v in seat.items() if k != "who"}})
        else:
            table.append(seat)
    play(table, winners=[0], status=status)
    assert Entry.objects.filter(kind__in=Entry.PLAY_KINDS).count() == 0, why
    assert not Account.objects.filter(xp__gt=0).exists(), why


def test_first_win_of_the_day_at_each_game_pays_double_on_utc_days(at, player):
    ann = player(zone="Pacific/Kiritimati")  # UTC+14: the day that pays is UTC's all the same
    play([person(ann), BOT], winners=[0], ended="2030-01-07 08:00")
    play([person(ann), BOT], winners=[0], ended="2030-01-07 23:00")
    play([person(ann), BOT, BOT, BOT], winners=[0], kind="poker", ended="2030-01-07 23:30")
    play([person(ann), BOT], winners=[0], ended="2030-01-08 00:30")  # the 8th, UTC
    assert [(k, a) for k, a, _ in kudos_of(ann)] == [
        ("play", 22),
        ("bonus", 23),  # the halves carried
        ("play", 22),
        ("play", 30),
        ("bonus", 30),
        ("play", 23),
        ("bonus", 22),
    ]


def test_bonus_events_multiply_without_stacking(real_services, player):
    ann = player()
    window = {"starts": datetime(2030, 1, 7, tzinfo=UTC), "ends": datetime(2030, 1, 8, tzinfo=UTC)}
    BonusEvent.objects.create(name="Double Kudos day", multiplier=Decimal("2"), **window)
    BonusEvent.objects.create(name="Poker night", multiplier=Decimal("3"), kind="poker", **window)
    play([person(ann), BOT], winners=[1], ended="2030-01-07 10:00")
    play([person(ann), BOT], winners=[1], kind="poker", ended="2030-01-07 11:00")
    play([person(ann), BOT], winners=[1], ended="2030-01-08 00:10")  # after the event
    assert [(k, a, m.split(":")[0]) for k, a, m in kudos_of(ann)] == [
        ("play", 15, "Played War at a table of 2"),
        ("bonus", 15, "Double Kudos day (×2)"),
        ("play", 15, "Played Poker at a table of 2"),
        ("bonus", 30, "Poker night (×3)"),
        ("play", 15, "Played War at a table of 2"),
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
    assert [(k, a) for k, a, _ in kudos_of(ann)] == [("play", 30), ("bonus", 30), ("bonus", 30)]


def test_the_daily_caps_from_play(real_services, player):
    ann = player()
    moment = datetime(2030, 1, 7, 1, tzinfo=UTC)
    for i in range(12):  # 4-seat wins of 10 minutes pay 30 each (the first doubled)
        play(
            [person(ann)] + [BOT] * 3,
            winners=[0],
            kind="poker",
            ended=moment + timedelta(minutes=10 * i),
        )
    assert sum(a for _, a, _ in kudos_of(ann)) == rules.PLAY_DAILY_CAP
    assert kudos_of(ann)[-1][1:] == (
        20,
        "Won Poker at a table of 4: 10 min 0 s of play (today's cap from play reached)",
    )
    account = Account.objects.get(user=ann)
    assert account.play_today == rules.PLAY_DAILY_CAP and account.xp == 12 * 30
    for i in range(12):  # 120 more minutes: experience stops at its cap
        play(
            [person(ann)] + [BOT] * 3,
            winners=[0],
            kind="poker",
            ended=moment + timedelta(minutes=130 + 10 * i),
        )
    assert Account.objects.get(user=ann).xp == rules.XP_DAILY_CAP
    play([person(ann)] + [BOT] * 3, winners=[0], kind="poker", ended="2030-01-08 00:10")
    assert sum(a for _, a, _ in kudos_of(ann)) == rules.PLAY_DAILY_CAP + 60
    assert Account.objects.get(user=ann).xp == rules.XP_DAILY_CAP + 30


def test_a_late_game_counts_on_the_players_latest_day(real_services, player):
    """A game delivered late (the sweep) never reopens a day whose cap is spent."""
    ann = player()
    play([person(ann), BOT], winners=[0], ended="2030-01-08 10:00")
    play([person(ann), BOT], winners=[0], ended="2030-01-07 23:00")
    assert [(k, a) for k, a, _ in kudos_of(ann)] == [("play", 22), ("bonus", 23), ("play", 22)]


def test_a_deleted_player_is_skipped_and_the_others_paid(real_services, player):
    ann, bob = player(), player()
    game = ended_game(seats=[person(ann), person(bob)], winners=[0], ended="2030-01-07 10:00")
    User.objects.filter(pk=ann.pk).delete()
    assert "kudos" in hooks.deliver(game.pk)
    assert kudos_of(bob) == [("play", 1, "Played War at a table of 2: 1 min 0 s of play")]


def test_a_real_game_pays_when_it_ends(real_services, player):
    """A War game played through gameplay's services at a person's pace: the hook pays as the
    game ends."""
    ann = player()
    game = gameplay.start_game(
        kind="war", seats=[person(ann), {"name": "Cubot", "bot": True}], seed="short/235"
    )
    engine = registry.get("war")
    with person_pace(2.0):
        while not game.is_over:
            state = store.load_state(game)
            seat = engine.to_act(state)[0]
            action = engine.bot_action(state, seat)  # ann flips as the computer would
            gameplay.submit_action(
                game_id=game.pk, seat=seat, action=action, seq=game.seq, by_bot=seat == 1
            )
            game.refresh_from_db()
    assert kudos_of(ann) == [] and worker_delivers(game.pk) == [game.pk]  # the worker pays
    won = 0 in game.result["winners"]
    kind, amount, memo = kudos_of(ann)[0]
    assert kind == "play" and amount > 0
    assert memo.startswith(f"{'Won' if won else 'Played'} War at a table of 2: ")
    # Play, the first win of the day doubled, and the badges of a first game (and first win).
    assert Entry.objects.filter(user=ann, kind=Entry.Kind.BADGE).count() == (2 if won else 1)
