"""The site's server (cubiccards.server) as a process: it stops when told to, collects
garbage as a long-lived server should, and takes bursts of connections."""

import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from websockets.sync.client import connect

from cubiccards.server import (
    BACKLOG,
    CONNECT_TIMEOUT,
    GC_THRESHOLDS,
    SWITCH_INTERVAL,
    CollectionLog,
)
from tests.conftest import ROOT, free_port, start_server, wait_for_port


def _serve(port: int, app: str):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "cubiccards.server", "-b", "127.0.0.1", "-p", str(port)]
    return start_server([*args, f"tests.server_apps:{app}"], env, "daphne")


def test_the_server_stops_on_sigterm_with_a_request_waiting_on_the_loop():
    """SIGTERM (as `make serve`'s Ctrl-C sends) ends the process even with a thread waiting
    on the event loop: Python's exit waits for such threads, and that one would wait forever."""
    port = free_port()
    server = _serve(port, "waits_on_the_loop")
    try:
        wait_for_port(server, port)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.read() == b"waiting"
        server.proc.send_signal(signal.SIGTERM)
        try:
            code = server.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            code = None
        assert code == 0, f"daphne did not exit after SIGTERM:\n{server.text()[-3000:]}"
    finally:
        server.stop()


def test_what_the_server_started_with_is_frozen_out_of_collections():
    port = free_port()
    server = _serve(port, "garbage_collection")
    try:
        wait_for_port(server, port)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            state = json.loads(response.read())
        assert state["frozen"] > 10_000  # the interpreter, daphne and the application
        assert tuple(state["thresholds"]) == GC_THRESHOLDS
        assert state["switch_interval"] == SWITCH_INTERVAL  # the loop waits less for the GIL
    finally:
        server.stop()


def test_gc_log_prints_a_collection_of_a_millisecond_or_more_and_not_a_shorter_one(capsys):
    log = CollectionLog()
    log("start", {"generation": 1})
    log("stop", {"generation": 1, "collected": 3, "uncollectable": 0})
    assert capsys.readouterr().err == ""
    log("start", {"generation": 0})
    end = time.thread_time() + 0.002
    while time.thread_time() < end:  # a collection's CPU time, as long as a slow one's
        pass
    log("stop", {"generation": 0, "collected": 7, "uncollectable": 0})
    line = capsys.readouterr().err
    assert " generation 0 wall " in line and " freed 7 on MainThread" in line
    assert float(line.split(" cpu ")[1].split(" ms")[0]) >= 2.0


def test_a_burst_of_connections_waits_in_the_queue_while_the_loop_is_busy():
    """An arena's pairing opens every new table's sockets at once. With the listening queue at
    Twisted's 50, the connections past it were dropped while the event loop was busy and nginx
    saw them reset; the server listens with BACKLOG."""
    port = free_port()
    server = _serve(port, "holds_the_loop")
    burst = []
    try:
        wait_for_port(server, port)
        busy = threading.Thread(
            target=lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=20).read()
        )
        busy.start()
        time.sleep(1)  # the loop is held now
        for _ in range(300):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            burst.append(sock)
        # Connections the kernel queues for the busy server complete their handshake at once;
        # one past the queue gets no answer to its SYN until the server accepts again.
        # (poll, not select: a long suite's process may hold more than select's 1,024 files)
        with selectors.DefaultSelector() as waiting:
            for sock in burst:
                waiting.register(sock, selectors.EVENT_WRITE)
            connected = waiting.select(1.5)
        busy.join()
        assert len(connected) == 300, f"{len(connected)} of 300 connected (backlog {BACKLOG})"
    finally:
        for sock in burst:
            sock.close()
        server.stop()


def test_a_websocket_may_take_longer_than_five_seconds_to_be_accepted():
    """daphne's command line refuses a socket not accepted within 5 s (a 403): a room socket's
    first reads waited that long for a database connection in a burst."""
    port = free_port()
    server = _serve(port, "accepts_slowly")
    try:
        wait_for_port(server, port)
        with connect(f"ws://127.0.0.1:{port}/", open_timeout=CONNECT_TIMEOUT) as ws:
            assert ws.recv(timeout=5) == "accepted"
    finally:
        server.stop()


def _poker_tables_built_on_import(env: dict[str, str]) -> bool:
    probe = (
        "import cubiccards.asgi; from gameplay.engine.games.poker import holds; "
        "print(bool(holds._tables))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip() == "True"


def test_an_embedded_server_builds_the_computer_players_tables_as_it_starts():
    """Embedded (no Redis: no worker), computer turns are played in the server process: its
    application builds their tables at once, as a worker does; with a worker, it doesn't."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "cubiccards.settings"}
    embedded = {k: v for k, v in env.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    assert _poker_tables_built_on_import(embedded)
    assert not _poker_tables_built_on_import({**env, "REDIS_URL": "redis://127.0.0.1:6379/9"})
