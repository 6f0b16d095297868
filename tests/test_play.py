"""What counts as play (gameplay.play): the person's own decisions at a person's pace, or War's
natural end reached with the person at the table; credited time capped per decision."""

import pytest
from django.contrib.auth import get_user_model

from gameplay import play, services
from gameplay.engine import registry
from gameplay.models import Game
from tests.played import ended_game, person_pace
from tests.test_gameplay_services import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(db):
    return get_user_model().objects.create_user("ann", password=None)


def test_every_game_declares_what_a_real_game_of_it_is():
    for kind in registry.kinds():
        real = registry.get(kind).real_game
        assert real.decisions > 0 or real.natural_end, kind
        assert real.least_seconds > 0 and real.pace > 0, kind


def test_the_move_path_records_when_the_seat_was_asked(ann):
    game = services.start_game(
        kind="war", seats=[{"name": "ann", "user_id": ann.pk}, {"name": "Cubot"}], seed="short/235"
    )
    with person_pace(2.0):
        game = play_to_end(game)
    log = list(game.log.order_by("seq"))
    assert abs((log[0].to_act - game.created).total_seconds()) < 1  # asked as it was dealt
    assert all(e.to_act is not None and e.to_act < e.created for e in log)
    assert all(e.to_act < later.to_act for e, later in zip(log, log[1:], strict=False))
    mine = play.of_game(game)[0]
    assert mine.counted and mine.decisions == len([e for e in log if e.seat == 0])
    assert mine.seconds >= 30


def test_war_flipped_as_fast_as_a_script_can_is_no_play(ann):
    game = services.start_game(
        kind="war", seats=[{"name": "ann", "user_id": ann.pk}, {"name": "Cubot"}], seed="short/235"
    )
    game = play_to_end(game)  # 47 rounds, each flip the moment it is asked for
    mine = play.of_game(game)[0]
    assert not mine.counted and mine.seconds < 5
    assert mine.reason == "The moves came faster than anyone plays."


def test_a_seat_a_computer_finished_is_no_play(ann):
    game = ended_game(seats=[{"user_id": ann.pk, "bot": True}, {"bot": True}], winners=[0])
    assert not play.of_game(game)[0].counted
    left = ended_game(seats=[{"user_id": ann.pk, "left": True}, {"bot": True}], winners=[0])
    assert "left before the end" in play.of_game(left)[0].reason


def test_an_abandoned_game_is_no_play(ann):
    game = ended_game(seats=[{"user_id": ann.pk}], winners=[], status=Game.Status.ABANDONED)
    assert play.of_game(game)[0].reason == "The game was abandoned."


def test_a_resign_after_a_real_game_counts_and_before_it_does_not(ann):
    real = ended_game(seats=[{"user_id": ann.pk}, {"bot": True}], winners=[1], kind="gin")
    real.log.filter(seq=real.seq).update(action={"type": "resign"})  # the 6th: 5 decisions
    assert play.of_game(real)[0].decisions == 5 and not play.of_game(real)[0].counted
    more = ended_game(
        seats=[{"user_id": ann.pk}, {"bot": True}], winners=[1], kind="gin", decisions=7
    )
    more.log.filter(seq=more.seq).update(action={"type": "resign"})
    assert play.of_game(more)[0].counted


def test_computer_and_timer_moves_are_not_the_persons_decisions(ann):
    game = ended_game(seats=[{"user_id": ann.pk}], winners=[0], kind="klondike")
    game.log.filter(seq__lte=3).update(by_bot=True)
    assert play.of_game(game)[0].decisions == 12
