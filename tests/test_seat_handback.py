"""A seat given back to its person while the table moves on: the computer's move decided before
the person came back is not played for them, and a socket that opens while moves land never
keeps the view it read first (both left one screen saying "Your turn" while another showed the
same seat still "Thinking…")."""

import pytest
from channels.db import database_sync_to_async

from gameplay import services as gameplay
from gameplay import store, tasks
from gameplay.engine import registry
from gameplay.models import Game
from lobby import selectors

from .test_room_socket import _create_room, _join, _start_seeded, connect, receive, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def _table(kind: str = "crazy8") -> tuple:
    host, code = _create_room()
    guest = _join(code)
    game = _start_seeded(code, kind, 2, "handback")
    return host, guest, code, game


def _awaited(game: Game) -> int:
    return Game.objects.get(pk=game.pk).to_act[0]


def test_a_computer_move_decided_before_the_person_came_back_is_not_played(real_services):
    _, _, _, game = _table()
    seat = _awaited(game)
    gameplay.set_seat_control(game_id=game.pk, seat=seat, bot=True)
    engine = registry.get(game.kind)
    thinking = type(engine).bot_action

    def back_while_it_thinks(self, state, at, strength="medium"):
        # The person's socket opens while the computer works out its move for them.
        gameplay.set_seat_control(game_id=game.pk, seat=seat, bot=False)
        return thinking(self, state, at, strength)

    type(engine).bot_action = back_while_it_thinks
    try:
        assert tasks.play_for_seats(game.pk, 0) == 0
    finally:
        type(engine).bot_action = thinking
    game.refresh_from_db()
    assert game.seq == 0 and not game.seats[seat]["bot"]
    # The person plays their own turn.
    action = engine.legal_actions(store.load_state(game), seat)[0]
    assert gameplay.submit_action(game_id=game.pk, seat=seat, action=action, seq=0).game.seq == 1


@pytest.mark.asyncio
async def test_a_socket_that_opens_as_a_move_lands_is_sent_that_move(real_services, monkeypatch):
    """A move committed after the socket read the table but before it joined the game's group
    is told to a group the socket is not in yet: it must still reach the socket."""
    host, guest, code, game = await database_sync_to_async(_table)()
    seat = await database_sync_to_async(_awaited)(game)
    engine = registry.get(game.kind)
    read = selectors.people
    landed = []

    def read_then_a_move_lands(member_id, room_id, *, with_game=False):
        found = read(member_id, room_id, with_game=with_game)
        if with_game and not landed:
            row = Game.objects.get(pk=game.pk)
            action = engine.legal_actions(store.load_state(row), seat)[0]
            landed.append(gameplay.submit_action(game_id=game.pk, seat=seat, action=action, seq=0))
        return found

    monkeypatch.setattr(selectors, "people", read_then_a_move_lands)
    ws = await connect(guest, code)
    assert (await ws.connect())[0]
    first = await receive(ws)
    assert first["seq"] == 0 and landed
    caught_up = await receive_until(ws, lambda m: m.get("type") == "state" and m["seq"] == 1)
    assert caught_up["to_act"] == landed[0].game.to_act
    await ws.disconnect()
