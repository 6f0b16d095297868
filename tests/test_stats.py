"""A finished game counts once for each signed-in player at the table; guests keep nothing."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import GameRecord, GameStat
from accounts.services import record_game
from gameplay import hooks, services, store
from gameplay.engine import registry

pytestmark = pytest.mark.django_db(transaction=True)


def play_out(game):
    engine = registry.get(game.kind)
    state = store.load_state(game)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state = services.submit_action(
            game_id=game.pk, seat=seat, action=engine.bot_action(state, seat), seq=state["applied"]
        ).state
    game.refresh_from_db()
    return game


def test_finished_game_is_recorded_once_per_player(real_services, client):
    ann = get_user_model().objects.create_user("ann", password="x-Long-pass-77")
    game = services.start_game(
        kind="war",
        seats=[{"name": "ann", "user_id": ann.pk}, {"name": "Guest-1"}],
        seed="short/235",
    )
    game = play_out(game)
    record = GameRecord.objects.get(user=ann)
    assert record.won == (0 in game.result["winners"]) and record.moves == game.seq
    stat = GameStat.objects.get(user=ann, kind="war")
    assert stat.played == 1 and stat.wins == int(record.won)
    assert hooks.deliver(game.pk) == []  # the hook ran at the end; again, it runs nothing
    assert record_game(game) == 0  # and the record itself refuses a second count
    assert GameStat.objects.get(user=ann, kind="war").played == 1
    page = client.get("/u/ann/").content.decode()
    assert "War" in page and "Recent games" in page
