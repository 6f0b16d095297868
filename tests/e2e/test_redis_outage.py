"""Redis down for about 10 seconds under a live table: pages that need it say the tables are
unavailable (503, never a 500) and try again by themselves; sockets close with 4503 (JSON
clients get a sentence first; the table page reloads into the "unavailable" page); afterwards
pages and sockets work again and the game goes on from its log. A private redis-server (a port
in 8245-8249) is stopped and started again."""

import time
import urllib.error

import pytest
from websockets.exceptions import ConnectionClosed

from ..conftest import start_daphne
from .client import SiteClient, act, receive

pytestmark = pytest.mark.django_db(transaction=True)


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


def _closed_with(ws, timeout: float = 30) -> int:
    """The close code of a socket that should close by itself (anything it says first is
    skipped)."""
    deadline = time.monotonic() + timeout
    with pytest.raises(ConnectionClosed) as closed:
        while time.monotonic() < deadline:
            ws.recv(timeout=max(0.1, deadline - time.monotonic()))
    return closed.value.rcvd.code


def test_tables_say_unavailable_while_redis_is_down_and_recover(private_redis):
    server, base = start_daphne(private_redis.url)
    try:
        person = SiteClient(base)
        code = person.post("/play/war/", {"seats": "2"}).strip("/").split("/")[-1]
        # A signed-in person's other sockets: the header's Kudos and a ranked waiting page.
        member = SiteClient(base)
        member.sign_up("outage")
        with (
            person.socket(code) as ws,
            member.socket_at("/ws/kudos/") as kudos_ws,
            member.socket_at("/ws/queue/poker/?format=json") as queue_ws,
        ):
            assert receive(ws)["seq"] == 0
            assert "kudos" in kudos_ws.recv(timeout=20)
            assert receive(queue_ws)["type"] == "queue"
            private_redis.stop()
            down_at = time.monotonic()
            said = receive(ws, timeout=30)
            assert said["type"] == "error" and "unavailable right now" in said["message"], said
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd.code == 4503  # the page reloads into "unavailable"
            # The others close the same way, not with 1011 and a traceback (server.check()).
            assert _closed_with(kudos_ws) == 4503
            assert _closed_with(queue_ws) == 4503

        # This process holds the table's state in memory, and still says it is unavailable.
        status, page = _page(person, f"/rooms/{code}/")
        assert status == 503, page
        assert "The tables are unavailable right now" in page
        assert "tries again by itself" in page and 'http-equiv="refresh"' in page

        time.sleep(max(0.0, 10 - (time.monotonic() - down_at)))  # down for 10 seconds
        private_redis.start()
        deadline = time.monotonic() + 20
        while (status := _page(person, f"/rooms/{code}/")[0]) != 200:
            assert time.monotonic() < deadline, f"the room page still answers {status}"
            time.sleep(0.5)
        assert _first_state(person, code)["seq"] >= 0
        with person.socket(code) as ws:
            state = receive(ws)
            act(ws, {"type": "flip"}, state["seq"])
            while (state := receive(ws))["type"] != "state" or state["seq"] == 0:
                pass
            assert state["seq"] >= 1  # the game goes on from its log
    finally:
        server.stop()
    server.check()
