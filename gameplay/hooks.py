"""The end-of-game hook: stats, ratings and Kudos hear about every ended game exactly once.

Apps register receivers by name (``@on_game_end("ratings")``) from their ``AppConfig.ready``;
gameplay imports none of them. A receiver that reads what others write names them
(``@on_game_end("badges", after=("stats", "ratings"))``): it runs after them, and waits for
the sweep while one of them has not run for the game. ``deliver`` runs each receiver that has no receipt for the game
yet, with the receipt in the same transaction, so a receiver's work and its receipt commit
together or not at all: a retried task, two workers or the sweep never count a game twice. The
receivers of a game first run in one transaction (one commit for all); when one fails, each
runs in a transaction of its own, so one failing receiver neither blocks nor undoes the
others. A receiver that holds a lock other games wait for until its transaction ends
(``alone``: the ratings' lock on a game's kind) keeps the whole game's receivers to
transactions of their own, so the others' work never holds that lock longer.

A receiver may say from the game row alone when it has nothing to do (``idle``: a game no one's
play counts in, an unranked game for the ratings): it is not run, and the receipts of every
such receiver are written in one statement, so a game costs the round trips of the receivers
that work.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.utils import timezone

from .models import Game, GameEndReceipt

log = logging.getLogger(__name__)

Receiver = Callable[[Game], None]
RECEIVERS: dict[str, Receiver] = {}
AFTER: dict[str, tuple[str, ...]] = {}  # name -> the receivers it runs after
IDLE: dict[str, Callable[[Game], bool]] = {}  # name -> "nothing to do for this game"
ALONE: set[str] = set()  # receivers whose transaction no other receiver shares

# How far back the sweep looks for games whose receivers have not all run.
SWEEP_WINDOW = timedelta(days=7)


def on_game_end(
    name: str,
    *,
    after: tuple[str, ...] = (),
    idle: Callable[[Game], bool] | None = None,
    alone: bool = False,
) -> Callable[[Receiver], Receiver]:
    """Register ``receiver(game)`` under ``name`` (the receipt's key: keep it stable), to run
    after the receivers named in ``after``. ``idle(game)``, true when the receiver would do
    nothing for the ended game, must read nothing but the game row (and its log, through
    ``gameplay.play``). ``alone``: it takes a lock many games wait for, held to the end of
    its transaction, which it then shares with no other receiver."""

    def register(receiver: Receiver) -> Receiver:
        RECEIVERS[name] = receiver
        AFTER[name] = after
        (ALONE.add if alone else ALONE.discard)(name)
        if idle is None:
            IDLE.pop(name, None)
        else:
            IDLE[name] = idle
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
    have. Returns the names that ran (an idle one included)."""
    game, done = _ended_game(game_id)
    if game is None:
        return []
    ran, idle = [], []
    for name in in_order():
        waits = set(AFTER.get(name, ())) - done - set(idle)
        if name not in done and name in IDLE and not waits and IDLE[name](game):
            idle.append(name)
    due = [name for name in in_order() if name not in done]
    working = [name for name in due if name not in idle]
    if working and not ALONE.intersection(working) and _all_at_once(game, due, working):
        return idle + working
    if idle:
        # Nothing to undo if this fails half way: each receipt only says "nothing to do".
        ran += _receipts(game_id, idle)
        done.update(ran)
    for name in in_order():
        if name in done:
            continue
        if not set(AFTER.get(name, ())) <= done:
            continue  # one it waits for failed: the sweep delivers both later
        try:
            with transaction.atomic():
                if not _receipts(game_id, [name], lock=True):
                    continue  # ran before (or is running in another worker, which finishes it)
                RECEIVERS[name](game)
        except Exception:
            log.exception("end-of-game receiver %s failed for game %s", name, game_id)
            continue
        ran.append(name)
        done.add(name)
    return ran


def _all_at_once(game: Game, due: list[str], working: list[str]) -> bool:
    """Every receipt and every working receiver's work in one transaction, in order: one
    commit where each receiver alone costs one of its own. False, with nothing written, when
    a receiver fails or another worker has begun this game: then each goes alone."""
    try:
        with transaction.atomic():
            if len(_receipts(game.pk, due, lock=True)) < len(due):
                raise _Begun
            for name in working:
                RECEIVERS[name](game)
    except Exception:  # each alone now, where a failure is logged and leaves the others be
        return False
    return True


class _Begun(Exception):
    """Another worker delivers part of this game."""


def _ended_game(game_id: int) -> tuple[Game | None, set[str]]:
    """The ended game (None when it is not) and its receivers that have run, in one query.
    Once a game is over its row no longer changes, so every receiver is given this one."""
    if connection.vendor != "postgresql":  # embedded (SQLite): two queries
        game = Game.objects.filter(pk=game_id).first()
        if game is None or not game.is_over:
            return None, set()
        return game, set(game.receipts.values_list("receiver", flat=True))
    receipts = _quote(GameEndReceipt._meta.db_table)
    sql = (
        f"SELECT g.*, ARRAY(SELECT r.receiver FROM {receipts} r WHERE r.game_id = g.id) "
        f"AS hook_done FROM {_quote(Game._meta.db_table)} g WHERE g.id = %s"
    )
    for game in Game.objects.raw(sql, [game_id]):
        if not game.is_over:
            return None, set()
        return game, set(game.hook_done)
    return None, set()


def _receipts(game_id: int, names: list[str], *, lock: bool = False) -> list[str]:
    """Write the receipts of ``names`` for the game that have none yet, in one statement;
    with ``lock``, holding the game's row until the transaction ends (as a receiver's work
    does). Returns the names whose receipts this wrote."""
    if connection.vendor != "postgresql":  # embedded (SQLite): writes queue anyway
        if not Game.objects.filter(pk=game_id).exclude(status=Game.Status.ACTIVE).exists():
            return []
        written = []
        for name in names:
            try:
                with transaction.atomic():
                    GameEndReceipt.objects.create(game_id=game_id, receiver=name)
            except IntegrityError:
                continue
            written.append(name)
        return written
    lock_sql = " FOR UPDATE" if lock else ""
    sql = (
        f"WITH g AS (SELECT id FROM {_quote(Game._meta.db_table)} WHERE id = %s"
        f" AND status <> %s{lock_sql}) "
        f"INSERT INTO {_quote(GameEndReceipt._meta.db_table)} (game_id, receiver, created) "
        "SELECT g.id, n.name, now() FROM g, unnest(%s::varchar[]) AS n(name) "
        "ON CONFLICT DO NOTHING RETURNING receiver"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, Game.Status.ACTIVE, names])
        return [row[0] for row in cursor.fetchall()]


_quote = connection.ops.quote_name


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
