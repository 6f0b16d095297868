"""The end-of-game hook: stats, ratings and Kudos hear about every ended game exactly once.

Apps register receivers by name (``@on_game_end("ratings")``) from their ``AppConfig.ready``;
gameplay imports none of them. ``deliver`` runs each receiver that has no receipt for the game
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

# How far back the sweep looks for games whose receivers have not all run.
SWEEP_WINDOW = timedelta(days=7)


def on_game_end(name: str) -> Callable[[Receiver], Receiver]:
    """Register ``receiver(game)`` under ``name`` (the receipt's key: keep it stable)."""

    def register(receiver: Receiver) -> Receiver:
        RECEIVERS[name] = receiver
        return receiver

    return register


def deliver(game_id: int) -> list[str]:
    """Run every receiver that has not run for this ended game. Returns the names that ran."""
    ran = []
    for name, receiver in RECEIVERS.items():
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
