"""Ranked play through the whole stack: daphne, a Celery worker and beat (the matcher's
clock), PostgreSQL and Redis. Programs queue over HTTP and wait on the JSON queue socket."""

import pytest

from gameplay.engine import registry
from lobby import ranked

from .client import SiteClient, receive

pytestmark = pytest.mark.django_db(transaction=True)

KIND = "poker"
FILL_AFTER = 3  # seconds: the servers in these tests fill tables quickly


@pytest.fixture
def quick_fill(monkeypatch):
    """The servers started after this fixture fill short tables after a few seconds."""
    monkeypatch.setenv("RANKED_FILL_AFTER", str(FILL_AFTER))


def wait_for_table(ws, timeout: float = 40) -> dict:
    while True:
        message = receive(ws, timeout=timeout)
        assert message["type"] == "queue", message
        if message["status"] == "matched" and message["url"]:
            return message
        assert message["status"] == "waiting", message


def table_state(client: SiteClient, code: str) -> dict:
    with client.socket(code) as ws:
        state = receive(ws)
    assert state["type"] == "state", state
    return state


def test_two_json_clients_queueing_for_ranked_poker_sit_together(
    quick_fill, daphne_server, celery_worker_process, celery_beat_process
):
    ann, bob = SiteClient(daphne_server), SiteClient(daphne_server)
    ann.sign_up("ann")
    bob.sign_up("bob")
    with ann.socket_at(f"/ws/queue/{KIND}/?format=json") as ann_ws:
        assert receive(ann_ws)["status"] == "none"
        assert ann.post_json(f"/ranked/{KIND}/?format=json") == {
            "ok": True,
            "game": KIND,
            "status": "waiting",
            "socket": f"/ws/queue/{KIND}/",
        }
        # A second request changes nothing.
        again = ann.post_json(f"/ranked/{KIND}/?format=json")
        assert again == {"ok": False, "message": "You are already in the queue for Poker."}
        assert bob.post_json(f"/ranked/{KIND}/?format=json")["ok"]
        with bob.socket_at(f"/ws/queue/{KIND}/?format=json") as bob_ws:
            ann_table = wait_for_table(ann_ws)
            bob_table = wait_for_table(bob_ws)
    assert ann_table["room"] == bob_table["room"]
    state = table_state(ann, ann_table["room"])
    size = ranked.table_size(registry.get(KIND))
    assert state["game"] == KIND and len(state["seats"]) == size
    people = sorted(s["name"] for s in state["seats"] if not s["bot"])
    assert people == ["ann", "bob"]
    assert state["view"] is not None and state["seat"] is not None
    # Seated now: queueing again is refused until the game ends.
    answer = bob.post_json(f"/ranked/{KIND}/?format=json")
    assert answer["message"].startswith("You have a seat at a game in play")


def test_one_client_alone_gets_computer_players_after_the_wait(
    quick_fill, daphne_server, celery_worker_process, celery_beat_process
):
    carol = SiteClient(daphne_server)
    carol.sign_up("carol")
    assert carol.post_json(f"/ranked/{KIND}/?format=json")["ok"]
    with carol.socket_at(f"/ws/queue/{KIND}/?format=json") as ws:
        first = receive(ws)
        assert first["status"] == "waiting" and [w["name"] for w in first["waiting"]] == ["carol"]
        table = wait_for_table(ws)
    assert table["waited"] >= FILL_AFTER - 1
    state = table_state(carol, table["room"])
    assert [s["name"] for s in state["seats"] if not s["bot"]] == ["carol"]
    assert sum(s["bot"] for s in state["seats"]) == ranked.table_size(registry.get(KIND)) - 1
