"""A person's move from a table socket's event loop, with no thread: the statement on the
loop's own connections (cubiccards.database.loop), the shared cache written from the loop
(cubiccards.cache), the move itself (gameplay.services.submit_action_on_loop) and the table
socket that uses them, on PostgreSQL and Redis. Anything but the common move is left to the
thread path, which decides it as before: nothing is written twice or lost."""

import asyncio
import threading

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.db import connection

from cubiccards.database import loop as loop_database
from gameplay import services
from gameplay.models import Game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SEATS = [
    {"name": "Ann", "user_id": None, "bot": False},
    {"name": "Ben", "user_id": None, "bot": False},
]
SHORT_WAR = "short/235"  # a two-player War that ends in 47 rounds


# ---- the loop's own connections ---------------------------------------------------------------


def _admin() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    return psycopg.connect(**params, autocommit=True)


def _backends(marker: str) -> list[int]:
    """Connections whose last statement carried `marker`."""
    with _admin() as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE query LIKE %s AND pid <> pg_backend_pid()",
            [f"%{marker}%"],
        ).fetchall()
    return [pid for (pid,) in rows]


async def test_a_statement_on_the_loop_counts_its_rows_and_keeps_its_connection(real_services):
    game = await database_sync_to_async(services.start_game)(kind="war", seats=SEATS)
    changed = await loop_database.execute(
        "UPDATE gameplay_game SET speed_play = %s WHERE id = %s /* kept */", ["fast", game.pk]
    )
    assert changed == 1
    assert await loop_database.execute("SELECT 1 WHERE false /* kept */", []) == 0
    first = await database_sync_to_async(_backends)("kept")
    assert len(first) == 1  # the second statement went to the first one's connection
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).speed_play == "fast"


async def test_a_loop_connection_the_database_closed_is_replaced(real_services):
    await loop_database.execute("SELECT 1 /* closed-then */", [])
    [pid] = await database_sync_to_async(_backends)("closed-then")
    await database_sync_to_async(_terminate)(pid)
    assert await loop_database.execute("SELECT 1 /* closed-now */", []) == 1  # no error
    assert await database_sync_to_async(_backends)("closed-now") != [pid]


def _terminate(pid: int) -> None:
    with _admin() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            if not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
                return
            threading.Event().wait(0.05)
    raise AssertionError(f"backend {pid} did not end")


async def test_a_loop_closes_its_connections_when_it_ends(real_services):
    def on_a_loop_of_its_own():
        asyncio.run(loop_database.execute("SELECT 1 /* short-lived */", []))

    await asyncio.get_running_loop().run_in_executor(None, on_a_loop_of_its_own)
    assert await database_sync_to_async(_backends)("short-lived") == []


async def test_the_cache_sets_from_the_loop(real_services):
    await cache.aset("loop-set", {"a": [1, 2]}, 30)
    assert await database_sync_to_async(cache.get)("loop-set") == {"a": [1, 2]}
    await cache.aset("loop-set", "gone", 0)  # a timeout of 0 deletes, as Django's set does
    assert await database_sync_to_async(cache.get)("loop-set") is None
