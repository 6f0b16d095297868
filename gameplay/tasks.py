"""Computer players on Celery, at a human pace, idempotent by `seq`."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from infra import metrics
from infra.scheduling import RETRY_AFTER, run_later

from . import hooks, moves, services, store
from .engine import IllegalAction, registry
from .models import Game

log = logging.getLogger(__name__)

STALL_AFTER = timedelta(seconds=15)


def play_for_seats(game_id: int, seq: int, *, people_too: bool = False) -> int:
    """Let the computer play every awaited computer seat at `seq` (and, when a turn timer ran
    out, the awaited people's seats too). Does nothing if the game moved on.
    Returns the number of actions played."""
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        return 0
    if game.seq != seq or game.is_over:
        return 0
    store.remember_row(game)  # the first move starts from it, with no lock (services._submit)
    engine = registry.get(game.kind)
    state = store.load_state(game)
    due = game.updated.timestamp() + (0 if people_too else moves.bot_delay(game))
    played = 0
    # A simultaneous stage (War flips, Blackjack bets) may await several seats at once.
    for seat in engine.to_act(state):
        if not (people_too or seat in game.bot_seats()) or seat not in engine.to_act(state):
            continue
        action = engine.bot_action(state, seat, game.strength(seat))
        started = time.perf_counter()
        try:
            outcome = services.submit_action(
                game_id=game_id,
                seat=seat,
                action=action,
                seq=seq + played,
                by_bot=True,
                timer=people_too,
            )
        except (services.StaleSeq, IllegalAction) as exc:  # someone else moved first
            log.info("computer turn for game %s at seq %s stopped: %s", game_id, seq, exc)
            break
        state, game = outcome.state, outcome.game
        if not played and not people_too:
            metrics.computer_moved(game=game, due=due)
        metrics.action_done(game=game, seat=seat, started=started, by="computer")
        played += 1
        if game.is_over:
            break
    return played


# A computer turn that fails (the database busy or restarting, a lost connection) is tried
# again after infra.scheduling's RETRY_AFTER pauses; past them, the stalled-game sweep keeps
# re-sending it every few seconds (beat's schedule) for as long as the game stalls. A turn is
# never dropped.


@shared_task(name="gameplay.play_out", acks_late=True, ignore_result=True)
def play_out(game_id: int) -> int:
    """Everyone left: the computer plays the game to its end at once."""
    return services.play_out(game_id=game_id)


@shared_task(name="gameplay.bot_turn", bind=True, acks_late=True, ignore_result=True)
def bot_turn(self, game_id: int, seq: int) -> int:
    try:
        return play_for_seats(game_id, seq)
    except Exception as exc:
        raise _retry(self, exc) from exc


@shared_task(name="gameplay.turn_timeout", bind=True, acks_late=True, ignore_result=True)
def turn_timeout(self, game_id: int, seq: int) -> int:
    """The turn timer ran out: the computer plays this turn for whoever is awaited."""
    try:
        return play_for_seats(game_id, seq, people_too=True)
    except Exception as exc:
        raise _retry(self, exc) from exc


def _retry(task, exc: Exception) -> Exception:
    """On a worker: the retry Celery raises. Called directly (embedded, or a test): the
    error itself, which run_later's own retry handles."""
    attempt = task.request.retries
    if task.request.called_directly or attempt >= len(RETRY_AFTER):
        return exc
    return task.retry(exc=exc, countdown=RETRY_AFTER[attempt], max_retries=len(RETRY_AFTER))


@shared_task(name="gameplay.sweep_stalled_games", ignore_result=True)
def sweep_stalled_games() -> int:
    """Re-send turns for games where a computer player should have moved and nothing
    happened (a worker died, a turn failed past its retries), and timers that were lost,
    so no table stalls."""
    now = timezone.now()
    stale = Game.objects.filter(status=Game.Status.ACTIVE, updated__lt=now - STALL_AFTER)
    sent = 0
    for game in stale.only("id", "seq", "seats", "to_act", "status", "turn_timer", "updated"):
        if set(game.to_act) & set(game.bot_seats()):
            run_later("gameplay.bot_turn", game.pk, game.seq, delay=0)
            sent += 1
        elif (
            game.to_act
            and game.turn_timer
            and game.updated < now - timedelta(seconds=game.turn_timer) - STALL_AFTER
        ):
            run_later("gameplay.turn_timeout", game.pk, game.seq, delay=0)
            sent += 1
    return sent


@shared_task(name="gameplay.deliver_game_end", acks_late=True, ignore_result=True)
def deliver_game_end(game_id: int) -> list[str]:
    return hooks.deliver(game_id)


@shared_task(name="gameplay.sweep_game_ends", ignore_result=True)
def sweep_game_ends() -> int:
    """Re-send the end-of-game hook where a receiver has not run (a lost task, a failure)."""
    games = hooks.undelivered()
    for game_id in games:
        deliver_game_end.apply_async((game_id,))
    return len(games)
