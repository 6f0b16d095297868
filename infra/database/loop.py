"""One statement on the event loop itself, on an async psycopg connection.

A table socket's database calls run on threads (infra.scheduling.on_thread), and a move there
waited for its turn at the process's one GIL three times besides PostgreSQL's own work: the
hop to the thread, the statement's answer, and the hop back. The common move is one statement
(gameplay.moves, on the loop): here it is sent from the loop, which serves other
tables while PostgreSQL works, and its answer wakes the loop like any socket's data.

Each event loop keeps connections of its own (infra.loops): at most
settings.DB_LOOP_CONNECTIONS statements at once, idle connections kept for the next. An idle
one the database closed is replaced as it is taken, with no query (as infra.database
does for the pool).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections
from psycopg.pq import TransactionStatus

from infra.loops import PerLoop

from .base import _heard_from


class _LoopConnections:
    def __init__(self):
        self.idle: list[psycopg.AsyncConnection] = []
        self.slots = asyncio.Semaphore(settings.DB_LOOP_CONNECTIONS)

    async def execute(self, sql: str, params: list[Any]) -> int:
        async with self.slots:
            connection = await self._take()
            try:
                # Prepared: a move's statement is the same text every time, so PostgreSQL
                # plans it once per connection.
                cursor = await connection.execute(sql, params, prepare=True)
            finally:
                # Failed or cancelled mid-statement, a connection may be in any state: only
                # one that is idle and in no transaction is kept.
                if connection.info.transaction_status == TransactionStatus.IDLE:
                    self.idle.append(connection)
                else:
                    await _close(connection)
            return cursor.rowcount

    async def _take(self) -> psycopg.AsyncConnection:
        while self.idle:
            connection = self.idle.pop()
            if not _heard_from(connection):
                return connection
            await _close(connection)  # the database closed it (a restart)
        params = connections["default"].get_connection_params()
        params.pop("cursor_factory", None)  # Django's, a sync cursor
        params.setdefault("connect_timeout", 10)  # as the pool waits: a move then fails plainly
        return await psycopg.AsyncConnection.connect(**params, autocommit=True)

    async def close(self) -> None:
        while self.idle:
            await _close(self.idle.pop())


async def _close(connection: psycopg.AsyncConnection) -> None:
    with contextlib.suppress(psycopg.Error):
        await connection.close()


_connections = PerLoop(_LoopConnections, _LoopConnections.close)


async def execute(sql: str, params: list[Any]) -> int:
    """Run one statement in autocommit on this event loop's connections; the rows it changed
    (or inserted). Raises psycopg.Error as psycopg does."""
    return await _connections.get().execute(sql, params)
