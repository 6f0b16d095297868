"""The whole stack: daphne, a real Celery worker, PostgreSQL and Redis. A program plays a whole
War game over the JSON socket against computer players, and reconnects in the middle."""

import time

import pytest

from gameplay import store
from gameplay.models import Game
from lobby import services
from lobby.models import Room

from .client import SiteClient, act, receive

pytestmark = pytest.mark.django_db(transaction=True)

SHORT_WAR = "short/235"  # two players, 47 rounds


def _seeded_war(code: str, seats: int, seed: str) -> Game:
    room = Room.objects.get(code=code, is_open=True)
    return services.start_game(room=room, player=room.host, kind="war", seats=seats, seed=seed)


def play_until_over(ws, seat: int, stop_after: int | None = None) -> dict:
    """Flip whenever asked; returns the last state (or stops after `stop_after` flips)."""
    flips, flipped_at = 0, None
    while True:
        message = receive(ws)
        assert message["type"] in {"state", "error"}, message
        if message["type"] == "error":
            if "retry_after" in message and flipped_at is not None:
                # Too fast for the socket's limit (the computer flips at once): not applied,
                # so sent again after the wait the error names.
                time.sleep(message["retry_after"])
                act(ws, {"type": "flip"}, flipped_at)
            continue  # or a stale seq while a computer player moved: the fresh state follows
        if message["over"]:
            return message
        if seat in message["to_act"] and {"type": "flip"} in message["legal"]:
            flipped_at = message["seq"]
            act(ws, {"type": "flip"}, flipped_at)
            flips += 1
            if stop_after is not None and flips >= stop_after:
                return message


def test_whole_war_game_against_computer_players(daphne_server, celery_worker_process):
    player = SiteClient(daphne_server)
    code = player.create_room()
    game = _seeded_war(code, 2, SHORT_WAR)
    with player.socket(code) as ws:
        seen = play_until_over(ws, seat=0, stop_after=10)
    # Reconnect mid-game: the current state arrives at once. (The last flip may or may not have
    # been applied before the socket closed, and the computer moves on its own meanwhile: the
    # state is at least the one last seen and at most the stored one.)
    with player.socket(code) as ws:
        first = receive(ws)
        game.refresh_from_db()
        assert first["type"] == "state" and first["game_id"] == game.pk
        assert seen["seq"] <= first["seq"] <= game.seq and not first["over"]
        if first["seat"] in first["to_act"] and not first["over"]:
            act(ws, {"type": "flip"}, first["seq"])
        final = play_until_over(ws, seat=0)
    game.refresh_from_db()
    assert game.status == "over" and final["result"] == game.result
    assert final["seq"] == game.seq
    assert sum(e.by_bot for e in game.log.all()) == game.seq // 2  # the computer flipped its half
    assert store.verify(game) == []


def test_four_seat_table_two_people_two_computers(daphne_server, celery_worker_process):
    host, guest = SiteClient(daphne_server), SiteClient(daphne_server)
    code = host.create_room()
    assert guest.post("/rooms/join/", {"code": code}) == f"/rooms/{code}/"
    assert host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "4"}) == f"/rooms/{code}/"
    with host.socket(code) as a, guest.socket(code) as b:
        for ws, seat in ((a, 0), (b, 1)):
            state = receive(ws)
            assert state["seat"] == seat and state["seats"][2]["bot"] and state["seats"][3]["bot"]
        # Both people flip against the first state they saw, while the computer players flip
        # on their own: a flip sent against an older seq still counts (the seat's choice did
        # not change), and the round resolves (after a war, if a tie calls one: a person in it
        # flips again when asked).
        act(a, {"type": "flip"}, 0)
        act(b, {"type": "flip"}, 0)
        latest, acted = {0: None, 1: None}, {0: {0}, 1: {0}}  # the seqs each seat flipped at
        while latest[0] is None or latest[0]["view"]["round"] < 2:
            for ws, seat in ((a, 0), (b, 1)):
                try:
                    state = receive(ws, timeout=0.2)
                except TimeoutError:
                    continue
                if state["type"] == "error":  # a flip crossed a newer state: the state follows
                    assert "moved on" in state["message"], state
                    continue
                latest[seat] = state
                wanted = state["view"]["round"] == 1 and {"type": "flip"} in state["legal"]
                if wanted and state["seq"] not in acted[seat]:
                    acted[seat].add(state["seq"])
                    act(ws, {"type": "flip"}, state["seq"])
        assert latest[0]["view"]["last_round"]["pot"]
