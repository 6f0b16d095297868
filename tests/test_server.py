"""The site's server (cubiccards.server) as a process: it stops when told to, and collects
garbage as a long-lived server should."""

import json
import os
import signal
import subprocess
import sys
import urllib.request

from cubiccards.server import GC_THRESHOLDS
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
    finally:
        server.stop()
