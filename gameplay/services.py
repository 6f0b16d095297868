"""The only code that applies actions and writes GameEvent.

Writing an action: read the game row (locked, or as this process last saw it), compare the
client's `seq`, apply through the engine, insert the next `seq` and move the row on (unlocked:
only if the row is unchanged), commit; then cache the new state, tell the game's group, and
schedule the computer players. The log is the truth: any process can rebuild a game from it.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.utils import timezone

from infra import news
from infra.database import loop as loop_database
from infra.scheduling import run_later

from . import archive, hooks
from .engine import IllegalAction, registry
from .models import Game, GameEvent, SpeedPlay

log = logging.getLogger(__name__)

STATE_TTL = 60 * 60  # seconds a cached state lives; the log rebuilds it any time


class StaleSeq(Exception):
    """The client acted on an old state. `seq` is the current one."""

    message = "The table moved on before your action arrived. Here is the current state."

    def __init__(self, seq: int):
        super().__init__(self.message)
        self.seq = seq


class AlreadyApplied(Exception):
    """This seat's action with this client id was applied before, as action `seq`."""

    def __init__(self, seq: int):
        super().__init__(f"Already applied as action {seq}.")
        self.seq = seq


MAX_ACTION_ID = 64  # characters of a client's action id


@dataclass
class Outcome:
    game: Game
    state: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def group_name(game_id: int) -> str:
    return f"game_{game_id}"


# ---- starting ---------------------------------------------------------------------------------


def start_game(
    *,
    kind: str,
    seats: list[dict[str, Any]],
    rules: dict | None = None,
    seed: str | None = None,
    turn_timer: int = 0,
    ranked: bool = False,
    speed_play: str = SpeedPlay.NORMAL,
) -> Game:
    """Create a game. `seats`: one {"name", "user_id", "player", "bot"} per seat, in seat
    order ("player" is the caller's label for the person, None for a computer player).
    Raises KeyError for an unknown kind and IllegalAction for a bad table or rules."""
    engine = registry.get(kind)
    seed = engine.choose_seed(seed or secrets.token_hex(16), engine.check_rules(rules, len(seats)))
    state = engine.new_game(players=len(seats), seed=seed, rules=rules)
    seats = [
        {
            "name": str(s.get("name") or f"Seat {i + 1}"),
            "user_id": s.get("user_id"),
            "bot": bool(s.get("bot")),
        }
        for i, s in enumerate(seats)
    ]
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            rules=state["rules"],
            seats=seats,
            seed=seed,
            seed_hash=seed_hash(seed),
            engine_version=engine.version,
            to_act=engine.to_act(state),
            turn_timer=turn_timer,
            ranked=ranked,
            speed_play=check_speed_play(speed_play),
        )
        transaction.on_commit(lambda: _after_commit(game, state))
    return game


def seal(*, game_id: int, until) -> None:
    """Keep the game's seed, log and replay secret until ``until``, even once it is over."""
    Game.objects.filter(pk=game_id).update(sealed_until=until)


# ---- acting -----------------------------------------------------------------------------------


def submit_action(
    *,
    game_id: int,
    seat: int,
    action: Any,
    seq: int,
    by_bot: bool = False,
    rebase: bool = False,
    action_id: str = "",
) -> Outcome:
    """Apply one action that the client sent after seeing state `seq`.

    Raises StaleSeq when the game moved on, IllegalAction when the rules say no (nothing is
    written in either case), AlreadyApplied when this seat's action `action_id` is already in
    the log, Game.DoesNotExist for an unknown game.

    With rebase=True, an action sent against an older state still applies if this seat has
    not acted since `seq` and its choices are the same now as then (another seat's
    simultaneous flip or bet came first). A seat that acted since sent it before its own
    later action reached us, or sent it twice: it is stale, never applied a second time."""
    try:
        return _submit(game_id, seat, action, seq, by_bot, rebase, action_id)
    except (IntegrityError, IllegalAction):
        # A retry sent against the current state (the first try applied, its answer lost) is
        # refused by the rules or by the log's unique (game, seat, action id): answered
        # like any other retry.
        done = _applied_as(game_id, seat, action_id)
        if done is None:
            raise
        raise AlreadyApplied(done) from None


def _applied_as(game_id: int, seat: int, action_id: str) -> int | None:
    if not action_id:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_APPLIED_SQL, [game_id, seat, action_id])
        done = cursor.fetchone()
    return done[0] if done else None


def _acted_since(game_id: int, seat: int, seq: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_SINCE_SQL, [game_id, seat, seq])
        return cursor.fetchone() is not None


def _submit(game_id, seat, action, seq, by_bot, rebase, action_id) -> Outcome:
    known = _known_row(game_id)
    if known is not None:
        # The row as this process last saw it, most likely still the latest: the move is
        # worked out from it and written in one statement that applies only if the row is
        # unchanged, with no lock held meanwhile. Anything else (the row moved on, or the move
        # would be refused on what may be an old row) is decided under the lock below.
        try:
            outcome = _move(known, seat, action, seq, by_bot, rebase, action_id, locked=False)
        except (StaleSeq, IllegalAction):
            outcome = None
        if outcome is not None:
            return outcome
    with transaction.atomic():
        game = _locked_game(game_id)
        return _move(game, seat, action, seq, by_bot, rebase, action_id, locked=True)


async def submit_action_on_loop(
    *, game_id: int, seat: int, action: Any, seq: int, action_id: str = ""
) -> Outcome | None:
    """A person's action as submit_action applies it, from the event loop with no thread, when
    it is the common move: sent against the row and the state this process holds as the
    latest, on PostgreSQL. It is worked out in memory and written in one statement on the
    loop's own connection (infra.database.loop), which applies it only if the row is
    unchanged. None when it needs more (another seq, a refusal to decide on the locked row,
    the row moved on, the database failing): submit_action, on a thread, decides it then, as
    it would have from the start."""
    known = _known_row(game_id)
    if known is None or seq != known.seq:
        return None
    held = kept_state(known)
    if held is None:
        return None
    try:
        state, events, statements = _work_out(
            known, lambda _: held, seat, action, seq, False, False, action_id, False
        )
    except (StaleSeq, IllegalAction):
        return None
    [(sql, params)] = statements
    try:
        if await loop_database.execute(sql, params) != 1:
            return None
    except psycopg.Error:
        return None
    remember(known)
    key, text = _keep_state(known, state)
    task = asyncio.ensure_future(_publish(known, key, text, _what_next(known, state)))
    _publishing.add(task)
    task.add_done_callback(_publishing.discard)
    return Outcome(game=known, state=state, events=events)


_publishing: set[asyncio.Task] = set()


async def _publish(game: Game, key: str, text: str, then) -> None:
    """After a move written on the loop, what _after_commit does after one written on a
    thread: the state into the shared cache before the news, then what the game awaits."""
    try:
        await cache.aset(key, text, STATE_TTL)
    except Exception as exc:  # Redis away: any process can rebuild the state from the log
        log.warning("game %s seq %s: the state was not cached: %r", game.pk, game.seq, exc)
    await news.tell(group_name(game.pk), "game.update", seq=game.seq)
    if then is not None:
        try:
            await sync_to_async(_on_thread(then), thread_sensitive=False)()
        except Exception as exc:  # the broker away: the beat's sweep sends stalled turns again
            log.warning("game %s seq %s: what follows was not sent: %r", game.pk, game.seq, exc)


def _on_thread(fn):
    def call():
        try:
            fn()
        finally:
            close_old_connections()  # the thread's connection goes back to the pool

    return call


def _known_row(game_id: int) -> Game | None:
    """A copy of the game's row as this process last wrote or read it, for a move that needs
    no lock: on PostgreSQL (whose one statement can test the row and write the move) and
    outside any transaction of the caller's (whose savepoints the locked path keeps)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return None
    with _local_lock:
        game = _latest.get(game_id)
    return copy.copy(game) if game is not None and not game.is_over else None


def _move(game, seat, action, seq, by_bot, rebase, action_id, locked: bool) -> Outcome | None:
    """Apply the action to `game` and write it. Unlocked, the write happens only if the row
    is still as `game` has it; None if it moved on."""
    state, events, statements = _work_out(
        game, load_state, seat, action, seq, by_bot, rebase, action_id, locked
    )
    if not _write_move(statements):
        return None
    transaction.on_commit(lambda: _after_commit(game, state))
    return Outcome(game=game, state=state, events=events)


def _work_out(game, state_of, seat, action, seq, by_bot, rebase, action_id, locked: bool):
    """Check and apply the action on `game` and its state (`state_of(game)`), moving the row
    on in memory: (state, events, the statements that write it). Raises as submit_action
    does. Needs no query for an action sent against the row's own seq."""
    # A retry usually carries the state it was first sent against: look it up then. One
    # sent against the current state is left to the log's unique constraint (a move
    # costs no extra query).
    if action_id and seq != game.seq:
        done = _applied_as(game.pk, seat, action_id)
        if done is not None:
            raise AlreadyApplied(done)
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= game.seq:
        raise StaleSeq(game.seq)
    if game.is_over:
        raise IllegalAction("The game is over.")
    engine = registry.get(game.kind)
    state = state_of(game)
    if seq != game.seq and not (rebase and _may_rebase(engine, game, state, seat, seq)):
        raise StaleSeq(game.seq)
    events = engine.apply(state, seat, action)
    logged = engine.canonical(action)  # what the engine read, not what the client sent
    was = None if locked else (game.seq, game.updated)
    game.seq += 1
    game.last_actions = {**game.last_actions, str(seat): logged["type"]}
    event = GameEvent(
        game=game,
        seq=game.seq,
        seat=seat,
        action=logged,
        events=events,
        by_bot=by_bot,
        action_id=action_id,
    )
    return state, events, _move_statements(event, game, _moved_on(game, engine, state), was)


# Every move runs the statements below, as plain SQL (built once where they can be): Django's
# query compiler cost a move more CPU than the database spent on it. The values still go
# through each field's own conversion, as the ORM would send them. Every write to a game row
# locks it here, or (a move) tests it in the statement that writes it.
def _locked_game(game_id: int) -> Game:
    """The game's row, locked until the transaction ends."""
    global _LOCK_SQL
    if _LOCK_SQL is None:
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        _LOCK_SQL = f"SELECT * FROM {_quote(Game._meta.db_table)} WHERE id = %s{lock}"
    for game in Game.objects.raw(_LOCK_SQL, [game_id]):
        return game
    raise Game.DoesNotExist(f"No game {game_id}.")


_LOCK_SQL: str | None = None
_quote = connection.ops.quote_name
_EVENT_FIELDS = [f for f in GameEvent._meta.concrete_fields if not f.primary_key]
_EVENT_COLUMNS = ", ".join(_quote(f.column) for f in _EVENT_FIELDS)
_EVENT_VALUES = ", ".join(["%s"] * len(_EVENT_FIELDS))
_EVENTS = _quote(GameEvent._meta.db_table)
_INSERT_EVENT_SQL = f"INSERT INTO {_EVENTS} ({_EVENT_COLUMNS}) "
_APPLIED_SQL = f"SELECT seq FROM {_EVENTS} WHERE game_id = %s AND seat = %s AND action_id = %s"
_SINCE_SQL = f"SELECT 1 FROM {_EVENTS} WHERE game_id = %s AND seat = %s AND seq > %s LIMIT 1"


def _move_statements(event: GameEvent, game: Game, fields: list[str], was=None) -> list:
    """The statements that insert the move's event and update the game's `fields`, as
    (sql, params). With `was` (the row's seq and `updated` as the move read them; every write
    to a game row sets `updated`): one statement, which writes only if the row is still so and
    the game in play."""
    columns = [Game._meta.get_field(name) for name in fields]
    update = "UPDATE {} SET {} WHERE id = %s".format(
        _quote(Game._meta.db_table), ", ".join(f"{_quote(c.column)} = %s" for c in columns)
    )
    row = [c.get_db_prep_save(c.pre_save(game, False), connection) for c in columns] + [game.pk]
    logged = [f.get_db_prep_save(f.pre_save(event, True), connection) for f in _EVENT_FIELDS]
    if was is None:
        return [(_INSERT_EVENT_SQL + f"VALUES ({_EVENT_VALUES})", logged), (update, row)]
    seq, updated = was
    updated = Game._meta.get_field("updated").get_db_prep_value(updated, connection)
    return [
        (
            f"WITH moved AS ({update} AND seq = %s AND updated = %s AND status = %s RETURNING id) "
            + _INSERT_EVENT_SQL
            + f"SELECT {_EVENT_VALUES} FROM moved",
            row + [seq, updated, Game.Status.ACTIVE.value] + logged,
        )
    ]


def _write_move(statements: list) -> bool:
    """Run a move's statements; whether the move was written (a conditional one may not)."""
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
        return cursor.rowcount == 1


def _moved_on(game: Game, engine, state: dict) -> list[str]:
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


def _may_rebase(engine, game: Game, state: dict, seat: Any, seq: int) -> bool:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        return False
    if _acted_since(game.pk, seat, seq):
        return False
    seen = _state_at(game, seq)
    return engine.legal_actions(seen, seat) == engine.legal_actions(state, seat)


def _state_at(game: Game, seq: int) -> dict[str, Any]:
    cached = _cached_state(game, seq)
    return cached if cached is not None else replay(game, upto=seq)


def set_seat_control(*, game_id: int, seat: int, bot: bool) -> Game:
    """A computer player takes over a seat (bot=True) or gives it back to its person."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.seats[seat].get("left"):
            return game  # left a ranked game for good: the computer keeps the seat
        if game.seats[seat]["bot"] != bot:
            game.seats[seat]["bot"] = bot
            game.save(update_fields=["seats", "updated"])
            transaction.on_commit(lambda: _after_commit(game, None))
    return game


def leave_seat(*, game_id: int, seat: int) -> Game:
    """A person left a ranked game for good: the computer plays the seat to the end, and the
    seat is marked "left" (the ratings rank it last)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if not game.is_over and not game.seats[seat].get("left"):
            game.seats[seat].update(bot=True, left=True)
            game.save(update_fields=["seats", "updated"])
            transaction.on_commit(lambda: _after_commit(game, None))
    return game


def check_speed_play(speed: Any) -> str:
    if speed not in SpeedPlay.values:
        raise IllegalAction("Speed Play is Normal, Fast or Instant.")
    return speed


def bot_delay(game: Game, state: dict | None = None) -> float:
    """Seconds a computer player at this table waits before it moves (longer where the game
    asks for a moment to be seen, e.g. a showdown)."""
    if game.speed_play == SpeedPlay.INSTANT:
        return 0.0
    pause = 1 + (registry.get(game.kind).pause(state) if state is not None else 0.0)
    if game.speed_play == SpeedPlay.FAST:
        return settings.BOT_DELAY / 4 * pause
    return settings.BOT_DELAY * pause


def set_speed_play(*, game_id: int, speed: str) -> Game:
    """Change how fast the computer players move; one awaited now moves at the new pace."""
    speed = check_speed_play(speed)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.speed_play != speed:
            game.speed_play = speed
            game.save(update_fields=["speed_play", "updated"])
            transaction.on_commit(lambda: _after_commit(game, None))
    return game


def play_out(*, game_id: int, limit: int = 20_000) -> int:
    """The computer plays a game nobody attends any more (everyone left a ranked game) to the
    end, with no pause and no broadcast between actions: the moves are worked out first, then
    written in one short transaction. Returns the number of actions played (0 if the game
    moved on meanwhile: the commit that moved it sends this again)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.is_over or not game.unattended:
        return 0
    engine = registry.get(game.kind)
    state = load_state(game)
    start, rows = game.seq, []
    while not engine.is_over(state) and engine.to_act(state) and len(rows) < limit:
        seat = engine.to_act(state)[0]
        action = engine.canonical(engine.bot_action(state, seat))
        events = engine.apply(state, seat, action)
        rows.append(
            GameEvent(
                game=game,
                seq=start + len(rows) + 1,
                seat=seat,
                action=action,
                events=events,
                by_bot=True,
            )
        )
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.seq != start or game.is_over:
            return 0
        GameEvent.objects.bulk_create(rows)
        game.seq = start + len(rows)
        game.last_actions = {
            **game.last_actions,
            **{str(row.seat): row.action["type"] for row in rows},
        }
        game.save(update_fields=_moved_on(game, engine, state))
        transaction.on_commit(lambda: _after_commit(game, state))
    return len(rows)


def abandon_game(*, game_id: int) -> None:
    """The room moved on before the game ended."""
    ended = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).update(
        status=Game.Status.ABANDONED, ended=timezone.now()
    )
    if ended:
        transaction.on_commit(lambda: _game_ended(game_id))


# The latest row of each game this process wrote or read: the table sockets here that hear
# of a write render from it instead of reading it back (sockets elsewhere read the row), and
# the next move starts from it (see _submit).
LATEST_GAMES = 1024
_latest: OrderedDict[int, Game] = OrderedDict()


def latest_game(game_id: int, seq: int) -> Game | None:
    """The game's row as this process last wrote or read it, if that is as of action `seq`.
    Shared between threads: read it, never change it."""
    with _local_lock:
        game = _latest.get(game_id)
    return game if game is not None and game.seq == seq else None


def remember(game: Game) -> None:
    """Keep `game`, just written or read, as this process's latest row of it (unless a later
    one is kept already: two threads can get here out of order). Read it, never change it."""
    with _local_lock:
        known = _latest.get(game.pk)
        if known is None or (known.seq, known.updated) <= (game.seq, game.updated):
            _latest[game.pk] = game
        _latest.move_to_end(game.pk)
        while len(_latest) > LATEST_GAMES:
            _latest.popitem(last=False)


def _after_commit(game: Game, state: dict | None) -> None:
    remember(game)
    if state is not None:
        _store_state(game, state)  # before the news, so every process that hears it has it
    # The player who moved is sent their own view at once: telling the table doesn't hold
    # them up (nor a computer player's next move).
    news.tell_soon(group_name(game.pk), "game.update", seq=game.seq)
    then = _what_next(game, state)
    if then is not None:
        then()


def _what_next(game: Game, state: dict | None):
    """What the game awaits after a write, to run once it is committed: an ended game's
    bookkeeping, the play-out of an unattended one, a computer player's turn or a person's
    turn timer. None for nothing."""
    if game.is_over:
        return (lambda: _game_ended(game.pk)) if state is not None else None
    if game.unattended:
        return lambda: run_later("gameplay.play_out", game.pk, delay=0)
    if set(game.to_act) & set(game.bot_seats()):
        delay = bot_delay(game, state)
        return lambda: run_later("gameplay.bot_turn", game.pk, game.seq, delay=delay)
    if game.to_act and game.turn_timer:
        timer = game.turn_timer
        return lambda: run_later("gameplay.turn_timeout", game.pk, game.seq, delay=timer)
    return None


def _game_ended(game_id: int) -> None:
    """Stats, ratings and Kudos hear of the ended game (gameplay.hooks) right after the
    commit; if that fails (a crash, a receiver's error), the beat sweep delivers it later."""
    try:
        hooks.deliver(game_id)
    except Exception:  # the game has ended whatever a receiver does
        log.exception("end-of-game hook for game %s failed; the sweep will retry", game_id)


# ---- reading ----------------------------------------------------------------------------------


def _state_key(game: Game, seq: int) -> str:
    # The seed hash keeps keys apart if ids are ever reused (a database reset).
    return f"game-state:{game.pk}:{game.seed_hash[:16]}:{seq}"


# The state after action N of a game never changes (the log only grows), so each process
# keeps the latest few it wrote or read, as JSON text (every load gets its own copy), in
# front of the shared cache: the next action at a table, and every seat's view of it,
# then needs no trip to Redis.
LOCAL_STATES = 512
_local_states: OrderedDict[str, str] = OrderedDict()
_local_lock = threading.Lock()


def _remember(key: str, text: str) -> None:
    with _local_lock:
        _local_states[key] = text
        _local_states.move_to_end(key)
        while len(_local_states) > LOCAL_STATES:
            _local_states.popitem(last=False)


def _cached_state(game: Game, seq: int) -> dict[str, Any] | None:
    key = _state_key(game, seq)
    with _local_lock:
        text = _local_states.get(key)
    if text is None:
        text = cache.get(key)
        if text is None:
            return None
        _remember(key, text)
    return json.loads(text)


def _store_state(game: Game, state: dict[str, Any]) -> None:
    cache.set(*_keep_state(game, state), STATE_TTL)


def _keep_state(game: Game, state: dict[str, Any]) -> tuple[str, str]:
    """Keep the state after `game.seq` actions in this process; its key and text, for the
    shared cache."""
    key, text = _state_key(game, game.seq), json.dumps(state)
    _remember(key, text)
    return key, text


def forget_states() -> None:
    """Drop every cached state: this process's and the whole shared cache (which holds
    nothing else); the log rebuilds them."""
    with _local_lock:
        _local_states.clear()
    cache.clear()


def kept_state(game: Game) -> dict[str, Any] | None:
    """The state after `game.seq` actions if this process holds it (no trip to Redis)."""
    with _local_lock:
        text = _local_states.get(_state_key(game, game.seq))
    return None if text is None else json.loads(text)


def load_state(game: Game) -> dict[str, Any]:
    """The state after `game.seq` actions: from a cache, or rebuilt from the log."""
    state = _cached_state(game, game.seq)
    if state is None:
        state = replay(game)
        _store_state(game, state)
    return state


def replay(game: Game, upto: int | None = None) -> dict[str, Any]:
    """Rebuild the state from seed, rules, players and the logged actions."""
    engine = registry.get(game.kind)
    state = engine.new_game(players=game.players, seed=game.seed, rules=game.rules)
    for entry in archive.entries(game, upto):
        engine.apply(state, entry.seat, entry.action)
    return state


def public_log(game: Game) -> dict[str, Any]:
    """Everything needed to re-run a finished game: seed, rules, players, actions."""
    return {
        "id": game.pk,
        "kind": game.kind,
        "engine_version": game.engine_version,
        "seed": game.seed,
        "seed_sha256": game.seed_hash,
        "rules": game.rules,
        "players": game.players,
        "seats": [{"name": s["name"]} for s in game.seats],
        "actions": [
            {"seq": e.seq, "seat": e.seat, "action": e.action} for e in archive.entries(game)
        ],
        "result": game.result,
    }


def verify(game: Game) -> list[str]:
    """Re-run the log and compare with the stored events and the published hash.
    Returns a list of problems; empty means the game checks out."""
    problems = []
    if seed_hash(game.seed) != game.seed_hash:
        problems.append("The seed does not match its published SHA-256.")
    engine = registry.get(game.kind)
    state = engine.new_game(players=game.players, seed=game.seed, rules=game.rules)
    expected_seq = 0
    for entry in archive.entries(game):
        expected_seq += 1
        if entry.seq != expected_seq:
            problems.append(f"The log skips from seq {expected_seq - 1} to {entry.seq}.")
            expected_seq = entry.seq
        try:
            events = engine.apply(state, entry.seat, entry.action)
        except IllegalAction as exc:
            problems.append(f"Action {entry.seq} is illegal on replay: {exc.message}")
            break
        if events != entry.events:
            problems.append(f"Action {entry.seq} gives different events on replay.")
    if game.seq != expected_seq:
        problems.append(f"The game says seq {game.seq} but the log ends at {expected_seq}.")
    if game.status == Game.Status.OVER and engine.result(state) != game.result:
        problems.append("The stored result differs from the replayed result.")
    return problems
