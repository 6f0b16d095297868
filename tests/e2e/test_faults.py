"""Faults on the production shape: daphne killed mid-game, a seat whose person never comes
back after it, a Celery worker killed with a computer turn due, Redis restarted. Each process
is started here (so it can be killed and started again) and must print no traceback."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import signal
import subprocess
import time

import pytest
import websockets
from django.conf import settings

from gameplay import store
from gameplay.models import Game, GameEvent
from lobby.models import Room

from ..conftest import (
    WORKER,
    ServerOutput,
    _test_database_url,
    celery_command,
    daphne_command,
    free_port,
    start_server,
    wait_for_port,
)
from .client import SiteClient

pytestmark = pytest.mark.django_db(transaction=True)

# Short clocks, so a fault's consequences show within seconds.
FAST = {
    "PRESENCE_BEAT": "1",
    "PRESENCE_TTL": "3",
    "PRESENCE_SWEEP": "1",
    "RECONNECT_GRACE": "3",
    "BOT_DELAY": "0.05",
    "SOCKET_RATE": "1000",
    "SOCKET_BURST": "1000",
}
FIGURES: dict[str, float] = {}


class Site:
    """daphne, a Celery worker and Celery beat on the test database, each killable and
    restartable; all are stopped, and their output checked, at the end."""

    def __init__(self, redis_url: str, **env):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            **FAST,
            **env,
            "DATABASE_URL": _test_database_url(),
            "REDIS_URL": redis_url,
        }
        self.running: dict[str, ServerOutput] = {}
        self.finished: list[ServerOutput] = []

    def _args(self, name: str) -> list[str]:
        return {
            "daphne": daphne_command(self.port),
            "worker": celery_command(*WORKER),
            "beat": celery_command("beat", "--loglevel=warning"),
        }[name]

    def start(self, *names: str) -> None:
        for name in names:
            self.running[name] = start_server(self._args(name), self.env, name)
            if name == "daphne":
                wait_for_port(self.running[name], self.port)

    def kill(self, name: str) -> None:
        """SIGKILL: nothing of the process's own shutdown runs."""
        server = self.running.pop(name)
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        server.stop()
        self.finished.append(server)

    def close(self, redis_outage: bool = False) -> None:
        for name in list(self.running):
            server = self.running.pop(name)
            server.stop()
            self.finished.append(server)
        for server in self.finished:
            if redis_outage:  # the one traceback an outage may print: see below
                server.lines = _without_redis_outage(server.lines)
            server.check()


def _without_redis_outage(lines: list[str]) -> list[str]:
    """A server's output less the tracebacks Redis's outage itself causes. daphne closes the
    sockets whose channel layer lost Redis with 1011 (which browsers and clients reconnect
    after) and logs the error with its traceback; a close code that makes clients reconnect
    can only be sent that way (autobahn lets an application close with 1000 or 3000-4999
    only). Celery and kombu log what they could not send to the broker meanwhile (a task's
    retry, a reject) with theirs: such a record goes when the last error in it is Redis being
    unreachable. Any other error stays, and so does a consumer's "Unrecoverable error"."""
    text, kept = "".join(lines), []
    for block in text.split("Exception inside application: "):
        if kept and "redis.exceptions.ConnectionError" in block:
            block = block[block.rfind("redis.exceptions.ConnectionError") :].split("\n", 1)[-1]
        kept.append(block)
    text = "".join(kept)
    starts = [0, *(m.start() for m in LOG_RECORD.finditer(text)), len(text)]
    records = [text[a:b] for a, b in itertools.pairwise(starts)]
    return [r for r in records if not _outage_record(r)]


LOG_RECORD = re.compile(r"^\[\d{4}-\d\d-\d\d [^\]]*\] ", re.MULTILINE)
ERROR_LINE = re.compile(r"^[\w.]+(Error|Exception|Reject)\b.*$", re.MULTILINE)
UNREACHABLE = ("connecting to 127.0.0.1", "Connection closed by server", "Connection reset by peer")


def _outage_record(record: str) -> bool:
    errors = [m.group(0) for m in ERROR_LINE.finditer(record)]
    return (
        bool(errors)
        and "Unrecoverable error" not in record
        and any(m in errors[-1] for m in UNREACHABLE)
    )


@pytest.fixture
def site(real_services, transactional_db):
    made = []

    def make(redis_url: str = settings.REDIS_URL, **env) -> Site:
        made.append(Site(redis_url, **env))
        return made[-1]

    yield make
    for one in made:
        one.close(redis_outage=one.env["REDIS_URL"] != settings.REDIS_URL)


def _connect(client: SiteClient, code: str, seconds: float = 30):
    """The table socket, retried while the server is coming back."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return client.socket(code)
        except (OSError, websockets.InvalidHandshake):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


class Seat:
    """A program at a seat that flips whenever asked, each flip with an id, and sends an
    unanswered flip again (same id) after reconnecting, as docs/protocol.md says is safe."""

    def __init__(self, client: SiteClient, code: str, seat: int):
        self.client, self.code, self.seat = client, code, seat
        self.ids = itertools.count()
        self.acked: dict[str, int] = {}
        self.pending: dict | None = None
        self.state: dict | None = None
        self.ws = None

    def open(self) -> None:
        self.ws = _connect(self.client, self.code)
        if self.pending is not None:  # not acknowledged before the server went: again
            self.ws.send(json.dumps(self.pending))

    def pump(self, timeout: float = 0.05) -> bool:
        """Read what came; act if asked. False once the connection is gone."""
        try:
            while True:
                message = json.loads(self.ws.recv(timeout=timeout))
                if message["type"] == "ack":
                    self.acked[message["id"]] = message["seq"]
                    if self.pending and self.pending["id"] == message["id"]:
                        self.pending = None
                elif message["type"] == "state":
                    self.state = message
                timeout = 0.001
        except TimeoutError:
            pass
        except websockets.ConnectionClosed:
            return False
        state = self.state
        if self.pending is None and state and not state["over"] and state["legal"]:
            self.pending = {
                "type": "act",
                "action": state["legal"][0],
                "seq": state["seq"],
                "id": f"{self.seat}-{next(self.ids)}",
            }
            self.state = None  # act once per state seen
            with contextlib.suppress(websockets.ConnectionClosed):
                self.ws.send(json.dumps(self.pending))
        return True


def _two_at_war(base: str) -> tuple[str, list[Seat]]:
    host, guest = SiteClient(base), SiteClient(base)
    code = host.create_room()
    guest.post("/rooms/join/", {"code": code})
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
    seats = [Seat(host, code, 0), Seat(guest, code, 1)]
    for seat in seats:
        seat.open()
    return code, seats


def _play(seats: list[Seat], acks: int) -> None:
    """Until `acks` more actions are acknowledged (or the connection goes)."""
    goal = sum(len(s.acked) for s in seats) + acks
    deadline = time.monotonic() + 60
    while sum(len(s.acked) for s in seats) < goal:
        assert time.monotonic() < deadline, "the table stopped answering"
        if not all(seat.pump() for seat in seats):
            return


def test_daphne_killed_mid_game_loses_no_acknowledged_action(site):
    web = site()
    web.start("daphne")
    code, seats = _two_at_war(web.base)
    _play(seats, 10)
    for seat in seats:  # both flip, and the server dies before it can answer them all
        seat.pump(timeout=0)
    web.kill("daphne")
    web.start("daphne")
    for seat in seats:
        seat.open()
    _play(seats, 10)
    for seat in seats:
        seat.ws.close()
    time.sleep(1)  # flips still on their way are written or refused
    game = Game.objects.get(pk=Room.objects.get(code=code, is_open=True).game_id)
    assert store.verify(game) == []  # the log replays, seq 1..N with no gap
    logged = dict(
        GameEvent.objects.filter(game=game).exclude(action_id="").values_list("action_id", "seq")
    )
    for seat in seats:
        for action_id, seq in seat.acked.items():
            assert logged.get(action_id) == seq, f"acknowledged action {action_id} was lost"
    FIGURES["acknowledged"] = sum(len(s.acked) for s in seats)
    print(f"\nfault: {FIGURES}")


def _presence_of(ws, seat: int, want: str, seconds: float) -> float:
    """Seconds until a state shows `seat`'s presence as `want`."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            message = json.loads(ws.recv(timeout=1))
        except TimeoutError:
            continue
        if message["type"] == "state" and message["seats"][seat]["presence"] == want:
            return time.monotonic() - started
    pytest.fail(f"seat {seat} never showed {want!r} within {seconds} s")


def test_a_seat_whose_server_died_is_handed_to_the_computer(site):
    """The guest's server is killed and the guest never comes back: disconnect() never ran,
    yet their presence expires and the computer takes the seat within the grace period."""
    web = site()
    web.start("daphne", "worker", "beat")
    code, (host, guest) = _two_at_war(web.base)
    _play([host, guest], 4)
    web.kill("daphne")
    web.start("daphne")
    killed = time.monotonic()
    with _connect(host.client, code) as ws:
        handed = _presence_of(ws, 1, "computer", seconds=30)
    after = time.monotonic() - killed
    limit = (
        float(FAST["PRESENCE_TTL"])
        + float(FAST["RECONNECT_GRACE"])
        + 2 * float(FAST["PRESENCE_SWEEP"])
    )
    assert after <= limit + 3, f"the seat was handed over after {after:.1f} s"
    FIGURES["handover_seconds"] = round(after, 1)
    print(f"\nfault: {FIGURES}")
    assert handed >= 0 and Room.objects.get(code=code).game.seats[1]["bot"]


def test_a_killed_worker_does_not_stall_the_computer(site):
    """The worker dies with a computer turn due; after a new worker starts, the stalled-game
    sweep sends the turn again and the computer moves."""
    web = site(BOT_DELAY="2")  # the turn waits in the worker when it is killed
    web.start("daphne", "worker", "beat")
    host = SiteClient(web.base)
    code = host.create_room()
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
    with _connect(host, code) as ws:
        state = json.loads(ws.recv(timeout=10))
        ws.send(json.dumps({"type": "act", "action": {"type": "flip"}, "seq": state["seq"]}))
        while json.loads(ws.recv(timeout=10)).get("seq", 0) < 1:
            pass
        time.sleep(0.5)
        web.kill("worker")
        web.start("worker")
        restarted = time.monotonic()
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "state" and message["seq"] >= 2:
                break
    moved = time.monotonic() - restarted
    FIGURES["computer_moved_after_worker_restart_seconds"] = round(moved, 1)
    print(f"\nfault: {FIGURES}")
    assert moved < 45  # the sweep's stall limit (15 s) plus its interval (10 s), and slack


@pytest.fixture
def private_redis(tmp_path):
    """A redis-server of this test's own (port 8230-8239), which the test restarts."""
    port = next(p for p in range(8230, 8240) if _free(p))
    args = [
        "redis-server",
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(tmp_path),
    ]
    holder = {"proc": subprocess.Popen(args, stdout=subprocess.DEVNULL)}

    def restart(down_for: float) -> None:
        holder["proc"].terminate()
        holder["proc"].wait()
        time.sleep(down_for)
        holder["proc"] = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        _wait_redis(port)

    _wait_redis(port)
    yield f"redis://127.0.0.1:{port}/0", restart
    holder["proc"].terminate()
    holder["proc"].wait()


def _free(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def _wait_redis(port: int) -> None:
    import redis

    for _ in range(50):
        with contextlib.suppress(redis.RedisError):
            if redis.Redis(port=port).ping():
                return
        time.sleep(0.1)
    pytest.fail("the private redis-server did not start")


def test_tables_recover_after_redis_restarts(site, private_redis):
    """Redis (channel layer, cache, broker) restarts mid-game: sockets close with 4503 and
    the clients reconnect; once Redis is back the table plays on with nothing lost. Two
    people play, so no Celery worker is involved (see docs/reliability.md)."""
    redis_url, restart = private_redis
    web = site(redis_url)
    web.start("daphne")
    code, seats = _two_at_war(web.base)
    _play(seats, 6)
    restart(down_for=3)
    restarted = time.monotonic()
    deadline = restarted + 60
    goal = sum(len(s.acked) for s in seats) + 6
    while sum(len(s.acked) for s in seats) < goal:
        assert time.monotonic() < deadline, "the table did not recover after Redis restarted"
        for seat in seats:
            if not seat.pump():
                time.sleep(0.5)
                with contextlib.suppress(OSError, websockets.InvalidHandshake):
                    seat.open()
    FIGURES["recovered_after_redis_restart_seconds"] = round(time.monotonic() - restarted, 1)
    print(f"\nfault: {FIGURES}")
    for seat in seats:
        seat.ws.close()
    time.sleep(1)
    game = Game.objects.get(pk=Room.objects.get(code=code, is_open=True).game_id)
    assert store.verify(game) == []
    logged = set(GameEvent.objects.filter(game=game).values_list("action_id", flat=True))
    assert all(action_id in logged for seat in seats for action_id in seat.acked)


def test_the_computer_plays_on_after_redis_restarts(site, private_redis):
    """Redis (the broker too) restarts while a person plays the computer: once it is back,
    the Celery worker takes the computer's turns again by itself."""
    redis_url, restart = private_redis
    web = site(redis_url)
    web.start("daphne", "worker", "beat")
    host = SiteClient(web.base)
    code = host.create_room()
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
    seat = Seat(host, code, 0)
    seat.open()
    _play([seat], 4)  # each of my flips waits for the computer's: it is playing
    restart(down_for=3)
    restarted = time.monotonic()
    deadline = restarted + 60
    goal = len(seat.acked) + 6
    while len(seat.acked) < goal:
        assert time.monotonic() < deadline, "the computer stopped after Redis restarted"
        if not seat.pump():
            time.sleep(0.5)
            with contextlib.suppress(OSError, websockets.InvalidHandshake):
                seat.open()
    FIGURES["computer_played_on_after_redis_restart_seconds"] = round(
        time.monotonic() - restarted, 1
    )
    print(f"\nfault: {FIGURES}")
    seat.ws.close()
    time.sleep(1)
    game = Game.objects.get(pk=Room.objects.get(code=code, is_open=True).game_id)
    assert store.verify(game) == []
    assert game.log.filter(by_bot=True).count() >= 6
