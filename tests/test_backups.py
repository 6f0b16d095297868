"""A backup is known to restore: `make backup` dumps a database holding games, ratings and
Kudos ledger entries (pg_dump, custom format), `make restore` loads it into a fresh database,
and there verify_ledger and verify_game (every game) pass and every count matches."""

import os
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.models import RatingChange
from gameplay import hooks, services
from kudos.models import Entry
from tests.played import person_pace, played_out

from .conftest import ROOT, _test_database_url

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = [
    "accounts_user",
    "accounts_gamestat",
    "accounts_gamerecord",
    "accounts_rating",
    "accounts_ratingchange",
    "gameplay_game",
    "gameplay_gameevent",
    "gameplay_gameendreceipt",
    "kudos_account",
    "kudos_entry",
]


def counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def run(command: list[str], **env: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        command, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture
def fresh_database():
    """An empty database beside the test database, dropped afterwards."""
    name = settings.DATABASES["default"]["TEST"]["NAME"] + "_restored"
    admin = _test_database_url().rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield admin.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_backup_restores_into_a_fresh_database_and_verifies(
    real_services, tmp_path, fresh_database
):
    users = get_user_model().objects
    ann, bob = (users.create_user(n, password="x-Long-pass-77") for n in ("ann", "bob"))
    seats = [{"name": "ann", "user_id": ann.pk}, {"name": "bob", "user_id": bob.pk}]
    with person_pace(2.0):  # played at a person's pace: the games pay Kudos
        for n in range(2):
            played_out(services.start_game(kind="war", seats=seats, seed=f"short/23{5 + n}"))
        ranked = played_out(
            services.start_game(kind="poker", seats=seats, seed="backup", ranked=True)
        )
    assert ranked.is_over and hooks.undelivered() == []
    assert RatingChange.objects.filter(game=ranked).count() == 2
    assert Entry.objects.count() > 0
    source = _test_database_url()
    before = counts(source)

    made = run(["make", "-s", "backup"], DATABASE_URL=source, BACKUP_DIR=str(tmp_path))
    [dump] = list(tmp_path.glob("cubiccards-*.dump"))
    assert made.stdout.strip().endswith(dump.name) and dump.stat().st_size > 0
    run(["make", "-s", "restore", f"FILE={dump}"], RESTORE_DATABASE_URL=fresh_database)

    assert counts(fresh_database) == before
    manage = [sys.executable, "manage.py"]
    ledger = run([*manage, "verify_ledger"], DATABASE_URL=fresh_database)
    assert "Kudos ledger OK" in ledger.stdout
    games = run([*manage, "verify_game", "--all"], DATABASE_URL=fresh_database)
    assert f"All {before['gameplay_game']} games verify" in games.stdout
    print(f"\nbackup drill: {dump.stat().st_size} bytes, counts {before}")
