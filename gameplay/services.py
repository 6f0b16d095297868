"""Games: start one, act in one, and what changes a table besides a move (a computer taking a
seat, Speed Play, everyone leaving). The only code that writes games; a move goes through
gameplay.moves, and the log, the states and replay are gameplay.store's."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from . import moves, store
from .engine import MEDIUM, IllegalAction, registry
from .engine.text import say
from .models import Game, GameEvent, SpeedPlay, is_computer_seat

# The answers of acting, and the group a game's table listens to.
from .moves import AlreadyApplied, Move, Outcome, StaleSeq, group_name  # noqa: F401

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
    order ("player" is the caller's label for the person, None for a computer player), and
    for a computer player its "strength" (one of the engine's ``strengths``; Medium if none).
    Raises KeyError for an unknown kind and IllegalAction for a bad table or rules."""
    engine = registry.get(kind)
    seed = engine.choose_seed(seed or secrets.token_hex(16), engine.check_rules(rules, len(seats)))
    state = engine.new_game(players=len(seats), seed=seed, rules=rules)
    seats = [_seat(engine, i, s) for i, s in enumerate(seats)]
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            rules=state["rules"],
            seats=seats,
            seed=seed,
            seed_hash=store.seed_hash(seed),
            engine_version=engine.version,
            to_act=engine.to_act(state),
            turn_timer=turn_timer,
            ranked=ranked,
            speed_play=check_speed_play(speed_play),
        )
        transaction.on_commit(lambda: moves.after_commit(game, state))
    return game


def _seat(engine, index: int, given: dict[str, Any]) -> dict[str, Any]:
    seat = {
        "name": str(given.get("name") or f"Seat {index + 1}"),
        "user_id": given.get("user_id"),
        "bot": bool(given.get("bot")),
    }
    if is_computer_seat(seat):
        seat["strength"] = check_strength(engine, given.get("strength") or MEDIUM)
    return seat


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
    timer: bool = False,
    rebase: bool = False,
    action_id: str = "",
) -> Outcome:
    """Apply one action that the client sent after seeing state `seq` (see moves.Move for
    what each argument means, and moves.submit for what it raises)."""
    return moves.submit(
        Move(
            game_id=game_id,
            seat=seat,
            action=action,
            seq=seq,
            action_id=action_id,
            by_bot=by_bot,
            timer=timer,
            rebase=rebase,
        )
    )


async def submit_from_loop(*, shown_by: str = "", **move: Any) -> Outcome:
    """A person's action from a table socket (an event loop): as submit_action (`move`: its
    game_id, seat, action, seq and action_id), with rebase, written on the loop itself when it
    is the common move (see gameplay.moves). `shown_by`: the socket's channel, which shows the
    result itself and is not sent the table's news."""
    return await moves.submit_from_loop(Move(**move, rebase=True, shown_by=shown_by))


# ---- the table besides moves --------------------------------------------------------------------


def _change(game_id: int, change) -> Game:
    """Apply `change(game)` to the locked row; when it returns the fields it changed, save
    them and tell the table."""
    with transaction.atomic():
        game = store.locked_game(game_id)
        fields = change(game)
        if fields:
            game.save(update_fields=[*fields, "updated"])
            transaction.on_commit(lambda: moves.after_commit(game, None))
    return game


def set_seat_control(*, game_id: int, seat: int, bot: bool) -> Game:
    """A computer player takes over a seat (bot=True) or gives it back to its person."""

    def change(game):
        # A seat left for good (a ranked game) stays the computer's.
        if not game.seats[seat].get("left") and game.seats[seat]["bot"] != bot:
            game.seats[seat]["bot"] = bot
            return ["seats"]

    return _change(game_id, change)


def leave_seat(*, game_id: int, seat: int) -> Game:
    """A person left a ranked game for good: the computer plays the seat to the end, and the
    seat is marked "left" (the ratings rank it last)."""

    def change(game):
        if not game.is_over and not game.seats[seat].get("left"):
            game.seats[seat].update(bot=True, left=True)
            return ["seats"]

    return _change(game_id, change)


# The computer player's strengths as people read them (engine.core.STRENGTHS).
STRENGTH_NAMES = {
    "easy": say("Easy"),
    "medium": say("Medium"),
    "hard": say("Hard"),
    "expert": say("Expert"),
}


def check_strength(engine, strength: Any) -> str:
    """A computer player's strength for this game, or IllegalAction saying which it plays."""
    if strength in engine.strengths:
        return strength
    names = [STRENGTH_NAMES.get(s, s.title()) for s in engine.strengths]
    choices = names[-1]
    if len(names) > 1:
        choices = say("{some} or {last}", some=", ".join(names[:-1]), last=names[-1])
    raise IllegalAction(
        say(
            "The computer plays {game} at {choices}: “{strength}” is not one of them.",
            game=engine.title,
            choices=choices,
            strength=str(strength)[:20],
        )
    )


def check_speed_play(speed: Any) -> str:
    if speed not in SpeedPlay.values:
        raise IllegalAction(say("Speed Play is Normal, Fast or Instant."))
    return speed


def set_speed_play(*, game_id: int, speed: str) -> Game:
    """Change how fast the computer players move; one awaited now moves at the new pace."""
    speed = check_speed_play(speed)

    def change(game):
        if game.speed_play != speed:
            game.speed_play = speed
            return ["speed_play"]

    return _change(game_id, change)


def play_out(*, game_id: int, limit: int = 20_000) -> int:
    """The computer plays a game nobody attends any more (everyone left a ranked game) to the
    end, with no pause and no broadcast between actions: the moves are worked out first, then
    written in one short transaction. Returns the number of actions played (0 if the game
    moved on meanwhile: the commit that moved it sends this again)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.is_over or not game.unattended:
        return 0
    engine = registry.get(game.kind)
    state = store.load_state(game)
    start, rows = game.seq, []
    while not engine.is_over(state) and engine.to_act(state) and len(rows) < limit:
        seat = engine.to_act(state)[0]
        action = engine.canonical(engine.bot_action(state, seat, game.strength(seat)))
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
        game = store.locked_game(game_id)
        if game.seq != start or game.is_over:
            return 0
        GameEvent.objects.bulk_create(rows)
        game.seq = start + len(rows)
        game.last_actions = {
            **game.last_actions,
            **{str(row.seat): row.action["type"] for row in rows},
        }
        game.save(update_fields=moves.moved_on(game, engine, state))
        transaction.on_commit(lambda: moves.after_commit(game, state))
    return len(rows)


def abandon_game(*, game_id: int) -> None:
    """The room moved on before the game ended."""
    ended = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).update(
        status=Game.Status.ABANDONED, ended=timezone.now()
    )
    if ended:
        transaction.on_commit(lambda: moves.game_ended(game_id))
