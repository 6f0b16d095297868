"""A room counts the games each person (and each computer player) won in it, across the
games it plays, and every table shows the count next to the names."""

import html
import re

import pytest
from django.test import Client

from gameplay import services as gameplay
from gameplay import store
from gameplay.engine import registry
from gameplay.models import Game
from lobby import services, tables
from lobby.models import Room, RoomGame

pytestmark = pytest.mark.django_db


def create(client) -> str:
    return client.post("/rooms/").url.rstrip("/").split("/")[-1]


def play_out(game: Game) -> list[int]:
    """Every seat plays as the computer would until the game ends; returns the winners."""
    engine = registry.get(game.kind)
    for _ in range(5000):
        game.refresh_from_db()
        if game.is_over:
            return game.result["winners"]
        state = store.load_state(game)
        seat = engine.to_act(state)[0]
        action = engine.bot_action(state, seat)
        gameplay.submit_action(game_id=game.pk, seat=seat, action=action, seq=game.seq)
    pytest.fail("The game did not end.")


def shown_wins(client, code: str) -> dict[str, int]:
    """Name -> the count shown in the seat header of the room's table."""
    page = html.unescape(client.get(f"/rooms/{code}/").content.decode())
    heads = re.findall(
        r'class="seat-name">([^<]+)<.*?(?:data-wins="(\d+)"|(?=class="seat-name"))', page, re.S
    )
    return {name.strip(): int(wins) for name, wins in heads if wins}


def test_wins_are_counted_per_person_across_a_rooms_games(client):
    code = create(client)
    guest = Client()
    guest.post("/rooms/join/", {"code": code})
    room = Room.objects.get(code=code)
    names = {m.player: m.name for m in room.present()}

    first = services.start_game(room=room, player=room.host, kind="crazy8", seats=3, seed="w1")
    assert services.room_wins(room) is None
    assert shown_wins(client, code) == {}  # nothing to count before a game has finished
    assert RoomGame.objects.get(game=first).players == [*names, "cpu:Cubot"]

    expected: dict[str, int] = {}
    for seed in ("w1", "w2", "w3"):
        if seed != "w1":
            services.back_to_lobby(room=room, player=room.host)
            game = services.start_game(
                room=room, player=room.host, kind="crazy8", seats=3, seed=seed
            )
        else:
            game = first
        players = RoomGame.objects.get(game=game).players
        for seat in play_out(game):
            expected[players[seat]] = expected.get(players[seat], 0) + 1
    assert len(expected) == 2 and sum(expected.values()) == 3  # two seats won: 2 and 1

    # A game abandoned half-way counts for nobody.
    services.back_to_lobby(room=room, player=room.host)
    services.start_game(room=room, player=room.host, kind="crazy8", seats=3, seed="w4")
    services.back_to_lobby(room=room, player=room.host)
    assert services.room_wins(room) == expected

    # Shown next to every name at the next table, a computer player's wins included.
    services.start_game(room=room, player=room.host, kind="war", seats=3)
    by_name = {**names, "cpu:Cubot": "Cubot"}
    want = {by_name[p]: expected.get(p, 0) for p in by_name}
    assert shown_wins(client, code) == want
    assert shown_wins(guest, code) == want
    room.refresh_from_db()
    member = room.members.get(player=room.host)
    message = tables.state_message(tables.room_context(room, member))
    assert [s["wins"] for s in message["seats"]] == list(want.values())

    # And in the lobby between games, next to each person.
    services.back_to_lobby(room=room, player=room.host)
    lobby = html.unescape(client.get(f"/rooms/{code}/").content.decode())
    for player, name in names.items():
        n = expected.get(player, 0)
        assert re.search(rf"{re.escape(name)}.*?★</span>{n}<", lobby, re.S), (name, n)


def test_a_shared_win_counts_for_each_winner_and_other_rooms_dont_count():
    room = services.create_room(player="guest:a", name="Ann")
    other = services.create_room(player="guest:b", name="Bob")
    seats = [{"name": "Ann", "bot": False}, {"name": "Cubot", "bot": True}]
    for where, winners in ((room, [0, 1]), (room, [1]), (other, [0])):
        game = gameplay.start_game(kind="crazy8", seats=seats)
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.OVER, result={"winners": winners, "scores": [0, 0], "ranking": []}
        )
        RoomGame.objects.create(room=where, game=game, players=["guest:a", "cpu:Cubot"])
    assert services.room_wins(room) == {"guest:a": 1, "cpu:Cubot": 2}
    assert services.room_wins(other) == {"guest:a": 1}
