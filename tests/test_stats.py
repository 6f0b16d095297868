"""A game played counts once for each signed-in player at the table; guests keep nothing, and
a game that was no play (resigned at once) is no "played"."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import GameRecord, GameStat
from accounts.services import record_game
from gameplay import hooks, services
from gameplay.play import THINK_CAP
from tests.played import ended_game, person_pace, played_out, worker_delivers

pytestmark = pytest.mark.django_db(transaction=True)


def test_finished_game_is_recorded_once_per_player(real_services, client):
    ann = get_user_model().objects.create_user("ann", password="x-Long-pass-77")
    game = services.start_game(
        kind="war",
        seats=[{"name": "ann", "user_id": ann.pk}, {"name": "Guest-1"}],
        seed="short/235",
    )
    with person_pace(2.0):
        game = played_out(game, delivered=False)
    assert not GameRecord.objects.exists()  # the end is the worker's to deliver
    assert worker_delivers(game.pk) == [game.pk]
    record = GameRecord.objects.get(user=ann)
    assert record.won == (0 in game.result["winners"]) and record.moves == game.seq
    assert record.decisions == game.log.filter(seat=0).count() and record.play_seconds >= 30
    stat = GameStat.objects.get(user=ann, kind="war")
    assert stat.played == 1 and stat.wins == int(record.won)
    assert hooks.deliver(game.pk) == []  # the hook ran at the end; again, it runs nothing
    assert record_game(game) == 0  # and the record itself refuses a second count
    assert GameStat.objects.get(user=ann, kind="war").played == 1
    page = client.get("/u/ann/").content.decode()
    assert "War" in page and "Recent games" in page


@pytest.mark.parametrize("kind", ["klondike", "gin"])
def test_a_game_resigned_at_once_is_not_played(real_services, kind):
    ann = get_user_model().objects.create_user("ann", password=None)
    game = ended_game(seats=[{"user_id": ann.pk}, {"bot": True}], winners=[1], kind=kind)
    game.log.update(action={"type": "resign"})
    assert record_game(game) == 0
    assert not GameRecord.objects.exists() and not GameStat.objects.exists()


def test_decisions_faster_than_a_person_are_not_played(real_services):
    ann = get_user_model().objects.create_user("ann", password=None)
    fast = ended_game(seats=[{"user_id": ann.pk}], winners=[0], kind="klondike", seconds=1)
    assert record_game(fast) == 0
    paced = ended_game(seats=[{"user_id": ann.pk}], winners=[0], kind="klondike", seconds=120)
    assert record_game(paced) == 1
    record = GameRecord.objects.get(user=ann)
    assert (record.decisions, record.play_seconds) == (15, 120)


def test_thinking_time_is_credited_up_to_the_cap(real_services):
    ann = get_user_model().objects.create_user("ann", password=None)
    # 15 decisions, 10 minutes: 40 s each, of which 30 s count
    slow = ended_game(
        seats=[{"user_id": ann.pk}], winners=[], kind="klondike", decisions=15, seconds=600
    )
    record_game(slow)
    assert GameRecord.objects.get(user=ann).play_seconds == 15 * THINK_CAP.seconds


def test_a_player_in_two_seats_is_counted_once(real_services):
    ann = get_user_model().objects.create_user("ann", password=None)
    bob = get_user_model().objects.create_user("bob", password=None)
    seats = [{"user_id": ann.pk}, {"user_id": bob.pk}, {"user_id": ann.pk}]
    game = ended_game(seats=seats, winners=[2])
    assert record_game(game) == 2
    assert GameRecord.objects.get(user=ann).seat == 0  # the first seat's record
    assert GameStat.objects.get(user=ann).played == 1 and GameStat.objects.get(user=bob).played == 1
    assert record_game(game) == 0
