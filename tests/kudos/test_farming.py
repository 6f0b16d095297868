"""Rewards for play are for playing, not for scripts (issue 33): each cheap path a script can
take, through the same services a socket's actions reach, earns nothing, and what a person
earns stops at the day's caps."""

import pytest

from accounts.models import GameRecord
from gameplay import hooks, services, store
from gameplay.engine import registry
from kudos import rules, selectors
from kudos.models import Account, BadgeEarned, Entry
from tests.played import person_pace

from .conftest import ended_game

pytestmark = pytest.mark.django_db(transaction=True)


def earned(user) -> tuple[int, int]:
    """(Kudos from play, experience)."""
    kudos = sum(
        Entry.objects.filter(user=user, kind__in=Entry.PLAY_KINDS).values_list("amount", flat=True)
    )
    return kudos, selectors.level(user.pk)["xp"]


def nothing_for(user) -> None:
    assert earned(user) == (0, 0)
    assert not BadgeEarned.objects.filter(user=user).exists()  # no first game, no first win
    assert not GameRecord.objects.filter(user=user).exists()  # no "played" either
    now = Entry.objects.order_by("-id").values_list("created", flat=True).first()
    if now is not None:
        start = selectors.week_start(now)
        assert selectors.standings(start, start + selectors.WEEK, 50) == []


def play_out(game, *, mine=0, by_computer=lambda state: False) -> None:
    """Every seat plays the computer's choice at once; seat ``mine`` is the person's (unless
    ``by_computer(state)`` says the computer plays it for them then)."""
    engine = registry.get(game.kind)
    while not game.is_over:
        state = store.load_state(game)
        seat = engine.to_act(state)[0]
        away = by_computer(state)
        if seat == mine and away != game.seats[mine].get("bot", False):
            # The person leaves (the computer takes the seat) or comes back, as at the table.
            game = services.set_seat_control(game_id=game.pk, seat=mine, bot=away)
        services.submit_action(
            game_id=game.pk,
            seat=seat,
            action=engine.bot_action(state, seat),
            seq=game.seq,
            by_bot=seat != mine or away,
        )
        game.refresh_from_db()
    hooks.deliver(game.pk)


def test_a_resign_loop_earns_nothing(real_services, player):
    """210 Klondike deals resigned at once (POST /play/klondike/, then resign on the socket)."""
    ann = player()
    for n in range(210):
        game = services.start_game(
            kind="klondike", seats=[{"name": "ann", "user_id": ann.pk}], seed=f"resign/{n}"
        )
        services.submit_action(game_id=game.pk, seat=0, action={"type": "resign"}, seq=0)
        hooks.deliver(game.pk)
    nothing_for(ann)


@pytest.mark.parametrize(
    "kind, seats, game_rules",
    [("war", 2, {"rounds": 50}), ("crazy8", 2, None), ("blackjack", 1, None), ("gin", 2, None)],
)
def test_the_shortest_games_at_a_scripts_speed_earn_nothing(
    real_services, player, kind, seats, game_rules
):
    ann = player()
    for n in range(3):
        table = [{"name": "ann", "user_id": ann.pk}] + [{"name": "Cubot", "bot": True}] * (
            seats - 1
        )
        game = services.start_game(kind=kind, seats=table, seed=f"short/{n}", rules=game_rules)
        play_out(game)
    nothing_for(ann)


def test_war_flipped_for_an_absent_person_earns_nothing(real_services, player):
    """Ann flips the first rounds and the last at a person's pace; in between her seat was
    the computer's (she was away), yet she holds it at the end."""
    ann = player()
    game = services.start_game(
        kind="war",
        seats=[{"name": "ann", "user_id": ann.pk}, {"name": "Cubot", "bot": True}],
        seed="short/235",
    )
    with person_pace(1.0):
        play_out(game, by_computer=lambda state: 3 <= state["round"] < 45)
    assert not game.seats[0]["bot"] and 0 < game.log.filter(seat=0, by_bot=False).count() < 10
    nothing_for(ann)


def test_experience_stops_at_its_daily_cap(real_services, player):
    ann = player()
    for n in range(50):  # 50 won games of War of 10 minutes each, one after another
        game = ended_game(
            seats=[{"user_id": ann.pk}, {"bot": True}],
            winners=[0],
            ended=f"2030-01-07 {1 + n // 6:02}:{n % 6 * 10:02}",
            seconds=600,
        )
        hooks.deliver(game.pk)
    assert earned(ann) == (rules.PLAY_DAILY_CAP, rules.XP_DAILY_CAP)
    assert Account.objects.get(user=ann).xp == rules.XP_DAILY_CAP
