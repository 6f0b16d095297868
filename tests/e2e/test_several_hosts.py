"""Several hosts for real (tests/e2e/hosts.py): network namespaces web1 and web2 (two daphne
processes each) and worker (Celery worker and beat), each reaching PostgreSQL and Redis at a
link address, with nginx in front. A table whose two people sit on different hosts plays War
to the end, a computer player's moves coming from the worker host; then at a second table web1
is killed, its sockets reconnect through nginx to web2 and the game ends with nothing lost.

Skipped only where namespaces can't be made (not root, no `ip netns`); `make test` runs as
root on the project's machines, so there it runs. Namespaces, links, forwarders and processes
are removed at the end, whatever happened."""

from __future__ import annotations

import contextlib
import itertools
import json
import signal
import time

import pytest
import websockets
from django.conf import settings

from gameplay import store
from gameplay.models import Game, GameEvent
from lobby.models import Room
from tests.conftest import _test_database_url

from .client import SiteClient
from .hosts import Hosts, available

WHY_NOT = available()
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(WHY_NOT is not None, reason=f"several hosts: {WHY_NOT}"),
]

ENV = {"BOT_DELAY": "0.05", "SOCKET_RATE": "1000", "SOCKET_BURST": "1000"}
SEATS = "3"  # two people and a computer player, whose moves come from the worker host
ROUNDS = "50"  # War's quick length: the game ends within the test
# The test's own bound: its tables played within this many seconds or it fails (it takes
# 15-50 s on a 2-core machine, busy or not); the hosts' start and stop wait 60 s at most each.
PLAY_WITHIN = 90
FIGURES: dict[str, float] = {}


@pytest.fixture
def hosts(real_services, transactional_db):
    built = Hosts(_test_database_url(), settings.REDIS_URL, daphnes=2, **ENV).up()
    try:
        yield built
    finally:
        finished = built.down()
    for server in finished:  # no traceback anywhere (a killed process prints none)
        server.check()


class Seat:
    """A program at a seat that acts whenever asked, each action with an id, and sends an
    unacknowledged one again (same id) after reconnecting, as docs/protocol.md says is safe."""

    def __init__(self, client: SiteClient, code: str, seat: int, url: str):
        self.client, self.code, self.seat, self.url = client, code, seat, url
        self.ids = itertools.count()
        self.acked: dict[str, int] = {}
        self.pending: dict | None = None
        self.state: dict | None = None  # the state not yet acted on
        self.last: dict = {}
        self.fresh = 0  # states received on this connection
        self.hold = False  # read, but don't act yet
        self.ws = None

    def open(self, url: str | None = None, seconds: float = 30) -> None:
        self.url = url or self.url
        deadline = time.monotonic() + seconds
        while True:
            try:
                self.ws = self.client.socket(self.code, base=self.url)
                self.fresh = 0
                break
            except (OSError, websockets.InvalidHandshake):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        if self.pending is not None:  # not acknowledged before the connection went: again
            self.ws.send(json.dumps(self.pending))

    def pump(self, timeout: float = 0.05) -> bool:
        """Read what came; act if asked. False once the connection is gone."""
        try:
            while True:
                message = json.loads(self.ws.recv(timeout=timeout))
                timeout = 0.001
                if message["type"] == "ack":
                    self.acked[message["id"]] = message["seq"]
                    if self.pending and self.pending["id"] == message["id"]:
                        self.pending = None
                elif message["type"] == "state":
                    self.state = self.last = message
                    self.fresh += 1
                elif message["type"] == "error":
                    mine = self.pending and message.get("id") == self.pending["id"]
                    # Both seats flip at once in War: the one that ends the game leaves the
                    # other's flip to a table that has moved on, or to a game that is over.
                    said = message["message"]
                    assert mine and ("moved on" in said or said == "The game is over."), message
                    self.pending = None  # not applied; the current state follows
        except TimeoutError:
            pass
        except websockets.ConnectionClosed:
            return False
        state = self.state
        if self.hold:
            return True
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


def _table(url: str) -> tuple[str, Game, list[SiteClient]]:
    """Two people open a War table through nginx; the computer takes the third seat."""
    host, guest = SiteClient(url), SiteClient(url)
    code = host.create_room()
    guest.post("/rooms/join/", {"code": code})
    host.post(f"/rooms/{code}/start/", {"game": "war", "seats": SEATS, "rule_rounds": ROUNDS})
    game = Game.objects.get(pk=Room.objects.get(code=code, is_open=True).game_id)
    return code, game, [host, guest]


def _play(seats: list[Seat], deadline: float, acks: int | None = None) -> bool:
    """Until the game is over for every seat (or `acks` more acknowledged actions); False as
    soon as a connection goes."""
    goal = None if acks is None else sum(len(s.acked) for s in seats) + acks
    while True:
        if all(s.last.get("over") for s in seats):
            return True
        if goal is not None and sum(len(s.acked) for s in seats) >= goal:
            return True
        assert time.monotonic() < deadline, f"the table stalled: {[s.last for s in seats]}"
        if not all(seat.pump() for seat in seats):
            return False


def _whole(game: Game, seats: list[Seat]) -> None:
    """Over, the log replays, seq 1..N with no gap, every acknowledged action in it at the seq
    it was acknowledged with, and the computer's moves came from the worker host."""
    game.refresh_from_db()
    assert game.status == "over", game.status
    assert all(s.last["seq"] == game.seq and s.last["over"] for s in seats)
    assert store.verify(game) == []
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 1))
    logged = dict(
        GameEvent.objects.filter(game=game).exclude(action_id="").values_list("action_id", "seq")
    )
    for seat in seats:
        for action_id, seq in seat.acked.items():
            assert logged.get(action_id) == seq, f"acknowledged action {action_id} was lost"
    assert game.log.filter(by_bot=True, seat=2).exists()


def test_a_table_across_two_hosts_and_one_host_killed(hosts):
    started = time.monotonic()
    deadline = started + PLAY_WITHIN
    assert hosts.health()["ok"]  # every host reached PostgreSQL and Redis over its link
    web1, web2 = hosts.daphne_urls("web1"), hosts.daphne_urls("web2")

    # One table, each person on a different host, played to its end.
    code, game, (host, guest) = _table(hosts.url)
    seats = [Seat(host, code, 0, web1[0]), Seat(guest, code, 1, web2[0])]
    for seat in seats:
        seat.open()
    assert _play(seats, deadline), "a connection went"
    for seat in seats:
        seat.ws.close()
    _whole(game, seats)
    FIGURES["across_hosts_actions"] = game.seq

    # Another table, both people on web1 (one on each of its daphne processes); web1 dies
    # mid-game and they come back through nginx, which now has only web2 to send them to.
    code, game, (host, guest) = _table(hosts.url)
    seats = [Seat(host, code, 0, web1[0]), Seat(guest, code, 1, web1[1])]
    for seat in seats:
        seat.open()
    assert _play(seats, deadline, acks=10)

    # Both are asked to act; web1 freezes, both act, and web1 dies with the two actions unread.
    def asked(seat: Seat) -> bool:
        return bool(seat.state and seat.state["legal"] and seat.pending is None)

    for seat in seats:
        seat.hold = True
    while not all(asked(s) for s in seats):
        assert time.monotonic() < deadline, "no state asking both people to act"
        for seat in seats:
            seat.pump()
        # One asked alone, the other having seen that state and acted already: the round
        # ends only once the first acts too.
        for one, other in (seats, seats[::-1]):
            seen = other.last.get("seq", -1) >= (one.state or {}).get("seq", 1 << 60)
            if asked(one) and not asked(other) and other.pending is None and seen:
                one.hold = False
                one.pump(timeout=0)
                one.hold = True
    game.refresh_from_db()
    before = game.seq
    hosts.signal_host("web1", signal.SIGSTOP)
    for seat in seats:
        seat.hold = False
        seat.pump(timeout=0)
    unanswered = {s.seat: s.pending["id"] for s in seats}
    hosts.kill_host("web1")
    killed = time.monotonic()
    for seat in seats:
        while seat.pump():  # up to the closed connection
            assert time.monotonic() < deadline, "web1's socket stayed open after it was killed"
        assert seat.pending and seat.pending["id"] == unanswered[seat.seat]
        seat.open(hosts.url)  # and sends its action again, with its id
    while not all(s.fresh for s in seats):
        assert all(s.pump() for s in seats), "a connection through nginx went"
        assert time.monotonic() < deadline, "no state after reconnecting"
    assert all(s.last["seq"] >= before for s in seats)
    FIGURES["back_at_the_table_seconds"] = round(time.monotonic() - killed, 2)
    assert _play(seats, deadline), "a connection went after moving to web2"
    for seat in seats:
        seat.ws.close()
    _whole(game, seats)
    for seat in seats:  # the actions web1 never read were applied once, from web2
        assert unanswered[seat.seat] in seat.acked
    FIGURES["after_kill_actions"] = game.seq
    FIGURES["acknowledged"] = sum(len(s.acked) for s in seats)
    FIGURES["test_seconds"] = round(time.monotonic() - started, 1)
    print(f"\nseveral hosts: {FIGURES}")
