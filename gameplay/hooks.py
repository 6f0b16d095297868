"""The end-of-game hook: stats, ratings and Kudos hear about every ended game exactly once.

Apps register receivers by name (``@on_game_end("ratings")``) from their ``AppConfig.ready``;
gameplay imports none of them. A receiver that reads what others write names them
(``@on_game_end("badges", after=("stats", "ratings"))``): it runs after them, and waits for
the sweep while one of them has not run for the game. ``deliver`` runs each receiver that has no receipt for the game
yet, in a transaction of its own that also writes the receipt, so a receiver's work and its
receipt commit together or not at all: a retried task, two workers or the sweep never count a
game twice, and one failing receiver neither blocks nor undoes the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from .models import Game, GameEndReceipt

log = logging.getLogger(__name__)

Receiver = Callable[[Game], None]
RECEIVERS: dict[str, Receiver] = {}
AFTER: dict[str, tuple[str, ...]] = {}  # name -> the receivers it runs after

# How far back the sweep looks for games whose receivers have not all run.
SWEEP_WINDOW = timedelta(days=7)


def on_game_end(name: str, *, after: tuple[str, ...] = ()) -> Callable[[Receiver], Receiver]:
    """Register ``receiver(game)`` under ``name`` (the receipt's key: keep it stable), to run
    after the receivers named in ``after``."""

    def register(receiver: Receiver) -> Receiver:
        RECEIVERS[name] = receiver
        AFTER[name] = after
        return receiver

    return register


def in_order() -> list[str]:
    """The receivers' names, each after those it runs after (else as registered)."""
    ordered: list[str] = []

    def place(name: str, path: tuple[str, ...] = ()) -> None:
        if name in ordered or name not in RECEIVERS:
            return
        if name in path:
            raise ValueError(f"end-of-game receivers wait for each other: {path + (name,)}")
        for first in AFTER.get(name, ()):
            place(first, path + (name,))
        ordered.append(name)

    for name in RECEIVERS:
        place(name)
    return ordered


def deliver(game_id: int) -> list[str]:
    """Run every receiver that has not run for this ended game, each once those it runs after
    have. Returns the names that ran."""
    ran = []
    done = set(GameEndReceipt.objects.filter(game_id=game_id).values_list("receiver", flat=True))
    for name in in_order():
        if name in done:
            continue
        if not set(AFTER.get(name, ())) <= done:
            continue  # one it waits for failed: the sweep delivers both later
        receiver = RECEIVERS[name]
        try:
            with transaction.atomic():
                game = Game.objects.select_for_update().get(pk=game_id)
                if not game.is_over:
                    return ran
                GameEndReceipt.objects.create(game=game, receiver=name)
                receiver(game)
        except IntegrityError:
            continue  # ran before (or is running in another worker, which will finish it)
        except Game.DoesNotExist:
            return ran
        except Exception:
            log.exception("end-of-game receiver %s failed for game %s", name, game_id)
            continue
        ran.append(name)
        done.add(name)
    return ran


def undelivered(now=None) -> list[int]:
    """Ended games (within the sweep window) that some receiver has not run for."""
    now = now or timezone.now()
    return list(
        Game.objects.exclude(status=Game.Status.ACTIVE)
        .filter(ended__gte=now - SWEEP_WINDOW)
        .annotate(delivered=Count("receipts"))
        .filter(delivered__lt=len(RECEIVERS))
        .values_list("pk", flat=True)
    )
