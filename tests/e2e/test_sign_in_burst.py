"""Fifty correct sign-ins at the same moment, from fresh sessions, beside a live table against
the computer (daphne and a Celery worker, as in production): every sign-in lands (no HTTP
500), the table's socket keeps playing, and neither process prints a traceback.

Sign-ins are slow on purpose (the password hash: hundreds of ms of CPU each); they used to
hold a pooled database connection across it, in as many threads as there were requests at
once, and the pool ran dry for the pages and the table sockets alike."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
import websockets
from django.contrib.auth.hashers import make_password

from accounts.models import User

from .client import SiteClient

pytestmark = pytest.mark.django_db(transaction=True)

SIGN_INS = 50
PASSWORD = "a long enough pw 1"
FIGURES: dict[str, object] = {}


@pytest.fixture
def daphne_env():
    # The player's socket may send as fast as it likes; the sign-ins are what is measured.
    return {"SOCKET_RATE": "1000", "SOCKET_BURST": "1000"}


def _people() -> list[str]:
    hashed = make_password(PASSWORD)  # one hash for all: setting up is not the test
    names = [f"burst{n}" for n in range(SIGN_INS)]
    User.objects.bulk_create([User(username=name, password=hashed) for name in names])
    return names


def _sign_in(base: str, name: str, barrier: threading.Barrier, answers: list) -> None:
    try:
        client = SiteClient(base)  # a fresh session (and its CSRF cookie)
    except Exception as exc:  # noqa: BLE001 - every failure is a finding
        answers.append(("home page", repr(exc)))
        barrier.abort()
        return
    body = urllib.parse.urlencode({"username": name, "password": PASSWORD}).encode()
    request = urllib.request.Request(
        base + "/accounts/login/",
        data=body,
        headers={"X-CSRFToken": client._cookie("csrftoken"), "Referer": base + "/"},
    )
    try:
        barrier.wait(timeout=120)
    except threading.BrokenBarrierError:
        answers.append(("barrier", "broken"))
        return
    started = time.monotonic()
    try:
        response = client.opener.open(request, timeout=300)
        path = urllib.parse.urlparse(response.geturl()).path
        answers.append((response.status, path, path == "/"))  # signed in: sent home
    except urllib.error.HTTPError as error:
        answers.append((error.code, error.read()[:300].decode(errors="replace"), False))
    except Exception as exc:  # noqa: BLE001
        answers.append(("failed", repr(exc), False))
    FIGURES.setdefault("seconds", []).append(round(time.monotonic() - started, 2))


class Table:
    """A person playing War against the computer on the JSON socket, flipping whenever it may,
    in a thread, until told to stop; it keeps what it saw."""

    def __init__(self, base: str):
        self.host = SiteClient(base)
        code = self.host.create_room()
        self.host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
        self.ws = self.host.socket(code)
        self.states, self.errors, self.closed = 0, [], None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _play(self) -> None:
        seq = None
        try:
            while not self.stop.is_set():
                try:
                    message = json.loads(self.ws.recv(timeout=0.5))
                except TimeoutError:
                    if seq is not None:  # nothing new: ask again (a resync)
                        self.ws.send(json.dumps({"type": "sync"}))
                    continue
                if message["type"] == "error":
                    self.errors.append(message["message"])
                if message["type"] != "state":
                    continue
                self.states += 1
                if message["over"]:
                    return
                if message["legal"] and message["seq"] != seq:
                    seq = message["seq"]
                    action = message["legal"][0]
                    self.ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
        except websockets.ConnectionClosed as closed:
            self.closed = (closed.rcvd.code if closed.rcvd else None, str(closed))

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)
        self.ws.close()


def test_fifty_sign_ins_at_once_beside_a_live_table(daphne_server, celery_worker_process):
    names = _people()
    table = Table(daphne_server)
    deadline = time.monotonic() + 60
    while table.states < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert table.states >= 3, "the table did not start playing"
    barrier = threading.Barrier(SIGN_INS)
    answers: list = []
    threads = [
        threading.Thread(target=_sign_in, args=(daphne_server, name, barrier, answers))
        for name in names
    ]
    before = table.states
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=400)
    during = table.states - before
    time.sleep(2)
    table.finish()
    seconds = sorted(FIGURES.get("seconds", []))
    FIGURES.update(
        sign_ins=len(answers),
        landed=sum(1 for a in answers if a[0] == 200 and a[2]),
        http_500=sum(1 for a in answers if a[0] == 500),
        slowest=seconds[-1] if seconds else None,
        median=seconds[len(seconds) // 2] if seconds else None,
        table_states_during=during,
        table_closed=table.closed,
        table_errors=sorted(set(table.errors)),
    )
    FIGURES.pop("seconds", None)
    print(f"\nsign-in burst: {FIGURES}")
    assert [a for a in answers if a[0] != 200 or not a[2]] == []
    assert len(answers) == SIGN_INS
    assert table.closed is None, f"the table's socket closed: {table.closed}"
    assert during > 0, "the table stood still while people signed in"
