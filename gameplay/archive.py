"""Finished games' logs leave the hot table: each game's GameEvent rows become one compressed
ArchivedLog row. Replays, log.json and verify_game read the log through `entries`, wherever it
lives, so an archived game still replays and verifies exactly as before.

GameEvent is the table every action writes and every move's queries read (by game and seq, or
by game, seat and action id); keeping only live and recent games in it keeps those indexes
small. `python manage.py archive_games --days 30` moves games that ended over 30 days ago."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .models import ArchivedLog, Game, GameEvent

# An archived row is these fields in this order; rows archived before "to_act" have one less.
FIELDS = ("seq", "seat", "action", "events", "by_bot", "action_id", "created", "to_act")


@dataclass(frozen=True)
class Entry:
    """One logged action, as GameEvent has it."""

    seq: int
    seat: int
    action: dict[str, Any]
    events: list[Any]
    by_bot: bool
    action_id: str
    created: Any
    to_act: Any = None  # when the seat was asked for it (None in older logs)


def entries(game: Game, upto: int | None = None) -> list[Entry]:
    """The game's log in seq order (to `upto`), from GameEvent or from its archive."""
    rows = game.log.order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    found = [Entry(*row) for row in rows.values_list(*FIELDS)]
    if found or game.seq == 0 or not game.is_over:
        return found
    archived = ArchivedLog.objects.filter(game=game).values_list("data", flat=True).first()
    if archived is None:
        return []
    return [
        Entry(*row[:6], parse_datetime(row[6]), _moment(row[7] if len(row) > 7 else None))
        for row in json.loads(zlib.decompress(bytes(archived)))
        if upto is None or row[0] <= upto
    ]


def _moment(text: str | None):
    return parse_datetime(text) if text else None


def archive_game(game_id: int) -> int:
    """Move one finished game's log into its archive row. Returns the actions moved (0 if
    the game is in play or already archived)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if not game.is_over or ArchivedLog.objects.filter(game=game).exists():
            return 0
        data, actions = packed(game)
        if not actions:
            return 0
        ArchivedLog.objects.create(game=game, data=data, actions=actions)
        GameEvent.objects.filter(game=game).delete()
    return actions


def packed(game: Game) -> tuple[bytes, int]:
    """The game's GameEvent rows as an archive row's data, and how many there are."""
    rows = [
        [*row[:6], row[6].isoformat(), row[7].isoformat() if row[7] else None]
        for row in game.log.order_by("seq").values_list(*FIELDS)
    ]
    return zlib.compress(json.dumps(rows, separators=(",", ":")).encode(), 9), len(rows)


def archive_ended(days: float, limit: int = 10_000) -> tuple[int, int]:
    """Archive games that ended over `days` days ago (at most `limit`).
    Returns (games, actions) moved."""
    cutoff = timezone.now() - timedelta(days=days)
    ids = (
        Game.objects.filter(ended__lt=cutoff, archivedlog__isnull=True)
        .exclude(status=Game.Status.ACTIVE)
        .order_by("ended")
        .values_list("pk", flat=True)[:limit]
    )
    games = actions = 0
    for game_id in list(ids):
        moved = archive_game(game_id)
        games, actions = games + bool(moved), actions + moved
    return games, actions
