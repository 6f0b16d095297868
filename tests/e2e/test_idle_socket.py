"""A table socket on the Redis channel layer survives a long quiet spell: channels_redis waits
on Redis up to 5 seconds at a time for the next message, which must never hit the Redis
client's socket timeout (the consumer would die and the player be dropped)."""

import time

import pytest

from .client import SiteClient, act, receive

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_socket_that_hears_nothing_for_30_seconds_still_gets_the_next_move(daphne_server):
    host, guest = SiteClient(daphne_server), SiteClient(daphne_server)
    code = host.create_room()
    assert guest.post("/rooms/join/", {"code": code}) == f"/rooms/{code}/"
    assert host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"}) == f"/rooms/{code}/"
    with host.socket(code) as a, guest.socket(code) as b:
        assert receive(a)["seq"] == 0 and receive(b)["seq"] == 0
        time.sleep(32)  # two people at a table, neither moves: nothing crosses the layer
        act(a, {"type": "flip"}, 0)
        for ws in (a, b):
            state = receive(ws)
            while state["seq"] == 0:  # the news that the other person arrived, sent before
                state = receive(ws)
            assert state["type"] == "state" and state["seq"] == 1, state
