"""Bot accounts: made from an account with no games, for good; marked BOT where the name
shows; listed only on the bots' boards; never paid Kudos; never in the ranked queue."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import ratings, selectors
from accounts.models import GameRecord, Rating, User
from api import services, tokens
from gameplay.models import Game
from kudos import services as kudos
from kudos.models import Entry
from lobby import ranked
from lobby import services as lobby
from tests.kudos.conftest import ended_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def robo(db):
    return User.objects.create_user("robo", password=None)


def test_an_account_with_no_games_becomes_a_bot_after_confirming(robo):
    client = Client()
    client.force_login(robo)
    unconfirmed = client.post("/accounts/bot/")
    assert unconfirmed.status_code == 400 and "Tick the box" in unconfirmed.content.decode()
    assert User.objects.get(pk=robo.pk).role == User.PERSON
    assert client.post("/accounts/bot/", {"confirm": "yes"}).status_code == 302
    assert User.objects.get(pk=robo.pk).role == User.BOT
    again = client.post("/accounts/bot/", {"confirm": "yes"})
    assert "a bot account already" in again.content.decode()
    assert 'data-bot-account title="A program plays this account">BOT' in (
        client.get("/u/robo/").content.decode()
    )


def test_an_account_that_played_stays_a_person(robo):
    game = ended_game(seats=[{"user_id": robo.pk}], winners=[0])
    GameRecord.objects.create(
        user=robo, game=game, kind="war", seat=0, won=True, moves=1, seconds=1, ended=game.ended
    )
    with pytest.raises(services.BotError, match="no games yet"):
        services.become_bot(user=robo)
    assert User.objects.get(pk=robo.pk).role == User.PERSON


def test_a_token_cannot_turn_its_account_into_a_bot(robo):
    _, secret = tokens.create_token(user=robo, name="b", scopes=["play"])
    answer = Client().post(
        "/accounts/bot/", {"confirm": "yes"}, HTTP_AUTHORIZATION=f"Bearer {secret}"
    )
    assert answer.status_code == 403 and User.objects.get(pk=robo.pk).role == User.PERSON


def test_bots_are_never_paid_kudos(robo, real_services):
    services.become_bot(user=robo)
    robo.refresh_from_db()
    entry, created = kudos.credit(user_id=robo.pk, amount=5, kind="play", key="k1", memo="x")
    assert (entry, created) == (None, False)
    game = ended_game(seats=[{"user_id": robo.pk}, {"user_id": None, "bot": True}], winners=[0])
    assert kudos.pay_for_game(game) == []
    assert not Entry.objects.filter(user=robo).exists()
    # A person is paid the same way (the check is on the account, not on the path).
    ann = User.objects.create_user("ann", password=None)
    game = ended_game(seats=[{"user_id": ann.pk}, {"user_id": None, "bot": True}], winners=[0])
    assert kudos.pay_for_game(game) and Entry.objects.filter(user=ann).exists()


def test_bots_never_join_the_ranked_queue(robo):
    services.become_bot(user=robo)
    robo.refresh_from_db()
    with pytest.raises(ranked.QueueError, match="Bot accounts don't join the ranked queue"):
        ranked.enqueue(user=robo, kind="poker")


def _settled(user, kind="poker", mu=30.0):
    sigma = ratings.PROVISIONAL_SIGMA - 1
    return Rating.objects.create(
        user=user, kind=kind, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=20,
        updated=timezone.now() - timedelta(days=1),
    )  # fmt: skip


def test_bots_have_their_own_boards(robo, client):
    services.become_bot(user=robo)
    ann = User.objects.create_user("ann", password=None)
    _settled(robo, mu=40.0)
    _settled(ann)
    assert [r.user for r in selectors.board("poker")] == [ann]
    assert [r.user for r in selectors.board("poker", role=User.BOT)] == [robo]
    assert selectors.board_sizes(["poker"]) == {"poker": 1}
    people = client.get("/leaderboards/poker/").content.decode()
    bots = client.get("/leaderboards/poker/bots/").content.decode()
    assert ">ann<" in people and ">robo<" not in people
    assert ">robo<" in bots and ">ann<" not in bots
    assert "robo" not in client.get("/leaderboards/").content.decode()


def test_a_bot_is_marked_at_the_table(robo):
    services.become_bot(user=robo)
    ann = User.objects.create_user("ann", password=None)
    room = lobby.create_room(player=f"user:{ann.pk}", name="ann", user=ann)
    lobby.join_room(code=room.code, player=f"user:{robo.pk}", name="robo", user=robo)
    lobby.start_game(room=room, player=f"user:{ann.pk}", kind="war")
    client = Client()
    client.force_login(ann)
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert 'data-bot-account title="A program plays this account">BOT' in page
    from lobby import tables

    room = lobby.open_room(room.code)
    context = tables.room_context(room, lobby.member_of(room, f"user:{ann.pk}"))
    seats = json.loads(json.dumps(tables.state_message(context)))["seats"]
    assert [(s["name"], s["bot_account"]) for s in seats] == [("ann", False), ("robo", True)]
    assert Game.objects.count() == 1
