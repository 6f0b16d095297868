"""The only code that applies actions and writes GameEvent.

Writing an action: lock the game row, compare the client's `seq`, apply through the engine,
insert the next `seq`, commit; then cache the new state, tell the game's group, and schedule
the computer players. The log is the truth: any process can rebuild a game from it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from .engine import IllegalAction, registry
from .models import Game, GameEvent

log = logging.getLogger(__name__)

STATE_TTL = 60 * 60  # seconds a cached state lives; the log rebuilds it any time


class StaleSeq(Exception):
    """The client acted on an old state. `seq` is the current one."""

    message = "The table moved on before your action arrived. Here is the current state."

    def __init__(self, seq: int):
        super().__init__(self.message)
        self.seq = seq


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
) -> Outcome:
    """Apply one action that the client sent after seeing state `seq`.

    Raises StaleSeq when the game moved on, IllegalAction when the rules say no (nothing is
    written in either case), Game.DoesNotExist for an unknown game.

    With rebase=True, an action sent against an older state still applies if that seat's
    choices are the same now as at `seq` (another seat's simultaneous flip or bet came first);
    if anything the seat could do changed, it is stale."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= game.seq:
            raise StaleSeq(game.seq)
        if game.is_over:
            raise IllegalAction("The game is over.")
        engine = registry.get(game.kind)
        state = load_state(game)
        if seq != game.seq and not (rebase and _same_choices(engine, game, state, seat, seq)):
            raise StaleSeq(game.seq)
        events = engine.apply(state, seat, action)
        game.seq += 1
        GameEvent.objects.create(
            game=game, seq=game.seq, seat=seat, action=action, events=events, by_bot=by_bot
        )
        game.save(update_fields=_moved_on(game, engine, state))
        transaction.on_commit(lambda: _after_commit(game, state))
    return Outcome(game=game, state=state, events=events)


def _moved_on(game: Game, engine, state: dict) -> list[str]:
    """Bring the row up to the state after an action; store the end if it came. Returns the
    fields to save."""
    game.to_act = engine.to_act(state)
    fields = ["seq", "to_act", "updated"]
    if engine.is_over(state):
        game.status = Game.Status.OVER
        game.result = engine.result(state)
        game.facts = [engine.facts(state, s) for s in range(game.players)]
        game.ended = timezone.now()
        fields += ["status", "result", "facts", "ended"]
    return fields


def _same_choices(engine, game: Game, state: dict, seat: Any, seq: int) -> bool:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        return False
    seen = _state_at(game, seq)
    return engine.legal_actions(seen, seat) == engine.legal_actions(state, seat)


def _state_at(game: Game, seq: int) -> dict[str, Any]:
    cached = cache.get(_state_key(game, seq))
    return json.loads(cached) if cached is not None else replay(game, upto=seq)


def set_seat_control(*, game_id: int, seat: int, bot: bool) -> Game:
    """A computer player takes over a seat (bot=True) or gives it back to its person."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
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
        game = Game.objects.select_for_update().get(pk=game_id)
        if not game.is_over and not game.seats[seat].get("left"):
            game.seats[seat].update(bot=True, left=True)
            game.save(update_fields=["seats", "updated"])
            transaction.on_commit(lambda: _after_commit(game, None))
    return game


def play_out(*, game_id: int, limit: int = 20_000) -> int:
    """The computer plays a game nobody attends any more (everyone left a ranked game) to the
    end, with no pause and no broadcast between actions: the moves are worked out first, then
    written in one short transaction. Returns the number of actions played (0 if the game
    moved on meanwhile: the commit that moved it sends this again)."""
    game = Game.objects.get(pk=game_id)
    if game.is_over or not game.unattended:
        return 0
    engine = registry.get(game.kind)
    state = load_state(game)
    start, rows = game.seq, []
    while not engine.is_over(state) and engine.to_act(state) and len(rows) < limit:
        seat = engine.to_act(state)[0]
        action = engine.bot_action(state, seat)
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
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.seq != start or game.is_over:
            return 0
        GameEvent.objects.bulk_create(rows)
        game.seq = start + len(rows)
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


def _after_commit(game: Game, state: dict | None) -> None:
    if state is not None:
        cache.set(_state_key(game, game.seq), json.dumps(state), STATE_TTL)
    broadcast(game.pk, game.seq)
    if game.is_over:
        if state is not None:
            _game_ended(game.pk)
        return
    from . import tasks  # tasks import services

    awaited_bots = set(game.to_act) & set(game.bot_seats())
    if game.unattended:
        tasks.run_later(tasks.play_out, game.pk, delay=0)
    elif awaited_bots:
        tasks.run_later(tasks.bot_turn, game.pk, game.seq, delay=settings.BOT_DELAY)
    elif game.to_act and game.turn_timer:
        tasks.run_later(tasks.turn_timeout, game.pk, game.seq, delay=game.turn_timer)


def _game_ended(game_id: int) -> None:
    """Stats, ratings and Kudos hear of the ended game (gameplay.hooks) right after the
    commit; if that fails (a crash, a receiver's error), the beat sweep delivers it later."""
    from . import hooks

    try:
        hooks.deliver(game_id)
    except Exception:  # the game has ended whatever a receiver does
        log.exception("end-of-game hook for game %s failed; the sweep will retry", game_id)


def broadcast(game_id: int, seq: int) -> None:
    """Tell everyone at the table that state `seq` exists; each renders its own view."""
    layer = get_channel_layer()
    try:
        run_async(layer.group_send, group_name(game_id), {"type": "game.update", "seq": seq})
    except Exception:  # a dead channel layer must not undo a committed action
        log.exception("broadcast of game %s seq %s failed", game_id, seq)


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def run_async(fn, *args):
    """Run a coroutine function from sync code. Inside daphne, on the server's own loop;
    elsewhere (a Celery worker, a command) on one long-lived loop, so the channel layer's
    Redis connections are reused instead of opened per message."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None:
        return async_to_sync(fn)(*args)
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="gameplay-async", daemon=True).start()
    return asyncio.run_coroutine_threadsafe(fn(*args), _loop).result(timeout=10)


# ---- reading ----------------------------------------------------------------------------------


def _state_key(game: Game, seq: int) -> str:
    # The seed hash keeps keys apart if ids are ever reused (a database reset).
    return f"game-state:{game.pk}:{game.seed_hash[:16]}:{seq}"


def load_state(game: Game) -> dict[str, Any]:
    """The state after `game.seq` actions: from the cache, or rebuilt from the log."""
    cached = cache.get(_state_key(game, game.seq))
    if cached is not None:
        return json.loads(cached)
    state = replay(game)
    cache.set(_state_key(game, game.seq), json.dumps(state), STATE_TTL)
    return state


def replay(game: Game, upto: int | None = None) -> dict[str, Any]:
    """Rebuild the state from seed, rules, players and the logged actions."""
    engine = registry.get(game.kind)
    state = engine.new_game(players=game.players, seed=game.seed, rules=game.rules)
    entries = game.log.order_by("seq")
    if upto is not None:
        entries = entries.filter(seq__lte=upto)
    for seat, action in entries.values_list("seat", "action"):
        engine.apply(state, seat, action)
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
            {"seq": seq, "seat": seat, "action": action}
            for seq, seat, action in game.log.order_by("seq").values_list("seq", "seat", "action")
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
    for entry in game.log.order_by("seq"):
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
