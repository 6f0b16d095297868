"""The database backend (infra.database): a pooled connection that the database closed
is replaced as it leaves the pool, and a healthy one leaves it with no query of its own."""

import time

import psycopg
import pytest
from django.db import OperationalError, connection
from django.db.backends.postgresql.base import DatabaseWrapper as DjangoWrapper
from psycopg_pool import ConnectionPool

from infra.database.base import DatabaseWrapper

pytestmark = [pytest.mark.django_db(transaction=True)]


def one_connection_pool(wrapper_class, alias):
    """A wrapper of its own over a pool of one connection, so the closed one is the one
    handed out next."""
    settings = {
        **connection.settings_dict,
        "OPTIONS": {**connection.settings_dict["OPTIONS"], "pool": {"min_size": 1, "max_size": 1}},
    }
    return wrapper_class(settings, alias=alias)


def backend_pid(wrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate(pid: int) -> None:
    """As a database restart or an administrator would end it."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params["dbname"] = "postgres"
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            gone = admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
            if gone.fetchone() is None:
                return
            time.sleep(0.05)
    raise AssertionError(f"backend {pid} did not end")


@pytest.fixture
def wrappers():
    made = []
    yield made
    for wrapper in made:
        wrapper.close()
        wrapper.close_pool()


def test_a_connection_the_database_closed_is_replaced(real_services, wrappers):
    db = one_connection_pool(DatabaseWrapper, "closed-check")
    wrappers.append(db)
    first = backend_pid(db)
    db.close()  # back to the pool
    terminate(first)
    assert backend_pid(db) != first  # a new connection, no error


def test_without_a_check_the_closed_connection_is_handed_out(real_services, wrappers):
    """What the check is for: Django's own backend, its check switched off, fails the next
    query on the connection the database closed."""
    db = one_connection_pool(DjangoWrapper, "no-check")
    wrappers.append(db)
    db.close()
    first = backend_pid(db)
    db.close()
    terminate(first)
    with pytest.raises(OperationalError):
        backend_pid(db)


def test_a_healthy_connection_leaves_the_pool_without_a_query(real_services, wrappers, monkeypatch):
    checks = []
    real_check = ConnectionPool.check_connection
    monkeypatch.setattr(
        ConnectionPool,
        "check_connection",
        staticmethod(lambda c: checks.append(c) or real_check(c)),
    )
    db = one_connection_pool(DatabaseWrapper, "healthy")
    wrappers.append(db)
    first = backend_pid(db)
    for _ in range(5):
        db.close()
        assert backend_pid(db) == first
    assert checks == []
