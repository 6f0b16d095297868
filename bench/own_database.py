"""A fresh PostgreSQL database of a benchmark's own, beside the one DATABASE_URL names, so a
benchmark never touches the site's data: created and migrated on entry, dropped on exit
unless kept."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit


def _admin(url: str, sql: str) -> None:
    import psycopg

    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(sql)


def release_connections() -> None:
    """Close every connection and pool, as before a fork (a pool's threads don't survive one)
    or before dropping the database."""
    from django.db import connections

    connections.close_all()
    for conn in connections.all():
        if getattr(conn, "pool", None):
            conn.close_pool()


@contextmanager
def own_database(suffix: str, keep: bool = False) -> Iterator[str]:
    """Set Django up on ``<name><suffix>`` and yield that name. DATABASE_URL is pointed at it,
    so processes the benchmark starts use it too."""
    url = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        sys.exit(f"{sys.argv[0]} measures PostgreSQL: set DATABASE_URL=postgres://...")
    name = parts.path.lstrip("/") + suffix
    _admin(url, f'DROP DATABASE IF EXISTS "{name}"')
    _admin(url, f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + name))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")
    import django

    django.setup()
    from django.core.management import call_command

    try:
        call_command("migrate", verbosity=0)
        yield name
    finally:
        release_connections()
        if not keep:
            _admin(url, f'DROP DATABASE IF EXISTS "{name}"')
