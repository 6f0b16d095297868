"""The event log and what this process holds of it: the only code that writes GameEvent rows
and moves a game's row (in the statements a move builds here), the latest rows and states this
process read or wrote, the shared state cache, and replay.

The log is the truth: a game's state is rebuilt from its seed, rules, players and logged
actions (``replay``); a state after action N never changes, so it is cached (in this process,
then in Redis) and any process can rebuild it.

Every move runs the statements below as plain SQL (built once where they can be): Django's
query compiler cost a move more CPU than the database spent on it. The values still go through
each field's own conversion, as the ORM would send them. Every write to a game row locks it
(``locked_game``), or (a move) tests it in the statement that writes it.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

import psycopg
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field
from django.db.models.base import ModelState
from django.utils import timezone
from psycopg.types.json import Jsonb

from infra import jsontext
from infra.database import loop as loop_database

from . import archive
from .engine import IllegalAction, registry
from .models import Game, GameEvent

STATE_TTL = 60 * 60  # seconds a cached state lives; the log rebuilds it any time


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


# ---- statements -------------------------------------------------------------------------------


def locked_game(game_id: int) -> Game:
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


def move_statements(event: dict[str, Any], game: Game, fields: list[str], was=None) -> list:
    """The statements that insert the move's event (its GameEvent values by field name; the
    time it is logged is added here) and update the game's `fields`, as (sql, params). With
    `was` (the row's seq and `updated` as the move read them; every write to a game row sets
    `updated`): one statement, which writes only if the row is still so and the game in play."""
    to_db = _converters()
    columns, update = _update(tuple(fields))
    row = [to_db(c, c.pre_save(game, False)) for c in columns] + [game.pk]
    logged = {**event, "created": timezone.now()}
    logged = [to_db(f, logged[f.attname]) for f in _EVENT_FIELDS]
    if was is None:
        return [(_INSERT_EVENT_SQL + f"VALUES ({_EVENT_VALUES})", logged), (update, row)]
    seq, updated = was
    updated = to_db(Game._meta.get_field("updated"), updated)
    return [
        (
            f"WITH moved AS ({update} AND seq = %s AND updated = %s AND status = %s RETURNING id) "
            + _INSERT_EVENT_SQL
            + f"SELECT {_EVENT_VALUES} FROM moved",
            row + [seq, updated, Game.Status.ACTIVE.value] + logged,
        )
    ]


@functools.cache
def _update(fields: tuple[str, ...]) -> tuple[list[Field], str]:
    """The game row's fields a move writes and the statement's UPDATE, built once for each set
    (a move writes one of two)."""
    columns = [Game._meta.get_field(name) for name in fields]
    update = "UPDATE {} SET {} WHERE id = %s".format(
        _quote(Game._meta.db_table), ", ".join(f"{_quote(c.column)} = %s" for c in columns)
    )
    return columns, update


@functools.cache
def _on_postgresql() -> bool:
    """Whether the site's database is PostgreSQL. Asked once: on the event loop each coroutine
    that asks Django for its connection may get one made for it."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


def _converters() -> Callable[[Field, Any], Any]:
    """How a move's values go to the database: as each field's get_db_prep_save sends them. On
    PostgreSQL the conversions a move needs are looked up once per field, not walked through the
    field's generic path for each value (that path cost a move more CPU than its engine);
    tests/test_store_values.py holds both to the same values."""
    if _on_postgresql():
        return _to_postgresql
    db = connections[DEFAULT_DB_ALIAS]
    return lambda field, value: field.get_db_prep_save(value, db)


def _to_postgresql(field: Field, value: Any) -> Any:
    if value is None:
        return field.get_db_prep_save(value, connections[DEFAULT_DB_ALIAS])
    return _POSTGRESQL[field](value)


class _PostgreSQLValues(dict):
    """Each field's conversion, found on first use."""

    def __missing__(self, field: Field) -> Callable[[Any], Any]:
        kind = (
            field.target_field.get_internal_type()
            if field.is_relation
            else field.get_internal_type()
        )
        wrap = connections[DEFAULT_DB_ALIAS].ops.integerfield_type_map.get(kind)
        if wrap is not None:
            convert = wrap
        elif kind == "JSONField" and field.encoder is None:
            convert = _jsonb
        elif kind in ("BigAutoField", "DateTimeField"):
            convert = _same
        elif kind == "BooleanField":
            convert = bool
        elif kind == "CharField":
            convert = _text
        else:
            convert = partial(field.get_db_prep_save, connection=connections[DEFAULT_DB_ALIAS])
        self[field] = convert
        return convert


def _jsonb(value: Any) -> Jsonb:
    return Jsonb(value, dumps=jsontext.encoded)


def _same(value: Any) -> Any:
    return value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


_POSTGRESQL = _PostgreSQLValues()


def write(statements: list) -> bool:
    """Run a move's statements; whether the move was written (a conditional one may not)."""
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
        return cursor.rowcount == 1


async def write_on_loop(statements: list) -> bool:
    """Run a move's one conditional statement from the event loop, on the loop's own
    connection (infra.database.loop); whether it was written. False when the database fails
    too: the caller decides the move again on a thread."""
    [(sql, params)] = statements
    try:
        return await loop_database.execute(sql, params) == 1
    except psycopg.Error:
        return False


def applied_as(game_id: int, seat: int, action_id: str) -> int | None:
    """The seq at which this seat's action `action_id` was logged, if it was."""
    if not action_id:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_APPLIED_SQL, [game_id, seat, action_id])
        done = cursor.fetchone()
    return done[0] if done else None


def acted_since(game_id: int, seat: int, seq: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_SINCE_SQL, [game_id, seat, seq])
        return cursor.fetchone() is not None


# ---- the rows this process holds ---------------------------------------------------------------


_local_lock = threading.Lock()  # for the rows and the states below: threads share them
LATEST_GAMES = 1024
_latest: OrderedDict[int, Game] = OrderedDict()


def latest_row(game_id: int, seq: int) -> Game | None:
    """The game's row as this process last wrote or read it, if that is as of action `seq`.
    Shared between threads: read it, never change it."""
    with _local_lock:
        game = _latest.get(game_id)
    return game if game is not None and game.seq == seq else None


def remember_row(game: Game) -> None:
    """Keep `game`, just written or read, as this process's latest row of it (unless a later
    one is kept already: two threads can get here out of order). Read it, never change it."""
    with _local_lock:
        known = _latest.get(game.pk)
        if known is None or (known.seq, known.updated) <= (game.seq, game.updated):
            _latest[game.pk] = game
        _latest.move_to_end(game.pk)
        while len(_latest) > LATEST_GAMES:
            _latest.popitem(last=False)


def known_row(game_id: int) -> Game | None:
    """A copy of the game's row as this process last wrote or read it, for a move that needs
    no lock: on PostgreSQL, whose one statement can test the row and write the move. The
    caller is in no transaction of its own (the locked path keeps its savepoints)."""
    if not _on_postgresql():
        return None
    with _local_lock:
        game = _latest.get(game_id)
    if game is None or game.is_over:
        return None
    # A shallow copy, as copy.copy makes, without its detours (pickling's protocol, and the
    # model's own __getstate__ looking for memoryviews a game row never holds).
    copied = Game.__new__(Game)
    copied.__dict__.update(game.__dict__)
    copied._state = kept = ModelState()
    kept.__dict__.update(game._state.__dict__)
    kept.fields_cache = dict(kept.fields_cache)  # read on the copy: the kept row is never written
    return copied


# ---- states ---------------------------------------------------------------------------------


def _state_key(game: Game, seq: int) -> str:
    # The seed hash keeps keys apart if ids are ever reused (a database reset).
    return f"game-state:{game.pk}:{game.seed_hash[:16]}:{seq}"


# The state after action N of a game never changes (the log only grows), so each process
# keeps the latest few it wrote or read, as JSON text (every load gets its own copy), in
# front of the shared cache: the next action at a table, and every seat's view of it,
# then needs no trip to Redis.
LOCAL_STATES = 512
_local_states: OrderedDict[str, str] = OrderedDict()


def _keep_text(key: str, text: str) -> None:
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
        _keep_text(key, text)
    return jsontext.loads(text)


def share_state(game: Game, state: dict[str, Any]) -> None:
    """Keep the state after `game.seq` actions here and in the shared cache, for every
    process that hears of it."""
    cache.set(*keep_state(game, state), STATE_TTL)


def keep_state(game: Game, state: dict[str, Any]) -> tuple[str, str]:
    """Keep the state after `game.seq` actions in this process; its key and text, for the
    shared cache."""
    key, text = _state_key(game, game.seq), jsontext.dumps(state)
    _keep_text(key, text)
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
    return None if text is None else jsontext.loads(text)


def load_state(game: Game) -> dict[str, Any]:
    """The state after `game.seq` actions: from a cache, or rebuilt from the log."""
    state = _cached_state(game, game.seq)
    if state is None:
        state = replay(game)
        share_state(game, state)
    return state


def state_at(game: Game, seq: int) -> dict[str, Any]:
    cached = _cached_state(game, seq)
    return cached if cached is not None else replay(game, upto=seq)


# ---- replay ---------------------------------------------------------------------------------


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
