"""Computer players on Celery, at a human pace, idempotent by `seq`."""

from __future__ import annotations

import asyncio
import logging
import threading
from datetime import timedelta

from asgiref.sync import SyncToAsync, async_to_sync, sync_to_async
from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import services
from .engine import IllegalAction, registry
from .models import Game

log = logging.getLogger(__name__)

STALL_AFTER = timedelta(seconds=15)


def play_bot_turn(game_id: int, seq: int) -> int:
    """Play every computer seat awaited at `seq`. Does nothing if the game moved on.
    Returns the number of actions played."""
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        return 0
    if game.seq != seq or game.is_over:
        return 0
    engine = registry.get(game.kind)
    state = services.load_state(game)
    played = 0
    # A simultaneous stage (War flips, Blackjack bets) may await several bots at once.
    for seat in engine.to_act(state):
        if seat not in game.bot_seats() or seat not in engine.to_act(state):
            continue
        action = engine.bot_action(state, seat)
        try:
            outcome = services.submit_action(
                game_id=game_id, seat=seat, action=action, seq=seq + played, by_bot=True
            )
        except (services.StaleSeq, IllegalAction) as exc:  # someone else moved first
            log.info("bot turn for game %s at seq %s stopped: %s", game_id, seq, exc)
            break
        state, game = outcome.state, outcome.game
        played += 1
        if game.is_over:
            break
    return played


@shared_task(name="gameplay.bot_turn", acks_late=True, ignore_result=True)
def bot_turn(game_id: int, seq: int) -> int:
    return play_bot_turn(game_id, seq)


def schedule_bot_turn(game_id: int, seq: int, delay: float | None = None) -> None:
    """Play the computer seats of `game_id` at `seq` after a human pace."""
    delay = settings.BOT_DELAY if delay is None else delay
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        bot_turn.apply_async((game_id, seq), countdown=delay)
        return
    # Embedded (no broker): eager tasks ignore countdowns, so keep the pace on the server's
    # own event loop. Inside daphne, sync code runs in threads that can reach that loop.
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is None:
        _play_now(game_id, seq)  # no event loop (a command or a test): play at once
        return
    async_to_sync(_call_later)(delay, game_id, seq)


_inline = threading.local()


def _play_now(game_id: int, seq: int) -> None:
    """Play bot turns one after another, not nested (a bots-only game would recurse)."""
    queue = getattr(_inline, "queue", None)
    if queue is not None:
        queue.append((game_id, seq))
        return
    _inline.queue = [(game_id, seq)]
    try:
        while _inline.queue:
            play_bot_turn(*_inline.queue.pop(0))
    finally:
        _inline.queue = None


async def _call_later(delay: float, game_id: int, seq: int) -> None:
    loop = asyncio.get_running_loop()
    loop.call_later(delay, lambda: loop.create_task(sync_to_async(play_bot_turn)(game_id, seq)))


@shared_task(name="gameplay.sweep_stalled_games", ignore_result=True)
def sweep_stalled_games() -> int:
    """Re-send turns for games where a computer player should have moved and nothing
    happened (a worker died), so no table stalls. Returns how many were re-sent."""
    stale = Game.objects.filter(status=Game.Status.ACTIVE, updated__lt=timezone.now() - STALL_AFTER)
    sent = 0
    for game in stale.only("id", "seq", "seats", "to_act", "status"):
        if set(game.to_act) & set(game.bot_seats()):
            bot_turn.apply_async((game.pk, game.seq))
            sent += 1
    return sent
