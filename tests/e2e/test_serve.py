"""make serve's shape (scripts/serve.sh): two daphne processes behind nginx, a Celery worker
and beat. Two people at one table, each connected to a different daphne process, play War
against a computer player whose moves come from the worker, and both see every round."""

import os
import socket
import time

import pytest
from django.conf import settings

from gameplay.models import Game
from lobby.models import Room
from tests.conftest import _test_database_url, start_server, wait_for_port

from .client import SiteClient, act, receive

pytestmark = pytest.mark.django_db(transaction=True)
ROUNDS = 6


def three_free_ports() -> int:
    """A port whose next two are free too (nginx on it, daphne on the next two)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        try:
            for p in (port, port + 1, port + 2):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
            return port
        except OSError:
            continue
    pytest.fail("no three free ports in a row")


def settle(ws, last: dict, seq: int, rounds: set) -> dict:
    """Read until the state `seq` (a flip that crossed a newer state is answered "moved on")."""
    while last.get("seq", -1) < seq:
        message = receive(ws)
        if message["type"] == "state":
            last = message
            rounds.add(message["view"]["round"])
    return last


def quiet(game: Game) -> int:
    """The game's seq once nothing has moved for a second (flips and computer turns landed)."""
    seq = -1
    while seq != game.seq:
        seq = game.seq
        time.sleep(1)
        game.refresh_from_db()
    return seq


@pytest.fixture
def serve(real_services, transactional_db):
    port = three_free_ports()
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "PORT": str(port),
        "DAPHNES": "2",
        "CELERY_CONCURRENCY": "1",
        "BOT_DELAY": "0.05",
    }
    server = start_server(["bash", "scripts/serve.sh"], env, "make serve")
    for p in (port, port + 1, port + 2):
        wait_for_port(server, p, seconds=60)
    yield port
    server.stop()
    server.check()


def test_two_daphne_processes_one_table_computer_moves_from_the_worker(serve):
    site = f"http://127.0.0.1:{serve}"  # nginx
    host, guest = SiteClient(site), SiteClient(site)
    code = host.create_room()
    guest.post("/rooms/join/", {"code": code})
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "3"})  # seat 2: the computer
    game = Game.objects.get(pk=Room.objects.get(code=code, is_open=True).game_id)

    first, second = f"http://127.0.0.1:{serve + 1}", f"http://127.0.0.1:{serve + 2}"
    with (
        host.socket(code, base=first) as a,
        guest.socket(code, base=second) as b,
        host.socket(code) as tab,  # the host's second tab, through nginx's WebSocket upgrade
    ):
        people = {0: a, 1: b}
        rounds = {0: set(), 1: set()}
        latest, flipped = {0: {}, 1: {}}, {0: set(), 1: set()}
        deadline = time.monotonic() + 60
        while min(s.get("view", {}).get("round", 0) for s in latest.values()) <= ROUNDS:
            assert time.monotonic() < deadline, f"the table stalled: {latest}"
            for seat, ws in people.items():
                try:
                    message = receive(ws, timeout=0.1)
                except TimeoutError:
                    continue
                if message["type"] == "error":  # a flip crossed the last round's, or a newer state
                    said = message["message"]
                    assert "moved on" in said or said == "The game is over.", message
                    continue
                latest[seat] = message
                rounds[seat].add(message["view"]["round"])
                if message["over"]:
                    break
                wanted = seat in message["to_act"] and {"type": "flip"} in message["legal"]
                if wanted and message["seq"] not in flipped[seat]:
                    flipped[seat].add(message["seq"])
                    act(ws, {"type": "flip"}, message["seq"])
            if any(s.get("over") for s in latest.values()):
                break
        # Nobody flips now: once the table is quiet, every socket settles on its last state.
        final = quiet(game)
        for seat, ws in people.items():
            latest[seat] = settle(ws, latest[seat], final, rounds[seat])
        seen_by_tab = settle(tab, {}, final, set())

    assert latest[0]["seq"] == latest[1]["seq"] == seen_by_tab["seq"] == game.seq
    last_round = latest[0]["view"]["round"]
    for seat in people:  # each person saw the table after every round, wherever they sat
        assert set(range(1, last_round + 1)) <= rounds[seat], (seat, rounds[seat])
    by_bot = game.log.filter(by_bot=True)
    assert by_bot.count() >= ROUNDS and set(by_bot.values_list("seat", flat=True)) == {2}
