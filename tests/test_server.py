"""The site's server stops when told to (SIGTERM, as `make serve`'s Ctrl-C sends), even with a
request still waiting in a thread on the event loop: Python's exit waits for such threads, and
that one would wait forever."""

import os
import signal
import subprocess
import sys
import urllib.request

from tests.conftest import ROOT, free_port, start_server, wait_for_port


def _serve(port: int):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "cubiccards.server", "-b", "127.0.0.1", "-p", str(port)]
    return start_server([*args, "tests.stuck_app:application"], env, "daphne")


def test_the_server_stops_on_sigterm_with_a_request_waiting_on_the_loop():
    port = free_port()
    server = _serve(port)
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
