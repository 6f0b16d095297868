"""Games as the site stores them, played or not: what counts as play (gameplay.play) reads the
log, so a test that needs a counted game makes one with decisions at a person's pace."""

from __future__ import annotations

import contextlib
import math
from datetime import UTC, datetime, timedelta
from unittest import mock

from django.conf import settings
from django.db.models import Case, DateTimeField, Value, When
from django.utils import timezone

from gameplay.engine import registry
from gameplay.models import Game, GameEvent
from gameplay.play import THINK_CAP


def ended_game(
    *,
    seats: list[dict],
    winners: list[int],
    kind: str = "war",
    ended: datetime | str | None = None,
    status: str = Game.Status.OVER,
    decisions: int | None = None,
    seconds: float = 60,
    **fields,
) -> Game:
    """A game that just ended (seats: {"user_id", "bot", ...}), with a log in which every seat
    of a person made ``decisions`` of their own (by default what a real game of ``kind``
    takes) spread over ``seconds`` of thinking each: a counted game, unless told otherwise."""
    if isinstance(ended, str):
        ended = datetime.fromisoformat(ended).replace(tzinfo=UTC)
    ended = ended or _now()
    seats = [
        {"name": f"Seat {i + 1}", "user_id": None, "bot": False, **s} for i, s in enumerate(seats)
    ]
    game = Game.objects.create(
        kind=kind,
        seats=seats,
        seed="kudos",
        seed_hash="0" * 64,
        status=status,
        result={"scores": [0] * len(seats), "winners": winners, "ranking": []},
        ended=ended,
        **fields,
    )
    return played_log(game, decisions=decisions, seconds=seconds)


def played_log(game: Game, *, decisions: int | None = None, seconds: float = 60) -> Game:
    """Give ``game`` (ended, with no log yet) a log in which every seat of a person made
    ``decisions`` of their own (by default what a real game of its kind takes), the last at
    its end, spread over ``seconds`` of thinking each. Returns the game, reloaded."""
    if decisions is None:
        least = math.ceil(seconds / THINK_CAP.total_seconds()) if seconds else 0
        decisions = max(registry.get(game.kind).real_game.decisions, least, 1)
    people = [i for i, s in enumerate(game.seats) if s.get("user_id") and not s.get("bot")]
    people = people or [0]
    step = timedelta(seconds=seconds / decisions) if decisions else timedelta(0)
    began = game.ended - step * decisions
    rows, times = [], {}
    for turn in range(decisions):
        for seat in people:
            seq = len(rows) + 1
            # the moves of one turn a millisecond apart, each after `step` of thought
            apart = timedelta(milliseconds=len(people) - 1 - seat)
            at = began + step * (turn + 1) - apart
            times[seq] = at
            rows.append(
                GameEvent(
                    game=game,
                    seq=seq,
                    seat=seat,
                    action={"type": "play"},
                    to_act=began + step * turn - apart,
                )
            )
    GameEvent.objects.bulk_create(rows)
    if times:  # created is auto_now_add: set the times the log says afterwards
        game.log.update(
            created=Case(
                *(When(seq=seq, then=Value(at)) for seq, at in times.items()),
                output_field=DateTimeField(),
            )
        )
    Game.objects.filter(pk=game.pk).update(created=began, seq=len(rows))
    game.refresh_from_db()
    return game


def _now() -> datetime:
    from kudos import clock

    return clock.now()


@contextlib.contextmanager
def person_pace(step: float = 5.0):
    """Time moves ``step`` seconds at each look at the clock, as if a person thought that
    long between actions: games played through the services inside count as play."""
    start = timezone.now()
    ticks = iter(range(1, 10**9))
    with mock.patch(
        "django.utils.timezone.now", lambda: start + timedelta(seconds=step * next(ticks))
    ):
        yield


def worker_delivers(*games: int) -> list[int]:
    """Do here what the Celery worker does with the news that these games ended: take their
    ``gameplay.deliver_game_end`` tasks off the broker's queue, oldest first, and run them.
    Returns the games whose task was queued (and so is now delivered)."""
    import base64
    import json

    import redis

    from gameplay import tasks

    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    delivered = []
    for raw in reversed(broker.lrange("celery", 0, -1)):  # pushed on the left: oldest last
        message = json.loads(raw)
        if message["headers"].get("task") != "gameplay.deliver_game_end":
            continue
        args, _, _ = json.loads(base64.b64decode(message["body"]))
        if args[0] in games and broker.lrem("celery", 1, raw):
            tasks.deliver_game_end(*args)
            delivered.append(args[0])
    return delivered


def played_out(game: Game, *, delivered: bool = True) -> Game:
    """Every seat plays as the computer would until the game ends, through the services; then,
    unless told otherwise, its end is delivered as the worker would (``worker_delivers``)."""
    from gameplay import services, store

    engine = registry.get(game.kind)
    state = store.load_state(game)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = engine.bot_action(state, seat)
        state = services.submit_action(
            game_id=game.pk, seat=seat, action=action, seq=state["applied"]
        ).state
    if delivered:
        assert worker_delivers(game.pk) == [game.pk]
    return Game.objects.get(pk=game.pk)
