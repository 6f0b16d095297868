"""Redis down for about 10 seconds under a live table: pages that need it say the tables are
unavailable (503, never a 500) and try again by themselves; sockets close with 4503 (JSON
clients get a sentence first; the table page reloads into the "unavailable" page); afterwards
pages and sockets work again and the game goes on from its log. A private redis-server (port 8245-8249) is stopped and restarted."""

import os
import socket
import subprocess
import sys
import time
import urllib.error

import pytest
from websockets.exceptions import ConnectionClosed

from ..conftest import _test_database_url, free_port, start_server, wait_for_port
from .client import SiteClient, act, receive

pytestmark = pytest.mark.django_db(transaction=True)
PORTS = range(8245, 8250)


def _free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


class PrivateRedis:
    def __init__(self, tmp_path):
        self.port = next((p for p in PORTS if _free(p)), None)
        if self.port is None:
            pytest.fail("No free port in 8245-8249 for a private redis-server.")
        self.dir, self.proc = tmp_path, None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while _free(self.port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def redis_down_and_up(real_services, tmp_path):
    redis = PrivateRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


def _daphne(redis: PrivateRedis):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": f"redis://127.0.0.1:{redis.port}/0",
        "BOT_DELAY": "0.05",
    }
    args = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    server = start_server([*args, "cubiccards.asgi:application"], env, f"daphne :{port}")
    wait_for_port(server, port)
    return server, f"http://127.0.0.1:{port}"


def _page(client: SiteClient, path: str) -> tuple[int, str]:
    try:
        response = client.get(path)
    except urllib.error.HTTPError as error:
        response = error
    return response.status, response.read().decode()


def _first_state(person: SiteClient, code: str) -> dict:
    """A socket's first state, reconnecting as a browser does while a process's old
    connections to Redis are found dead (each such try closes with 4503)."""
    deadline = time.monotonic() + 20
    while True:
        with person.socket(code) as ws:
            first = receive(ws)
        if first["type"] == "state":
            return first
        assert "unavailable right now" in first["message"], first
        assert time.monotonic() < deadline, "the socket did not recover"
        time.sleep(1)


def test_tables_say_unavailable_while_redis_is_down_and_recover(redis_down_and_up):
    redis = redis_down_and_up
    first, base = _daphne(redis)
    servers = [first]
    try:
        person = SiteClient(base)
        code = person.post("/play/war/", {"seats": "2"}).strip("/").split("/")[-1]
        with person.socket(code) as ws:
            assert receive(ws)["seq"] == 0
            redis.stop()
            down_at = time.monotonic()
            said = receive(ws, timeout=30)
            assert said["type"] == "error" and "unavailable right now" in said["message"], said
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd.code == 4503  # the page reloads into "unavailable"

        # A daphne process that has no copy of the table (another one behind the proxy).
        second, other = _daphne(redis)
        servers.append(second)
        person.base = other
        status, page = _page(person, f"/rooms/{code}/")
        assert status == 503, page
        assert "The tables are unavailable right now" in page
        assert "tries again by itself" in page and 'http-equiv="refresh"' in page

        time.sleep(max(0.0, 10 - (time.monotonic() - down_at)))  # down for 10 seconds
        redis.start()
        deadline = time.monotonic() + 20
        while (status := _page(person, f"/rooms/{code}/")[0]) != 200:
            assert time.monotonic() < deadline, f"the room page still answers {status}"
            time.sleep(0.5)
        for where in (other, base):  # both processes' sockets work again
            person.base = where
            assert _first_state(person, code)["seq"] >= 0
        with person.socket(code) as ws:
            state = receive(ws)
            act(ws, {"type": "flip"}, state["seq"])
            while (state := receive(ws))["seq"] == 0 or state["type"] != "state":
                pass
            assert state["seq"] >= 1  # the game goes on from its log
    finally:
        for server in servers:
            server.stop()
    for server in servers:
        server.check()
