"""Shared fixtures. Tests of services, consumers and tasks run on the real PostgreSQL and Redis
that `make test` provides; a missing service fails loudly, it never skips."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session", autouse=True)
def _clean_redis():
    """Start from an empty Redis database: no stale tasks or groups from an earlier run."""
    if settings.configured and settings.REDIS_URL:
        import redis

        try:
            redis.Redis.from_url(settings.REDIS_URL).flushdb()
        except redis.RedisError as exc:
            pytest.fail(f"Redis at {settings.REDIS_URL} does not answer: {exc}")
    yield


def require_real_services():
    """For tests that prove something on PostgreSQL and Redis."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail("This test needs PostgreSQL: run it with `make test` (DATABASE_URL).")
    if not settings.REDIS_URL:
        pytest.fail("This test needs Redis: run it with `make test` (REDIS_URL).")


@pytest.fixture
def real_services():
    require_real_services()


@pytest.fixture
def celery_worker_process(real_services):
    """A real Celery worker process on the Redis broker, stopped after the test."""
    env = {**os.environ, "DATABASE_URL": _test_database_url(), "REDIS_URL": settings.REDIS_URL}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "cubiccards",
            "worker",
            "-P",
            "solo",
            "--loglevel=warning",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
    )
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def celery_beat_process(real_services, tmp_path):
    """Celery beat on the Redis broker (the clock of the sweeps and the ranked matcher)."""
    env = {**os.environ, "DATABASE_URL": _test_database_url(), "REDIS_URL": settings.REDIS_URL}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "cubiccards",
            "beat",
            "--loglevel=warning",
            f"--schedule={tmp_path / 'beat-schedule'}",
        ],
        cwd=ROOT,
        env=env,
    )
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _test_database_url() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        return ""
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def daphne_server(real_services, transactional_db):
    """daphne serving the site on the test database and Redis, as in production."""
    import socket

    with socket.socket() as s:
        # TEST_SERVER_PORT pins the port on a machine whose ports are shared out; else any.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", int(os.environ.get("TEST_SERVER_PORT", 0))))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "BOT_DELAY": os.environ.get("BOT_DELAY", "0.05"),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "cubiccards.asgi:application",
        ],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("daphne did not start")
    yield url
    proc.terminate()
    proc.wait(timeout=15)


# ---- browser tests: Playwright driving Debian's Chromium -----------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args():
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail(
            "Browser tests need Debian's Chromium: `apt-get install chromium` (make test does)."
        )
    return {
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }
