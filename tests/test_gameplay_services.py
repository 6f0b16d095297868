"""The event log on the real database: start, act, stale seq, rebuild, verify, the race.

The moves here run outside any transaction of the test's, as a table socket's do: each is
tried on the row as this process last wrote it, and decided under the row's lock when that
row moved on or the move would be refused."""

import json
import threading

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gameplay import moves, services, store
from gameplay.engine import IllegalAction, registry
from gameplay.models import Game, GameEvent

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = [
    {"name": "Ann", "user_id": None, "bot": False},
    {"name": "Ben", "user_id": None, "bot": False},
]


def start(seed="s1", seats=SEATS):
    return services.start_game(kind="war", seats=seats, seed=seed)


def play_to_end(game, limit=5000):
    engine = registry.get("war")
    for _ in range(limit):
        game.refresh_from_db()
        if game.is_over:
            return game
        state = store.load_state(game)
        seat = engine.to_act(state)[0]
        services.submit_action(
            game_id=game.pk, seat=seat, action=engine.bot_action(state, seat), seq=game.seq
        )
    raise AssertionError("game did not end")


def test_start_publishes_only_the_hash():
    game = start()
    assert game.seed_hash == store.seed_hash("s1") and len(game.seed_hash) == 64
    assert game.seq == 0 and game.to_act == [0, 1] and game.status == "active"


def test_start_rejects_bad_table():
    with pytest.raises(IllegalAction):
        services.start_game(kind="war", seats=SEATS[:1])
    with pytest.raises(KeyError):
        services.start_game(kind="chess", seats=SEATS)
    assert not Game.objects.exists()


def test_actions_are_logged_gapless():
    game = start()
    services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    services.submit_action(game_id=game.pk, seat=1, action={"type": "flip"}, seq=1)
    assert list(GameEvent.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    game.refresh_from_db()
    assert game.seq == 2 and game.last_actions == {"0": "flip", "1": "flip"}


def test_stale_seq_changes_nothing():
    game = start()
    services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    for bad in (0, 5, "1", None, True):
        with pytest.raises(services.StaleSeq) as err:
            services.submit_action(game_id=game.pk, seat=1, action={"type": "flip"}, seq=bad)
        assert err.value.seq == 1
    assert GameEvent.objects.count() == 1


@pytest.mark.parametrize(
    "seat, action, message",
    [
        (0, {"type": "flip"}, "already flipped"),
        (1, {"type": "dance"}, "no action"),
        (1, "flip", "must be an object"),
        (7, {"type": "flip"}, "no such seat"),
    ],
)
def test_illegal_action_writes_nothing(seat, action, message):
    game = start()
    services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    before = store.load_state(Game.objects.get(pk=game.pk))
    with pytest.raises(IllegalAction) as err:
        services.submit_action(game_id=game.pk, seat=seat, action=action, seq=1)
    assert message in err.value.message
    game.refresh_from_db()
    assert game.seq == 1 and GameEvent.objects.count() == 1
    assert store.load_state(game) == before


def test_state_rebuilds_from_the_log_without_the_cache():
    game = start()
    for seq, seat in enumerate([0, 1, 1, 0]):
        services.submit_action(game_id=game.pk, seat=seat, action={"type": "flip"}, seq=seq)
    game.refresh_from_db()
    cached = store.load_state(game)
    store.forget_states()
    assert store.load_state(game) == cached == store.replay(game)


def test_whole_game_log_json_and_verify(client, capsys):
    game = play_to_end(start("whole"))
    assert game.status == "over" and game.result["winners"] is not None
    log = client.get(f"/games/{game.pk}/log.json").json()
    assert log["seed"] == "whole" and log["players"] == 2 and len(log["actions"]) == game.seq
    # Anyone can re-run it with the engine alone.
    engine = registry.get(log["kind"])
    state = engine.new_game(players=log["players"], seed=log["seed"], rules=log["rules"])
    for a in log["actions"]:
        engine.apply(state, a["seat"], a["action"])
    assert engine.result(state) == log["result"]
    call_command("verify_game", game.pk)
    assert "verifies" in capsys.readouterr().out
    assert client.get(f"/games/{game.pk}/").status_code == 200


def test_log_and_replay_hidden_while_in_play(client):
    game = start()
    response = client.get(f"/games/{game.pk}/log.json")
    assert response.status_code == 403 and "s1" not in response.content.decode()
    assert response.json()["seed_sha256"] == game.seed_hash
    assert client.get(f"/games/{game.pk}/").status_code == 404


def test_verify_catches_tampering():
    game = play_to_end(start("tamper"))
    entry = GameEvent.objects.get(game=game, seq=3)
    entry.events = [{"type": "forged"}]
    entry.save()
    Game.objects.filter(pk=game.pk).update(seed_hash="0" * 64)
    problems = store.verify(Game.objects.get(pk=game.pk))
    assert any("SHA-256" in p for p in problems)
    assert any("Action 3" in p for p in problems)
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("verify_game", game.pk)


def test_race_on_the_same_seq_one_wins(real_services):
    game = start("race", seats=SEATS + [{"name": "Cy"}, {"name": "Di"}])
    answers = []
    barrier = threading.Barrier(8)

    def contender(seat):
        try:
            barrier.wait()
            services.submit_action(game_id=game.pk, seat=seat, action={"type": "flip"}, seq=0)
            answers.append("applied")
        except services.StaleSeq:
            answers.append("stale")
        except IllegalAction:
            answers.append("illegal")
        finally:
            connection.close()

    threads = [threading.Thread(target=contender, args=(i % 4,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == ["applied"] + ["stale"] * 7
    assert list(GameEvent.objects.filter(game=game).values_list("seq", flat=True)) == [1]
    game.refresh_from_db()
    assert game.seq == 1


def test_events_and_state_are_json():
    game = start()
    outcome = services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    assert json.loads(json.dumps(outcome.events)) == outcome.events


def test_rebase_applies_when_the_seats_choices_did_not_change():
    game = start("rebase", seats=SEATS + [{"name": "Cy"}])
    services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    # Seat 1 saw seq 0; seat 0's flip does not change what seat 1 may do.
    with pytest.raises(services.StaleSeq):
        services.submit_action(game_id=game.pk, seat=1, action={"type": "flip"}, seq=0)
    services.submit_action(game_id=game.pk, seat=1, action={"type": "flip"}, seq=0, rebase=True)
    # Seat 0 already flipped at seq 1: its choices changed, so its old seq stays stale.
    with pytest.raises(services.StaleSeq):
        services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0, rebase=True)
    with pytest.raises(services.StaleSeq):
        services.submit_action(game_id=game.pk, seat=2, action={"type": "flip"}, seq=9, rebase=True)
    assert GameEvent.objects.filter(game=game).count() == 2


# ---- an action applies at most once --------------------------------------------------------


def test_a_resent_flip_is_not_applied_in_the_next_round():
    game = start("resent")
    flip = {"type": "flip"}
    services.submit_action(game_id=game.pk, seat=0, action=flip, seq=0, rebase=True)
    services.submit_action(game_id=game.pk, seat=1, action=flip, seq=0, rebase=True)
    # The round is over (seq 2) and seat 0 may flip again, exactly as at seq 0: the same
    # message sent again is still the first round's flip.
    assert store.load_state(Game.objects.get(pk=game.pk))["round"] == 2
    with pytest.raises(services.StaleSeq):
        services.submit_action(game_id=game.pk, seat=0, action=flip, seq=0, rebase=True)
    assert GameEvent.objects.filter(game=game).count() == 2


def test_a_blackjack_bet_sent_twice_stays_in_its_round():
    """bj2/25: both bet 10, the dealer has blackjack at the deal, and the next round's
    betting opens at once, offering the same bets as before."""
    game = services.start_game(kind="blackjack", seats=SEATS, seed="bj2/25")
    bet = {"type": "bet", "amount": 10}
    services.submit_action(game_id=game.pk, seat=0, action=bet, seq=0, rebase=True)
    outcome = services.submit_action(game_id=game.pk, seat=1, action=bet, seq=0, rebase=True)
    assert any(e["type"] == "round_started" for e in outcome.events)
    with pytest.raises(services.StaleSeq):
        services.submit_action(game_id=game.pk, seat=0, action=bet, seq=0, rebase=True)
    assert GameEvent.objects.filter(game=game, seat=0).count() == 1


def test_an_action_id_is_applied_once_and_answered_the_same_every_time():
    game = start("ids")
    flip = {"type": "flip"}
    services.submit_action(game_id=game.pk, seat=0, action=flip, seq=0, action_id="a1")
    services.submit_action(game_id=game.pk, seat=1, action=flip, seq=1, action_id="a1")
    for seq in (0, 1, 2):  # a retry, whatever seq it carries
        with pytest.raises(services.AlreadyApplied) as done:
            services.submit_action(
                game_id=game.pk, seat=0, action=flip, seq=seq, rebase=True, action_id="a1"
            )
        assert done.value.seq == 1
    assert list(GameEvent.objects.filter(game=game).values_list("seat", "action_id")) == [
        (0, "a1"),
        (1, "a1"),  # ids belong to a seat: another seat may use the same one
    ]


def test_the_log_keeps_the_action_as_the_engine_read_it():
    game = start("canonical")
    services.submit_action(
        game_id=game.pk, seat=0, action={"type": "flip", "card": "AS", "note": "x" * 50}, seq=0
    )
    assert GameEvent.objects.get(game=game).action == {"type": "flip"}


def test_speed_play_sets_the_computer_players_pause(settings):
    settings.BOT_DELAY = 1.0
    game = start("speed")
    assert game.speed_play == "normal" and moves.bot_delay(game) == 1.0
    game = services.set_speed_play(game_id=game.pk, speed="fast")
    assert moves.bot_delay(game) == 0.25
    game = services.set_speed_play(game_id=game.pk, speed="instant")
    assert moves.bot_delay(Game.objects.get(pk=game.pk)) == 0.0
    with pytest.raises(IllegalAction):
        services.set_speed_play(game_id=game.pk, speed="ludicrous")


# ---- a move without the lock ----------------------------------------------------------------


def test_a_move_on_the_row_this_process_wrote_is_one_statement(real_services):
    game = start("one")
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    assert len(queries) == 1 and "FOR UPDATE" not in queries[0]["sql"]
    game.refresh_from_db()
    assert game.seq == 1 and game.last_actions == {"0": "flip"}
    assert list(GameEvent.objects.filter(game=game).values_list("seq", "seat")) == [(1, 0)]


def test_a_row_changed_elsewhere_is_moved_under_the_lock_and_keeps_the_change():
    """Another process (a worker giving seat 1 to the computer) changed the row after this
    one last wrote it: the move must not overwrite that, and must see it (its computer
    player is then scheduled)."""
    game = start("elsewhere")
    seats = [SEATS[0], {**SEATS[1], "bot": True}]
    Game.objects.filter(pk=game.pk).update(seats=seats, updated=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        outcome = services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    assert any("FOR UPDATE" in q["sql"] for q in queries)
    assert outcome.game.seq == 1 and outcome.game.seats == seats
    game.refresh_from_db()
    assert game.seq == 1 and game.seats == seats
    assert GameEvent.objects.filter(game=game).count() == 1
    # The row the lock read is now this process's: the next move needs no lock again.
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(game_id=game.pk, seat=1, action={"type": "flip"}, seq=1)
    assert len(queries) == 1


def test_a_row_read_here_lets_the_next_move_skip_the_lock():
    """A computer player's move written by a worker reaches the table's process as a row it
    reads for the view; remembered, it is where that process's next move starts."""
    game = start("read")
    Game.objects.filter(pk=game.pk).update(speed_play="fast", updated=timezone.now())
    store.remember_row(Game.objects.get(pk=game.pk))
    with CaptureQueriesContext(connection) as queries:
        outcome = services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    assert len(queries) == 1 and outcome.game.speed_play == "fast"
    # An older row read later (a slow reader) does not replace the newer one.
    store.remember_row(Game.objects.get(pk=game.pk))
    stale = Game.objects.get(pk=game.pk)
    stale.seq = 0
    store.remember_row(stale)
    assert store.latest_row(game.pk, 1) is not None


def test_a_game_abandoned_elsewhere_takes_no_move():
    game = start("abandoned")
    services.abandon_game(game_id=game.pk)  # as another process would: the row only
    with pytest.raises(IllegalAction, match="The game is over"):
        services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    game.refresh_from_db()
    assert game.seq == 0 and game.status == "abandoned" and not GameEvent.objects.exists()


def test_moves_written_elsewhere_meanwhile_are_not_overwritten():
    """Another process moved the game on (seq 1) after this one last wrote it (seq 0): a flip
    sent at seq 0 is either rebased or stale, never written as a second action 1."""
    game = start("moved-on", seats=SEATS + [{"name": "Cy"}])
    GameEvent.objects.create(game=game, seq=1, seat=0, action={"type": "flip"}, events=[])
    Game.objects.filter(pk=game.pk).update(
        seq=1, to_act=[1, 2], last_actions={"0": "flip"}, updated=timezone.now()
    )
    store.forget_states()  # the other process's state is rebuilt from the log
    with pytest.raises(services.StaleSeq):
        services.submit_action(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0)
    outcome = services.submit_action(
        game_id=game.pk, seat=1, action={"type": "flip"}, seq=0, rebase=True
    )
    assert outcome.game.seq == 2
    assert list(GameEvent.objects.filter(game=game).values_list("seq", "seat")) == [
        (1, 0),
        (2, 1),
    ]
    game.refresh_from_db()
    assert game.seq == 2 and game.last_actions == {"0": "flip", "1": "flip"}


def test_two_seats_flipping_at_once_are_both_applied_once(real_services):
    """Both seats of a table flip against the same state from two threads, again and again:
    every flip is applied once, the log has no gap, and the row ends where the log does."""
    game = start("both")
    barrier = threading.Barrier(2)
    errors = []

    def seat(n):
        try:
            for _ in range(30):
                barrier.wait()
                seq = Game.objects.get(pk=game.pk).seq
                try:
                    services.submit_action(
                        game_id=game.pk, seat=n, action={"type": "flip"}, seq=seq, rebase=True
                    )
                except (services.StaleSeq, IllegalAction):
                    pass  # the round moved on under this seat (a war): the next try catches up
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=seat, args=(n,)) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    game.refresh_from_db()
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 1)) and game.seq >= 30
    assert store.verify(game) == []
