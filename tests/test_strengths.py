"""Computer players at several strengths: their accounts, the seats that record a strength,
the options that pick it, the computer turns that play it."""

import html
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import computers, ratings
from accounts.models import Rating, User
from gameplay import tasks
from gameplay.engine import MEDIUM, registry
from gameplay.models import Game
from lobby import ranked, services, tables
from lobby.models import Room
from tests.played import played_log

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_computer_accounts_exist_after_migrate():
    found = User.objects.filter(role=User.COMPUTER).order_by("pk")
    assert [u.username for u in found] == [
        "Computer-Easy",
        "Computer-Medium",
        "Computer-Hard",
        "Computer-Expert",
    ]
    assert not any(u.has_usable_password() for u in found)
    assert computers.account_id("hard") == User.objects.get(username="Computer-Hard").pk
    assert computers.strength_of(computers.account_id("expert")) == "expert"


def test_nobody_signs_up_as_a_computer(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "computer-hard", "password1": "a-long-pass-9", "password2": "a-long-pass-9"},
    )
    assert response.status_code != 302
    assert not User.objects.filter(username="computer-hard").exists()


def start(client, game: str, strengths: list[str], seats: int = 2):
    code = client.post("/rooms/").url.rstrip("/").split("/")[-1]
    response = client.post(
        f"/rooms/{code}/start/",
        {"game": game, "seats": str(seats), "strength": strengths},
        follow=True,
    )
    return Room.objects.get(code=code), response


def test_the_host_picks_each_computer_seats_strength(client):
    room, response = start(client, "gin", ["hard"])
    assert room.game.seats[1]["bot"] and room.game.seats[1]["strength"] == "hard"
    assert "strength" not in room.game.seats[0]  # a person's seat
    assert "CPU · Hard" in text(response)
    crazy, _ = start(Client(), "crazy8", ["expert", ""], seats=4)
    assert [s.get("strength") for s in crazy.game.seats] == [None, "expert", MEDIUM, MEDIUM]


def test_an_unknown_strength_is_refused_with_a_sentence(client):
    room, response = start(client, "gin", ["godlike"])
    assert room.game is None
    assert (
        "The computer plays Gin Rummy at Easy, Medium, Hard or Expert: “godlike” is not one "
        "of them." in text(response)
    )
    # Even for a seat a person takes (two people, two seats): nothing asked for is ignored.
    host = Client()
    code = host.post("/rooms/").url.rstrip("/").split("/")[-1]
    Client().post("/rooms/join/", {"code": code})
    response = host.post(
        f"/rooms/{code}/start/", {"game": "gin", "seats": "2", "strength": "hardest"}, follow=True
    )
    assert Room.objects.get(code=code).game is None and "“hardest”" in text(response)
    # A game whose computer plays one strength takes only that one.
    room, response = start(Client(), "war", ["hard"])
    assert room.game is None and "The computer plays War at Medium:" in text(response)


def test_the_rooms_options_offer_a_strength_per_computer_seat(client):
    code = client.post("/rooms/").url.rstrip("/").split("/")[-1]
    page = text(client.get(f"/rooms/{code}/"))
    sets = {
        part.split('"', 1)[0]: part.split("</fieldset>\n      ", 1)[0]
        for part in page.split('data-game="')[1:]
    }
    assert sets["gin"].count('name="strength"') == 1
    assert sets["crazy8"].count('name="strength"') == registry.get("crazy8").max_players - 1
    assert 'name="strength"' not in sets["war"]  # War's computer plays one way
    assert '<option value="medium" selected>Medium</option>' in sets["gin"]


def test_solo_play_takes_the_strengths_too(client):
    response = client.post("/play/gin/", {"strength": "easy"})
    game = Room.objects.get(code=response.url.rstrip("/").split("/")[-1]).game
    assert game.seats[1]["strength"] == "easy"
    page = client.get("/play/gin/")
    assert text(page).count('name="strength"') == 1  # Gin seats one computer
    assert 'name="strength"' not in text(client.get("/play/war/"))  # War has one strength


def test_the_json_seats_carry_the_strength(client):
    room, _ = start(client, "gin", ["expert"])
    member = services.member_of(room, room.host)
    message = tables.state_message(tables.room_context(room, member))
    assert [s["strength"] for s in message["seats"]] == [None, "expert"]


def test_an_old_game_without_strengths_plays_medium():
    game = Game(kind="gin", seats=[{"name": "A", "user_id": None, "bot": True}])
    assert game.strength(0) == MEDIUM


def test_a_computer_turn_plays_at_its_seats_strength(client, monkeypatch):
    engine = registry.get("gin")
    asked = []
    real = type(engine).bot_action

    def spy(self, state, seat, strength=MEDIUM):
        asked.append((seat, strength))
        return real(self, state, seat, strength)

    monkeypatch.setattr(type(engine), "bot_action", spy)
    room, _ = start(client, "gin", ["hard"])
    game = room.game
    # Play the person's seat too (as a turn timer does) until the computer has moved.
    for _ in range(6):
        game.refresh_from_db()
        tasks.play_for_seats(game.pk, game.seq, people_too=True)
    assert (1, "hard") in asked
    assert {s for seat, s in asked if seat == 0} <= {MEDIUM}


# ---- ranked tables: the strength nearest the people ---------------------------------------------


def test_nearest_picks_the_level_nearest_and_draws_among_ties():
    levels = dict(computers.DEFAULT_LADDER)  # easy 1300, medium 1500, hard 1650, expert 1800
    assert computers.nearest(levels, 1500) == "medium"
    assert computers.nearest(levels, 1370) == "easy"
    assert computers.nearest(levels, 1430) == "medium"
    assert computers.nearest(levels, 2400) == "expert"
    assert computers.nearest(levels, 0) == "easy"
    # 1400 is as near Easy as Medium: the weaker without a draw, either with one.
    assert computers.nearest(levels, 1400) == "easy"
    drawn = {computers.nearest(levels, 1400, random.Random(i)) for i in range(40)}
    assert drawn == {"easy", "medium"}
    tied = {"easy": 1250, "medium": 1500, "hard": 1500, "expert": 1500}
    drawn = {computers.nearest(tied, 1500, random.Random(i)) for i in range(60)}
    assert drawn == {"medium", "hard", "expert"}  # a ladder that can't tell them apart


def test_nearest_strength_starts_from_the_ladder_then_follows_the_ratings(monkeypatch):
    gin = registry.get("gin")
    monkeypatch.setattr(type(gin), "ladder", {})  # the defaults
    assert computers.start_points("gin", "hard") == 1650
    assert ratings.nearest_strength("gin", 1360) == "easy"
    assert ratings.nearest_strength("gin", 2400) == "expert"
    assert ratings.nearest_strength("war", 2400) == "medium"  # its only strength
    # Hard has sunk below Medium with its results: it is no longer "nearest 1650".
    Rating.objects.create(
        user_id=computers.account_id("hard"),
        kind="gin",
        mu=ratings.MODEL.mu - 1,
        sigma=2,
        ordinal=0,
        games=50,
        updated=timezone.now(),
    )
    assert ratings.nearest_strength("gin", 1700) == "expert"
    assert ratings.nearest_strength("gin", 1460) == "hard"


def test_a_ranked_table_is_filled_at_the_peoples_level(settings, monkeypatch):
    monkeypatch.setattr(type(registry.get("gin")), "ladder", {})  # expert starts at 1800
    ace = User.objects.create_user("ace", password="pw-long-enough")
    Rating.objects.create(
        user=ace, kind="gin", mu=37, sigma=2, ordinal=31, games=80, updated=timezone.now()
    )
    ranked.enqueue(user=ace, kind="gin")
    [room] = ranked.match(
        "gin", now=timezone.now() + timedelta(seconds=settings.RANKED_FILL_AFTER + 1)
    )
    [computer] = [s for s in room.game.seats if s["bot"]]
    assert computer["strength"] == "expert" and computer["user_id"] is None


@pytest.mark.django_db(transaction=True)
def test_a_computer_is_rated_but_never_paid_or_recorded(real_services):
    from gameplay import hooks
    from kudos.models import Account, Entry

    ann = User.objects.create_user("ann", password="pw-long-enough")
    hard = computers.account_id("hard")
    for i, winner in enumerate([1, 0]):  # Hard wins one, ann the other
        game = Game.objects.create(
            kind="gin",
            rules=registry.get("gin").default_rules(),
            seats=[
                {"name": "ann", "user_id": ann.pk, "bot": False},
                {"name": "Cubot", "user_id": None, "bot": True, "strength": "hard"},
            ],
            seed=f"s{i}",
            seed_hash="h",
            status=Game.Status.OVER,
            result={"scores": [0, 0], "winners": [winner], "ranking": [[winner], [1 - winner]]},
            facts=[{}, {}],
            ranked=True,
            ended=timezone.now() + timedelta(minutes=i),
        )
        played_log(game)  # ann played it as a person does: a counted game
        hooks.deliver(game.pk)
    assert Rating.objects.get(user_id=hard, kind="gin").games == 2
    assert Rating.objects.get(user=ann, kind="gin").games == 2
    assert Entry.objects.filter(user=ann).exists()  # ann was paid for playing
    assert not Entry.objects.filter(user_id=hard).exists()
    assert not Account.objects.filter(user_id=hard, balance__gt=0).exists()
    assert not User.objects.get(pk=hard).history.exists()  # no GameRecord, no stats
    assert not User.objects.get(pk=hard).stats.exists()


# ---- leaderboards list people; the computers apart --------------------------------------------


def _settled(user_id: int, kind: str, mu: float) -> Rating:
    return Rating.objects.create(
        user_id=user_id,
        kind=kind,
        mu=mu,
        sigma=2,
        ordinal=mu - 6,
        games=40,
        updated=timezone.now(),
    )


def test_leaderboards_list_people_only(client):
    from accounts import selectors

    ann = User.objects.create_user("ann", password="pw-long-enough")
    _settled(ann.pk, "gin", 26)
    expert = _settled(computers.account_id("expert"), "gin", 40)  # far above ann
    assert [r.user_id for r in selectors.board("gin")] == [ann.pk]
    assert selectors.board_sizes(["gin"]) == {"gin": 1}
    assert selectors.leaderboard_place(expert) is None
    page = text(client.get("/leaderboards/gin/"))
    board, apart = page.split("data-computers")
    assert "ann" in board and "Computer-Expert" not in board
    # Apart, for reference: every strength, Expert at its rating, the others where they start.
    assert [c["strength"] for c in selectors.computer_ratings("gin")] == [
        "easy",
        "medium",
        "hard",
        "expert",
    ]
    shown = {c["strength"]: c["shown"] for c in selectors.computer_ratings("gin")}
    assert shown["expert"] == ratings.shown(40, 2)
    assert shown["easy"] == ratings.shown(ratings.computer_start("gin", "easy").mu, 4.0)
    assert 'data-strength="expert"' in apart and str(shown["expert"]) in apart
    overview = text(client.get("/leaderboards/"))
    assert "Computer-Expert" not in overview


def test_a_computers_profile_page(client):
    _settled(computers.account_id("hard"), "gin", 30)
    page = client.get("/u/Computer-Hard/")
    assert page.status_code == 200
    body = text(page)
    assert "CPU · Hard" in body and 'data-rated="gin"' in body
    assert 'id="badges"' not in body  # a computer earns no badges
