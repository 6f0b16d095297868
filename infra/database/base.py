"""PostgreSQL as Django has it, with the pool's health check made free.

Django's pool check (CONN_HEALTH_CHECKS) sends an empty query every time a connection leaves
the pool, and a table socket takes one for every move: a round trip as long as the move's own
statement. A connection the database closed (a restart, an administrator) has heard from it
already: the server says why and closes the socket, so the idle socket reads as ready. Only
then is the connection checked with a query, and replaced if it fails.
"""

import select
import weakref

import psycopg
from django.db.backends.postgresql import base
from django.db.utils import DatabaseErrorWrapper
from django.utils.functional import cached_property
from psycopg_pool import ConnectionPool


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Django's connections are per context, so every page (each has a context of its own)
        # makes a wrapper, and its parts point back at it: a cycle for the garbage collector,
        # on the event loop's time (docs/performance.md). Held weakly, the wrapper goes when
        # its context does; Django reaches a part through its wrapper (`connection.ops`), so
        # the wrapper is alive wherever a part is used.
        this = weakref.proxy(self)
        for part in (
            self.client,
            self.creation,
            self.features,
            self.introspection,
            self.ops,
            self.validation,
        ):
            part.connection = this

    @cached_property
    def wrap_database_errors(self):
        return DatabaseErrorWrapper(weakref.proxy(self))

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if self.pool is None:
            return connection
        for _ in range(self.pool.max_size):  # after a restart every idle one may be gone
            if not _heard_from(connection):
                return connection
            try:
                ConnectionPool.check_connection(connection)
                return connection
            except psycopg.Error:
                connection.close()
                self.pool.putconn(connection)  # a closed connection leaves the pool
                connection = super().get_new_connection(conn_params)
        return connection


def _heard_from(connection) -> bool:
    """Whether an idle connection has something to read: the server closed it, or said
    something unasked (a notice)."""
    if connection.closed:
        return True
    # poll, not select: select() refuses a descriptor above 1023, and a process holding a
    # thousand sockets opens its database connections there.
    poller = select.poll()
    poller.register(connection.fileno(), select.POLLIN)
    return bool(poller.poll(0))
