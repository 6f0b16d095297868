"""A move, from the socket to the broadcast: check, apply, one statement, cache, news, and what
follows (a computer's turn, a turn timer, a game's end). One path for every move; where it runs
is chosen once, in ``submit_from_loop``:

- **on the event loop**, with no thread, for the common move: a person's, sent against the
  row and the state this process holds as the latest, on PostgreSQL. It is worked out in memory
  and written in one statement on the loop's own connection, which applies it only if the row
  is unchanged;
- **on a thread** (``submit``) for anything else: a computer's move, another seq, a move that
  may be refused on what may be an old row, the row moved on, the database failing. There it is
  written the same way from the row this process last saw, or decided under the row's lock.

Either way the state is kept here and shared before the news goes out, so every process that
hears of seq N can render it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.utils import timezone

from infra import news
from infra.scheduling import on_thread, run_later

from . import store
from .engine import IllegalAction, registry
from .engine.text import say
from .models import Game, SpeedPlay

log = logging.getLogger(__name__)

MAX_ACTION_ID = 64  # characters of a client's action id


class StaleSeq(Exception):
    """The client acted on an old state. `seq` is the current one."""

    message = say("The table moved on before your action arrived. Here is the current state.")

    def __init__(self, seq: int):
        super().__init__(self.message)
        self.seq = seq


class AlreadyApplied(Exception):
    """This seat's action with this client id was applied before, as action `seq`."""

    def __init__(self, seq: int):
        super().__init__(say("Already applied as action {seq}.", seq=seq))
        self.seq = seq


@dataclass(frozen=True)
class Move:
    """One seat's action, sent after seeing state `seq`."""

    game_id: int
    seat: int
    action: Any
    seq: int
    action_id: str = ""  # the client's own id: an action with it is never applied twice
    by_bot: bool = False  # a computer player's
    # The computer plays a person's turn because the turn timer ran out (by_bot too): any
    # other computer move is only for a seat the computer holds.
    timer: bool = False
    # Against an older seq, it still applies if this seat has not acted since and its choices
    # are the same now as then (another seat's simultaneous flip or bet came first).
    rebase: bool = False
    # The socket that sent it, which shows the result itself: the table's news skips it.
    shown_by: str = ""


@dataclass
class Outcome:
    game: Game
    state: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Worked:
    """A move checked and applied in memory: the new state, its events, its statements."""

    state: dict[str, Any]
    events: list[dict[str, Any]]
    statements: list


def group_name(game_id: int) -> str:
    """The sockets at a game's table, which hear "game.update" with each new seq."""
    return f"game_{game_id}"


# ---- where a move runs ----------------------------------------------------------------------------


async def submit_from_loop(move: Move) -> Outcome:
    """Apply `move` from the event loop: there if it is the common move, else on a thread."""
    outcome = await on_loop(move)
    return outcome if outcome is not None else await on_thread(submit)(move)


def submit(move: Move) -> Outcome:
    """Apply `move` (any thread; no event loop of the caller's waits on it).

    Raises StaleSeq when the game moved on, IllegalAction when the rules say no (nothing is
    written in either case), AlreadyApplied when this seat's action `action_id` is already in
    the log, Game.DoesNotExist for an unknown game."""
    try:
        return _written(move)
    except (IntegrityError, IllegalAction):
        # A retry sent against the current state (the first try applied, its answer lost) is
        # refused by the rules or by the log's unique (game, seat, action id): answered like
        # any other retry.
        done = store.applied_as(move.game_id, move.seat, move.action_id)
        if done is None:
            raise
        raise AlreadyApplied(done) from None


async def on_loop(move: Move) -> Outcome | None:
    """The common move, written on the loop; None when it needs a thread."""
    known = store.known_row(move.game_id)
    if known is None or move.seq != known.seq or move.by_bot:
        return None
    held = store.kept_state(known)
    if held is None:
        return None
    worked = _work_out_unlocked(known, lambda: held, move)
    if worked is None or not await store.write_on_loop(worked.statements):
        return None
    store.remember_row(known)
    key, text = store.keep_state(known, worked.state)
    _start(_publish(known, key, text, what_next(known, worked.state), move.shown_by))
    return Outcome(game=known, state=worked.state, events=worked.events)


def _written(move: Move) -> Outcome:
    # In a transaction of the caller's, the move takes the locked path (which keeps its savepoints).
    known = None if connection.in_atomic_block else store.known_row(move.game_id)
    if known is not None:
        # The row as this process last saw it, most likely still the latest: the move is
        # written in one statement that applies only if the row is unchanged, with no lock
        # held meanwhile. Anything else is decided under the lock below.
        worked = _work_out_unlocked(known, lambda: store.load_state(known), move)
        if worked is not None and store.write(worked.statements):
            transaction.on_commit(lambda: after_commit(known, worked.state))
            return Outcome(game=known, state=worked.state, events=worked.events)
    with transaction.atomic():
        game = store.locked_game(move.game_id)
        worked = _work_out(game, lambda: store.load_state(game), move, locked=True)
        store.write(worked.statements)
        transaction.on_commit(lambda: after_commit(game, worked.state))
    return Outcome(game=game, state=worked.state, events=worked.events)


# ---- checking and applying ------------------------------------------------------------------------


def _work_out_unlocked(game: Game, state_of: Callable[[], dict], move: Move) -> Worked | None:
    """The move on a row that may be old: None where a refusal must be decided on the locked
    row (it may be the row that is stale, not the move)."""
    try:
        return _work_out(game, state_of, move, locked=False)
    except (StaleSeq, IllegalAction):
        return None


def _work_out(game: Game, state_of: Callable[[], dict], move: Move, *, locked: bool) -> Worked:
    """Check and apply the move on `game` and its state (`state_of()`, read only once the
    checks that need no state pass), moving the row on in memory. Raises as submit does.
    Needs no query for a move sent against the row's own seq. Unlocked, the statement writes
    only if the row is still as `game` has it."""
    seq = move.seq
    # A retry usually carries the state it was first sent against: look it up then. One sent
    # against the current state is left to the log's unique constraint (a move costs no
    # extra query).
    if move.action_id and seq != game.seq:
        done = store.applied_as(game.pk, move.seat, move.action_id)
        if done is not None:
            raise AlreadyApplied(done)
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= game.seq:
        raise StaleSeq(game.seq)
    if game.is_over:
        raise IllegalAction(say("The game is over."))
    if move.by_bot and not move.timer and move.seat not in game.bot_seats():
        # Its person took the seat back after the computer read the table: giving a seat back
        # moves no seq, so only the row's seats tell that the move is no longer the computer's.
        raise IllegalAction(say("This seat is its player's again."))
    engine = registry.get(game.kind)
    state = state_of()
    if seq != game.seq and not (move.rebase and _may_rebase(engine, game, state, move)):
        raise StaleSeq(game.seq)
    events = engine.apply(state, move.seat, move.action)
    logged = engine.canonical(move.action)  # what the engine read, not what the client sent
    was = None if locked else (game.seq, game.updated)
    game.seq += 1
    game.last_actions = {**game.last_actions, str(move.seat): logged["type"]}
    event = {  # a GameEvent's values: the model's own checks cost a move more than its engine
        "game_id": game.pk,
        "seq": game.seq,
        "seat": move.seat,
        "action": logged,
        "events": events,
        "by_bot": move.by_bot,
        "action_id": move.action_id,
        "to_act": game.updated,  # the row's last write: when this state, and this ask, began
    }
    fields = moved_on(game, engine, state)
    return Worked(state, events, store.move_statements(event, game, fields, was))


def _may_rebase(engine, game: Game, state: dict, move: Move) -> bool:
    seat = move.seat
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        return False
    if store.acted_since(game.pk, seat, move.seq):
        return False
    seen = store.state_at(game, move.seq)
    return engine.legal_actions(seen, seat) == engine.legal_actions(state, seat)


def moved_on(game: Game, engine, state: dict) -> list[str]:
    """Bring the row up to the state after an action (the caller moved ``seq`` and each
    seat's last action); store the end if it came. Returns the fields to save."""
    game.to_act = engine.to_act(state)
    fields = ["seq", "to_act", "last_actions", "updated"]
    if engine.is_over(state):
        game.status = Game.Status.OVER
        game.result = engine.result(state)
        game.facts = [engine.facts(state, s) for s in range(game.players)]
        game.ended = timezone.now()
        fields += ["status", "result", "facts", "ended"]
    return fields


# ---- after the commit -----------------------------------------------------------------------------


def after_commit(game: Game, state: dict | None) -> None:
    """After a write on a thread: the row remembered, the state kept and shared before the news
    (so every process that hears it has it), then what the game awaits. The player who moved
    is sent their own view at once: telling the table doesn't hold them up."""
    store.remember_row(game)
    if state is not None:
        store.share_state(game, state)
    news.tell_soon(group_name(game.pk), "game.update", seq=game.seq)
    then = what_next(game, state)
    if then is not None:
        then()


_publishing: set[asyncio.Task] = set()


def _start(coroutine) -> None:
    task = asyncio.ensure_future(coroutine)
    _publishing.add(task)
    task.add_done_callback(_publishing.discard)


async def _publish(game: Game, key: str, text: str, then, shown_by: str) -> None:
    """After a move written on the loop, what after_commit does after one written on a
    thread."""
    # The state first, for every process that hears the news (any process can rebuild it from
    # the log if Redis is away).
    await news.tell(
        group_name(game.pk),
        "game.update",
        keep=(key, text, store.STATE_TTL),
        but=shown_by,
        seq=game.seq,
    )
    if then is not None:
        try:
            await sync_to_async(_closing(then), thread_sensitive=False)()
        except Exception as exc:  # the broker away: the beat's sweep sends stalled turns again
            log.warning("game %s seq %s: what follows was not sent: %r", game.pk, game.seq, exc)


def _closing(fn):
    def call():
        try:
            fn()
        finally:
            close_old_connections()  # the thread's connection goes back to the pool

    return call


def what_next(game: Game, state: dict | None) -> Callable[[], None] | None:
    """What the game awaits after a write, to run once it is committed: an ended game's
    bookkeeping, the play-out of an unattended one, a computer player's turn or a person's
    turn timer. None for nothing."""
    if game.is_over:
        return (lambda: game_ended(game.pk)) if state is not None else None
    if game.unattended:
        return lambda: run_later("gameplay.play_out", game.pk, delay=0)
    if set(game.to_act) & set(game.bot_seats()):
        delay = bot_delay(game, state)
        return lambda: run_later("gameplay.bot_turn", game.pk, game.seq, delay=delay)
    if game.to_act and game.turn_timer:
        timer = game.turn_timer
        return lambda: run_later("gameplay.turn_timeout", game.pk, game.seq, delay=timer)
    return None


def bot_delay(game: Game, state: dict | None = None) -> float:
    """Seconds a computer player at this table waits before it moves (longer where the game
    asks for a moment to be seen, e.g. a showdown)."""
    if game.speed_play == SpeedPlay.INSTANT:
        return 0.0
    pause = 1 + (registry.get(game.kind).pause(state) if state is not None else 0.0)
    if game.speed_play == SpeedPlay.FAST:
        return settings.BOT_DELAY / 4 * pause
    return settings.BOT_DELAY * pause


def game_ended(game_id: int) -> None:
    """Stats, ratings and Kudos hear of the ended game (gameplay.hooks) on a Celery worker, not
    in the table's server process, whose time is the players' moves (embedded, on the server's
    own loop). If the task can't be queued or fails, the beat's sweep delivers it later, and
    each receiver's receipt makes a second delivery a no-op."""
    try:
        run_later("gameplay.deliver_game_end", game_id, delay=0)
    except Exception:  # the broker away: the game has ended whatever happens to its news
        log.exception("end-of-game hook for game %s not queued; the sweep will send it", game_id)
