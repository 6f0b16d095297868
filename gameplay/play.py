"""What counts as play: the one definition everything that rewards playing reads (Kudos and
experience, streak days, badges, referral progress, the weekly board, stats' "played").

A seat's game counts when the game reached its end with the person still in the seat and they
played it: at least the engine's ``real_game.decisions`` of their own choices (a computer's
move, a turn the timer played and a resign are none), or for a game without choices (War) its
natural end with the person flipping at the table; and at least ``real_game.least_seconds`` of
credited time either way. A person who leaves hands the seat to a computer (lobby), so a seat
still the person's at the end was played by them.

Credited time is what pays: each decision credits the seconds since the seat was asked to act
(``GameEvent.to_act``), at most ``THINK_CAP``, so a script that resigns at once or moves every
millisecond earns next to nothing, and a person earns by the minute. ``spans`` are the credited
stretches of time, so time played at several tables at once is paid once (kudos.services).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from . import archive
from .engine import registry
from .engine.text import say, say_n
from .models import Game

THINK_CAP = timedelta(seconds=30)  # the most one decision credits
NOT_DECISIONS = frozenset({"resign"})  # actions that are no play of the game

Span = tuple[datetime, datetime]


@dataclass(frozen=True)
class Play:
    """One seat's part in a finished game."""

    counted: bool
    decisions: int
    seconds: int  # credited play, in whole seconds
    reason: str  # why it counts or not, as a sentence
    spans: tuple[Span, ...] = field(default=(), repr=False)


def of_game(game: Game) -> dict[int, Play]:
    """Each seat's Play in ``game`` (every seat; a seat with no person never counts). Kept on
    the game object for its state: the end-of-game receivers share one read of the log."""
    key = (game.status, game.seq, game.ended)
    kept = getattr(game, "_plays", None)
    if kept is not None and kept[0] == key:
        return kept[1]
    plays = _of_game(game)
    game._plays = (key, plays)
    return plays


def counted(game: Game) -> bool:
    """Whether the game counts as play for anyone (nothing rewards it otherwise)."""
    return any(p.counted for p in of_game(game).values())


def _of_game(game: Game) -> dict[int, Play]:
    try:
        real = registry.get(game.kind).real_game
    except KeyError:
        return {
            s: Play(False, 0, 0, say("This game is no longer played here.")) for s in _seats(game)
        }
    log = archive.entries(game) if game.seq else []
    decisions = dict.fromkeys(_seats(game), 0)
    spans: dict[int, list[Span]] = {s: [] for s in _seats(game)}
    asked = game.created
    for entry in log:
        # Older logs have no to_act: the previous action's time is when the seat was asked.
        start, asked = entry.to_act or asked, entry.created
        if entry.by_bot or entry.action.get("type") in NOT_DECISIONS or entry.seat not in spans:
            continue
        decisions[entry.seat] += 1
        start = max(start, entry.created - THINK_CAP)
        if entry.created > start:
            spans[entry.seat].append((start, entry.created))
    resigned = bool(log) and log[-1].action.get("type") in NOT_DECISIONS
    plays = {}
    for seat, info in enumerate(game.seats):
        mine = tuple(spans[seat])
        seconds = int(sum((end - start).total_seconds() for start, end in mine))
        reason = _why_not(game, info, real, decisions[seat], seconds, resigned)
        plays[seat] = Play(reason is None, decisions[seat], seconds, reason or say("Played."), mine)
    return plays


def _seats(game: Game) -> range:
    return range(len(game.seats))


def _why_not(
    game: Game, info: dict, real, decisions: int, seconds: int, resigned: bool
) -> str | None:
    """Why this seat's game doesn't count (a sentence), or None when it does."""
    if game.status != Game.Status.OVER:
        return say("The game was abandoned.")
    if not info.get("user_id"):
        return say("Nobody signed in held this seat.")
    if info.get("bot") or info.get("left"):
        return say("The player left before the end: a computer finished the game.")
    if real.natural_end and resigned:
        return say("The game was resigned before its end.")
    if decisions < real.decisions:
        return say_n(
            "A real game takes at least {n} of your own decisions.",
            "A real game takes at least {n} of your own decisions.",
            real.decisions,
        )
    if seconds < real.least_seconds:
        return say("The moves came faster than anyone plays.")
    return None
