"""Rooms over HTTP: create, join, start, and every way that can go wrong."""

import html

import pytest
from django.test import Client

from lobby import services
from lobby.models import ROOM_SIZE, Room

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def create(client):
    response = client.post("/rooms/")
    assert response.status_code == 302
    return response.url.rstrip("/").split("/")[-1]


def test_create_room_gives_a_clear_code(client):
    code = create(client)
    assert len(code) == 5 and code.isalpha() and code.isupper()
    assert not set(code) & set("ILO")
    page = client.get(f"/rooms/{code}/")
    assert page.status_code == 200 and code in text(page)


def test_join_by_code_any_case(client):
    code = create(client)
    other = Client()
    response = other.post("/rooms/join/", {"code": f"  {code.lower()} "})
    assert response.url == f"/rooms/{code}/"
    assert Room.objects.get(code=code).present().count() == 2


@pytest.mark.parametrize(
    "code, message",
    [
        ("ZZZZZ", "No open room has the code ZZZZZ"),
        ("12", "A room code is 5 letters"),
        ("", "A room code is 5 letters"),
    ],
)
def test_join_unknown_room(client, code, message):
    response = client.post("/rooms/join/", {"code": code}, follow=True)
    assert message in text(response)


def test_join_full_room(client):
    code = create(client)
    for _ in range(ROOM_SIZE - 1):
        Client().post("/rooms/join/", {"code": code})
    response = Client().post("/rooms/join/", {"code": code}, follow=True)
    assert f"Room {code} is full" in text(response)
    assert Room.objects.get(code=code).present().count() == ROOM_SIZE


def test_only_the_host_starts(client):
    code = create(client)
    guest = Client()
    guest.post("/rooms/join/", {"code": code})
    response = guest.post(f"/rooms/{code}/start/", {"game": "war"}, follow=True)
    assert "Only the host can start a game." in text(response)
    assert Room.objects.get(code=code).game is None


@pytest.mark.parametrize(
    "form, message",
    [
        ({"game": "chess"}, "Pick a game to play."),
        ({"game": "war", "seats": "9"}, "War seats 2–4 players."),
        ({"game": "war", "seats": "two"}, "must be a number"),
        ({"game": "klondike"}, "played alone"),
        ({"game": "war", "rules": "{bad"}, "not valid JSON"),
        ({"game": "war", "rules": '{"speed": 2}'}, "no rule option 'speed'"),
        ({"game": "war", "turn_timer": "5"}, "turn timer"),
    ],
)
def test_start_bad_input(client, form, message):
    code = create(client)
    response = client.post(f"/rooms/{code}/start/", form, follow=True)
    assert message in text(response)
    assert Room.objects.get(code=code).game is None


def test_start_twice_is_refused(client):
    code = create(client)
    client.post(f"/rooms/{code}/start/", {"game": "war"})
    first = Room.objects.get(code=code).game
    response = client.post(f"/rooms/{code}/start/", {"game": "war"}, follow=True)
    assert "A game is already in play" in text(response)
    assert Room.objects.get(code=code).game == first


def test_computer_players_fill_the_table_and_extra_people_watch(client):
    code = create(client)
    people = [Client() for _ in range(4)]
    for person in people:
        person.post("/rooms/join/", {"code": code})
    client.post(f"/rooms/{code}/start/", {"game": "gin" if False else "war", "seats": "3"})
    room = Room.objects.get(code=code)
    assert [s["bot"] for s in room.game.seats] == [False, False, False]
    seats = sorted(m.seat for m in room.present() if m.seat is not None)
    assert seats == [0, 1, 2] and sum(m.seat is None for m in room.present()) == 2
    services.back_to_lobby(room=room, player=room.host)
    solo = Client()
    solo_code = create(solo)
    solo.post(f"/rooms/{solo_code}/start/", {"game": "war", "seats": "4"})
    game = Room.objects.get(code=solo_code).game
    assert [s["bot"] for s in game.seats] == [False, True, True, True]


def test_back_to_lobby_and_leave(client):
    code = create(client)
    guest = Client()
    guest.post("/rooms/join/", {"code": code})
    client.post(f"/rooms/{code}/start/", {"game": "war"})
    game = Room.objects.get(code=code).game
    response = guest.post(f"/rooms/{code}/lobby/", follow=True)
    assert "Only the host" in text(response)
    client.post(f"/rooms/{code}/lobby/")
    game.refresh_from_db()
    assert game.status == "abandoned" and Room.objects.get(code=code).game is None
    client.post(f"/rooms/{code}/leave/")
    room = Room.objects.get(code=code)
    assert room.is_open and room.host.startswith("guest:") and room.present().count() == 1
    guest.post(f"/rooms/{code}/leave/")
    assert not Room.objects.get(code=code).is_open


def test_play_solo_and_come_back_to_the_table(client):
    response = client.post("/play/war/", {"seats": "3"})
    code = response.url.rstrip("/").split("/")[-1]
    room = Room.objects.get(code=code)
    assert room.private and len(room.game.seats) == 3
    # Seated, a player may still browse the site: every page's header leads back to the table.
    home = client.get("/")
    assert home.status_code == 200
    assert f'href="/rooms/{code}/">Back to your table</a>' in home.content.decode()
    assert "Back to your table" not in client.get(f"/rooms/{code}/").content.decode()
    stranger = Client()
    response = stranger.post("/rooms/join/", {"code": code}, follow=True)
    assert f"No open room has the code {code}." in text(response)  # as if there were none
    client.post(f"/rooms/{code}/leave/")
    assert "Back to your table" not in client.get("/cards/").content.decode()


def test_play_unknown_or_bad_options(client):
    missing = client.get("/play/chess/")
    assert missing.status_code == 404 and "No such game." in text(missing)
    assert "There is no page at this address." in text(client.get("/no/such/page/"))
    response = client.post("/play/war/", {"seats": "12"}, follow=True)
    assert "War seats 2–4 players." in text(response)
    assert client.get("/play/war/").status_code == 200


def test_room_page_for_non_member_offers_join(client):
    code = create(client)
    page = Client().get(f"/rooms/{code}/")
    assert "Join the table" in text(page)
    assert Client().get("/rooms/QQ/").status_code == 404


def test_cardice_partnerships_need_four_or_six_seats(client):
    """The host picks partnerships in the options form; the engine's sentence answers a table
    of 2, 3 or 5 seats, and a table of 4 or 6 starts in teams."""
    code = create(client)
    form = {"game": "cardice", "rule_partnerships": "true", "rule_nil_bonus": "false"}
    response = client.post(f"/rooms/{code}/start/", {**form, "seats": "5"}, follow=True)
    assert "Partnerships need 4 or 6 seats: two or three teams of two partners." in text(response)
    assert Room.objects.get(code=code).game is None
    client.post(f"/rooms/{code}/start/", {**form, "seats": "6"})
    game = Room.objects.get(code=code).game
    assert game.kind == "cardice" and len(game.seats) == 6
    assert game.rules == {"partnerships": True, "nil_bonus": False, "length": "full"}


def test_play_cardice_alone_against_five_computer_players(client):
    response = client.post("/play/cardice/", {"seats": "5", "rule_partnerships": "true"})
    assert "Partnerships need 4 or 6 seats" in text(client.get(response.url))
    assert client.get("/").status_code == 200  # no half-made table to come back to
    response = client.post("/play/cardice/", {"seats": "6", "rule_partnerships": "true"})
    game = Room.objects.get(code=response.url.rstrip("/").split("/")[-1]).game
    assert [s["bot"] for s in game.seats] == [False] + [True] * 5
    assert game.rules["partnerships"] is True


def test_the_table_shows_the_deal_fingerprint_then_the_proof(client):
    from gameplay import services as gameplay
    from gameplay import store
    from gameplay.engine import registry

    code = create(client)
    room = Room.objects.get(code=code)
    game = services.start_game(room=room, player=room.host, kind="war", seats=2, seed="short/235")
    page = text(client.get(f"/rooms/{code}/"))
    assert "Deal fingerprint" in page and game.seed_hash in page and "/fairness/" in page
    assert f"/games/{game.pk}/log.json" not in page  # the seed stays secret during the game
    state = store.load_state(game)
    engine = registry.get("war")
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        game.refresh_from_db()
        state = gameplay.submit_action(
            game_id=game.pk, seat=seat, action=engine.bot_action(state, seat), seq=game.seq
        ).state
    page = text(client.get(f"/rooms/{code}/"))
    assert game.seed_hash in page
    assert f"/games/{game.pk}/log.json" in page and f'href="/games/{game.pk}/"' in page
    assert "Checking a deal" in text(client.get("/fairness/"))
