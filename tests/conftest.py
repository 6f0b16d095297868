"""Shared fixtures. Tests of services, consumers and tasks run on the real PostgreSQL and Redis
that `make test` provides; a missing service fails loudly, it never skips."""

import asyncio
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# What a server process prints when something inside it failed: a test that drove it fails.
# The computer players' pause in the server processes a test starts (daphne and the worker).
BOT_DELAY = os.environ.get("BOT_DELAY", "0.05")
FAILURE_MARKERS = ("Traceback (most recent call last)", "Exception inside application")


class ServerOutput:
    """Everything a server process prints (stdout and stderr), read as it comes so the pipe
    never fills, and checked when the test is done."""

    def __init__(self, proc: subprocess.Popen, name: str):
        self.proc, self.name, self.lines = proc, name, []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    def text(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL) and read what is left."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        try:  # a child left behind (make serve's daphnes) would hold test database sessions
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._reader.join(timeout=5)

    def check(self) -> None:
        """Fail the test if the process printed a traceback."""
        text = self.text()
        if any(marker in text for marker in FAILURE_MARKERS):
            pytest.fail(f"{self.name} printed an error while the test ran:\n{text[-6000:]}")


def start_server(args: list[str], env: dict[str, str], name: str) -> ServerOutput:
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        start_new_session=True,  # its own process group: stop() ends what it started too
    )
    return ServerOutput(proc, name)


def daphne_command(port: int) -> list[str]:
    """The site's server, as `make run` and `make serve` start it."""
    return [
        sys.executable,
        "-m",
        "cubiccards.server",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "cubiccards.asgi:application",
    ]


WORKER = ["worker", "-P", "solo", "--loglevel=warning", "--without-gossip", "--without-mingle"]


def celery_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "cubiccards", *args]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(server: ServerOutput, port: int, seconds: float = 30) -> None:
    import socket

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    server.stop()
    pytest.fail(f"{server.name} did not start:\n{server.text()[-4000:]}")


# A test's event loop ends by cancelling the tasks still running on it. One that doesn't
# finish when cancelled would hang the suite with no word of which it was: after this long the
# run goes on, names the task and its stack, and fails (pytest_sessionfinish below).
CANCEL_WITHIN = 30.0
_stuck_tasks: list[str] = []


def _cancel_all_tasks(loop):
    pending = asyncio.all_tasks(loop)
    if not pending:
        return
    for task in pending:
        task.cancel()
    done, stuck = loop.run_until_complete(asyncio.wait(pending, timeout=CANCEL_WITHIN))
    for task in stuck:
        out = io.StringIO()
        task.print_stack(file=out)
        _stuck_tasks.append(f"{os.environ.get('PYTEST_CURRENT_TEST', '?')}: {out.getvalue()}")
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            loop.call_exception_handler(
                {
                    "message": "unhandled exception during the test loop's shutdown",
                    "exception": task.exception(),
                    "task": task,
                }
            )


asyncio.runners._cancel_all_tasks = _cancel_all_tasks


def pytest_sessionfinish(session, exitstatus):
    if _stuck_tasks:
        sys.stderr.write("\nTasks that did not end when cancelled:\n" + "\n".join(_stuck_tasks))
        session.exitstatus = 1


@pytest.fixture(scope="session", autouse=True)
def _clean_redis():
    """Start from an empty Redis database: no stale tasks or groups from an earlier run."""
    if settings.configured and settings.REDIS_URL:
        _flush_redis()
    yield


@pytest.fixture(autouse=True)
def _fresh_limits():
    """Every test starts with the guessing and sign-up limits unused (infra.limits): the
    suite signs in, guesses room codes and signs up far more than one client ever may."""
    from django.core.cache import cache

    client = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client is None:  # an in-process cache
        cache.clear()
    else:
        redis_client = client(write=True)
        keys = list(redis_client.scan_iter(match="*:limit:*", count=1000))
        if keys:
            redis_client.delete(*keys)
    yield


@pytest.fixture(autouse=True)
def _english_after():
    """A request's language stays active in the test's thread (LocaleMiddleware sets it; a
    server's requests each have their own): the next test starts in English again."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Every test gets its own channel layer object. A layer remembers the event loop it is
    receiving on: a socket test whose consumer was cut off mid-receive (a slow disconnect under
    load, a crash) would leave the next test's loop a lock it can never take."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


POSTGRESQL = "infra.database"  # the settings' backend for a DATABASE_URL


def _flush_redis() -> None:
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL).flushdb()
    except redis.RedisError as exc:
        pytest.fail(f"Redis at {settings.REDIS_URL} does not answer: {exc}")


def require_real_services():
    """For tests that prove something on PostgreSQL and Redis."""
    if settings.DATABASES["default"]["ENGINE"] != POSTGRESQL:
        pytest.fail("This test needs PostgreSQL: run it with `make test` (DATABASE_URL).")
    if not settings.REDIS_URL:
        pytest.fail("This test needs Redis: run it with `make test` (REDIS_URL).")


@pytest.fixture
def real_services():
    require_real_services()


@pytest.fixture
def celery_worker_process(real_services):
    """A real Celery worker process on the Redis broker, stopped after the test; the test
    fails if the worker printed a traceback."""
    _flush_redis()  # no task queued by an earlier test, for games that are gone
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "BOT_DELAY": BOT_DELAY,
    }
    worker = start_server(celery_command(*WORKER), env, "The Celery worker")
    wait_for_worker(worker)
    yield worker.proc
    worker.stop()
    worker.check()


def wait_for_worker(worker: ServerOutput, seconds: float = 60) -> None:
    """Until the worker answers a ping: a test then meets the computer players at their own
    pace from its first move, not after however long the worker takes to start."""
    from cubiccards.celery import app

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and worker.proc.poll() is None:
        if app.control.ping(timeout=0.5):
            return
    worker.stop()
    pytest.fail(f"{worker.name} did not start:\n{worker.text()[-4000:]}")


@pytest.fixture
def celery_beat_process(real_services):
    """Celery beat on the Redis broker (the clock of the sweeps, the ranked matcher and the
    Kudos upkeep), stopped after the test; the test fails if beat printed a traceback."""
    env = {**os.environ, "DATABASE_URL": _test_database_url(), "REDIS_URL": settings.REDIS_URL}
    beat = start_server(
        celery_command("beat", "--loglevel=warning"),
        env,
        "Celery beat",
    )
    yield beat.proc
    beat.stop()
    beat.check()


def _test_database_url() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"] != POSTGRESQL:
        return ""
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def daphne_env() -> dict[str, str]:
    """Extra environment for daphne_server: a test module overrides this fixture."""
    return {}


def start_daphne(
    redis_url: str, extra_env: dict[str, str] | None = None
) -> tuple[ServerOutput, str]:
    """daphne serving the site on the test database and this Redis; (server, base URL)."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": redis_url,
        "BOT_DELAY": BOT_DELAY,
        **(extra_env or {}),
    }
    server = start_server(daphne_command(port), env, f"daphne :{port}")
    wait_for_port(server, port)
    return server, f"http://127.0.0.1:{port}"


@pytest.fixture
def daphne_server(real_services, transactional_db, daphne_env):
    """daphne serving the site on the test database and Redis, as in production; the test
    fails if daphne printed a traceback."""
    server, url = start_daphne(settings.REDIS_URL, daphne_env)
    yield url
    server.stop()
    # Shown only when the test fails (pytest prints a failed test's captured output).
    print(f"--- the last of what {server.name} printed:\n{server.text()[-3000:]}")
    server.check()


class PrivateRedis:
    """A redis-server of the test's own (a port in PRIVATE_REDIS_PORTS, default 8245-8249, so
    two runs side by side pick from different ranges), to stop and start again."""

    FIRST, LAST = map(int, os.environ.get("PRIVATE_REDIS_PORTS", "8245-8249").split("-"))
    PORTS = range(FIRST, LAST + 1)

    def __init__(self, folder: Path):
        self.port = next((p for p in self.PORTS if self._free(p)), None)
        if self.port is None:
            pytest.fail(f"No free port in {self.FIRST}-{self.LAST} for a private redis-server.")
        self.folder, self.proc = folder, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    @staticmethod
    def _free(port: int) -> bool:
        import socket

        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) != 0

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while self._free(self.port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def private_redis(real_services, tmp_path):
    """A private redis-server, running; the test may stop and start it."""
    redis = PrivateRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


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


# Every browser test records the page's Content-Security-Policy violations (the browser's own
# securitypolicyviolation events, in every context and page it opens) and fails on any.
# An `eval` refused with no source file is the test's own page.evaluate (Playwright evaluates
# a string in the page), not the site's: the site's scripts all have a file.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  if (e.blockedURI === "eval" && !e.sourceFile) return;
  window.__cspViolation(
    `${e.effectiveDirective} refused ${e.blockedURI || "inline"} on ${location.pathname}` +
    ` (${e.sourceFile || "?"}:${e.lineNumber})`);
});
"""
CSP_VIOLATIONS: list[str] = []  # the whole browser run's, for its figures


@pytest.fixture(autouse=True)
def csp_violations(request, monkeypatch):
    if request.node.get_closest_marker("browser") is None:
        yield []
        return
    from playwright.sync_api import Browser

    found: list[str] = []
    opened = Browser.new_context

    def new_context(self, *args, **kwargs):
        context = opened(self, *args, **kwargs)
        context.expose_binding("__cspViolation", lambda source, what: found.append(what))
        context.add_init_script(CSP_LISTENER)
        return context

    monkeypatch.setattr(Browser, "new_context", new_context)
    yield found
    CSP_VIOLATIONS.extend(found)
    print(f"\nCSP violations: {len(found)} in this test, {len(CSP_VIOLATIONS)} in the run")
    assert found == [], "the content security policy refused:\n" + "\n".join(found)
