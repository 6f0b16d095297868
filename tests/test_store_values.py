"""A move's values go to PostgreSQL as the ORM would send them (gameplay.store looks each
field's conversion up once instead of walking the field's generic path for every value): over
a whole game, on both of a move's paths (the one conditional statement and the locked pair),
every parameter is the ORM's, of the same type, and the rows read back replay."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.db import connections
from django.utils import timezone
from psycopg.types.json import Jsonb

from gameplay import moves, services, store
from gameplay.engine import registry
from gameplay.models import Game, GameEvent
from gameplay.moves import Move

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = [
    {"name": "Ann", "user_id": None, "bot": False},
    {"name": "Ben", "user_id": None, "bot": False},
]
SHORT_WAR = "short/235"  # a two-player War that ends in 47 rounds


def _as_sent(value):
    """What a parameter sends: its type, and for JSON the value its own text reads back as."""
    if isinstance(value, Jsonb):
        text = (value.dumps or json.dumps)(value.obj)
        return ("jsonb", json.loads(text))
    return (type(value), value)


def _orms():
    return lambda field, value: field.get_db_prep_save(value, connections["default"])


def test_a_moves_values_are_the_orms_on_both_paths(real_services):
    game = services.start_game(kind="war", seats=SEATS, seed=SHORT_WAR)
    engine = registry.get("war")
    built = store.move_statements
    compared = {"conditional": 0, "locked": 0, "end": 0}

    def both_ways(event, game, fields, was=None):
        now = timezone.now()
        with mock.patch.object(timezone, "now", lambda: now):
            ours = built(event, game, fields, was)
            with mock.patch.object(store, "_converters", _orms):
                orms = built(event, game, fields, was)
        assert [sql for sql, _ in ours] == [sql for sql, _ in orms]
        for (_, sent), (_, expected) in zip(ours, orms, strict=True):
            assert [_as_sent(v) for v in sent] == [_as_sent(v) for v in expected]
        compared["conditional" if was else "locked"] += 1
        compared["end"] += "ended" in fields
        return ours

    with mock.patch.object(store, "move_statements", both_ways):
        for turn in range(1000):
            game.refresh_from_db()
            if game.is_over:
                break
            if turn % 2:
                store._latest.clear()  # no row held here: the move is decided under the lock
            state = store.load_state(game)
            seat = engine.to_act(state)[0]
            moves.submit(Move(game.pk, seat, engine.bot_action(state, seat), game.seq))

    game.refresh_from_db()
    assert game.is_over and game.ended is not None
    assert compared["conditional"] > 10 and compared["locked"] > 10 and compared["end"] == 1
    assert store.verify(game) == []
    logged = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.seq for e in logged] == list(range(1, game.seq + 1))
    assert all(e.created is not None and e.to_act is not None for e in logged)
    assert Game.objects.filter(pk=game.pk, status=Game.Status.OVER).exists()


def test_a_known_row_is_a_copy_a_move_may_change(real_services):
    game = services.start_game(kind="war", seats=SEATS, seed=SHORT_WAR)
    store.remember_row(game)
    game._state.__dict__.pop("fields_cache", None)  # as a row no relation was read through
    copied = store.known_row(game.pk)
    assert "fields_cache" not in game._state.__dict__  # the kept row is read, never written
    assert copied is not game and copied.pk == game.pk and copied.seq == game.seq
    assert copied._state is not game._state and not copied._state.adding
    copied.seq += 1
    copied.last_actions = {"0": "play"}
    copied._state.fields_cache["x"] = 1
    kept = store.latest_row(game.pk, game.seq)
    assert kept is game and kept.last_actions == {} and "x" not in kept._state.fields_cache
    copied.save(update_fields=["seq", "last_actions"])  # as the ORM saves a row it read
    game.refresh_from_db()
    assert game.seq == copied.seq
