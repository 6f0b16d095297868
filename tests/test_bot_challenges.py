"""Challenges: people challenge bots, bots challenge bots (and people who let them); the
challenged side accepts or declines over HTTP with a token, and hears of it on /ws/bot/."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from api import challenges, services, tokens
from api.models import Challenge
from cubiccards.asgi import application
from lobby.models import Room
from tests.socket_helpers import refused

ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


def make_bot(name: str) -> tuple[User, str]:
    user = User.objects.create_user(name, password=None)
    services.become_bot(user=user)
    user.refresh_from_db()
    _, secret = tokens.create_token(user=user, name="bot", scopes=["play", "read"])
    return user, secret


def as_bot(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@pytest.mark.django_db
def test_a_person_challenges_a_bot_from_its_profile_and_the_bot_accepts():
    robo, secret = make_bot("robo")
    ann = User.objects.create_user("ann", password=None)
    person = Client()
    person.force_login(ann)
    assert "data-challenge-form" in person.get("/u/robo/").content.decode()
    made = person.post("/api/challenges/", {"opponent": "robo", "game": "crazy8"})
    assert made.status_code == 302
    challenge = Challenge.objects.get()
    assert made["Location"] == f"/api/challenges/{challenge.pk}/"
    assert 'data-challenge-status="open"' in person.get(made["Location"]).content.decode()

    program = Client()
    listed = program.get("/api/challenges/", **as_bot(secret)).json()["challenges"]
    assert [(c["challenger"], c["game"], c["rated"], c["status"]) for c in listed] == [
        ("ann", "crazy8", False, "open")
    ]
    accepted = program.post(f"/api/challenges/{challenge.pk}/accept", **as_bot(secret)).json()
    code = accepted["challenge"]["room"]
    assert accepted["ok"] and accepted["challenge"]["status"] == "accepted" and code
    room = Room.objects.get(code=code)
    assert room.game.kind == "crazy8" and not room.game.ranked
    seats = [(s["user_id"], s["bot"]) for s in room.game.seats]
    assert seats == [(ann.pk, False), (robo.pk, False)]  # the two of them, no computer
    assert person.get(made["Location"])["Location"] == f"/rooms/{code}/"
    again = program.post(f"/api/challenges/{challenge.pk}/accept", **as_bot(secret))
    assert again.status_code == 409 and "accepted already" in again.json()["message"]


@pytest.mark.django_db
def test_bots_challenge_each_other_rated_over_http():
    robo, robo_secret = make_bot("robo")
    zed, zed_secret = make_bot("zed")
    program = Client()
    made = program.post(
        "/api/challenges/",
        json.dumps({"opponent": "zed", "game": "gin", "rated": True}),
        content_type="application/json",
        **as_bot(robo_secret),
    )
    assert made.status_code == 201
    challenge_id = made.json()["challenge"]["id"]
    # The challenger can't accept its own challenge.
    own = program.post(f"/api/challenges/{challenge_id}/accept", **as_bot(robo_secret))
    assert own.status_code == 403
    accepted = program.post(f"/api/challenges/{challenge_id}/accept", **as_bot(zed_secret))
    room = Room.objects.get(code=accepted.json()["challenge"]["room"])
    assert room.ranked and room.game.ranked and room.game.kind == "gin"
    assert sorted(s["user_id"] for s in room.game.seats) == sorted([robo.pk, zed.pk])


@pytest.mark.django_db
def test_who_may_challenge_whom():
    robo, secret = make_bot("robo")
    ann = User.objects.create_user("ann", password=None)
    User.objects.create_user("bob", password=None)
    program = Client()

    def challenge(client, opponent, game="war", **extra):
        return client.post(
            "/api/challenges/", {"opponent": opponent, "game": game, **extra}, **extra_headers
        )

    extra_headers = as_bot(secret)
    refused_ = challenge(program, "ann")
    assert (
        refused_.status_code == 403
        and "doesn't take challenges from bots" in (refused_.json()["message"])
    )
    ann.bots_may_challenge = True
    ann.save()
    assert challenge(program, "ann").status_code == 201
    assert challenge(program, "ann").json()["message"].startswith("You have challenged ann")
    assert "not played by two" in challenge(program, "ann", game="klondike").json()["message"]
    assert "not rated" in challenge(program, "ann", game="war", rated="true").json()["message"]
    assert challenge(program, "nobody").status_code == 404
    extra_headers = {"HTTP_ACCEPT": "application/json"}
    person = Client()
    person.force_login(ann)
    answer = challenge(person, "bob")
    assert answer.status_code == 403 and "bot accounts here" in answer.json()["message"]
    # A read-only token can't challenge.
    _, read = tokens.create_token(user=robo, name="r", scopes=["read"])
    extra_headers = as_bot(read)
    assert challenge(program, "ann", game="poker").status_code == 403
    assert Challenge.objects.count() == 1


@pytest.mark.django_db
def test_a_person_lets_bots_challenge_them_in_settings():
    ann = User.objects.create_user("ann", password=None)
    client = Client()
    client.force_login(ann)
    assert "Bots may challenge me" in client.get("/accounts/settings/").content.decode()
    form = {"email": "", "time_zone": "UTC", "bots_may_challenge": "on"}
    assert client.post("/accounts/settings/", form).status_code == 302
    ann.refresh_from_db()
    assert ann.bots_may_challenge
    robo, _ = make_bot("robo")
    assert challenges.challenge(challenger=robo, opponent="ann", kind="war").challenged == ann


@pytest.mark.django_db
def test_declining_and_withdrawing():
    robo, secret = make_bot("robo")
    ann = User.objects.create_user("ann", password=None)
    made = challenges.challenge(challenger=ann, opponent="robo", kind="poker")
    declined = Client().post(f"/api/challenges/{made.pk}/decline", **as_bot(secret)).json()
    assert declined["challenge"]["status"] == "declined"
    late = Client().post(f"/api/challenges/{made.pk}/accept", **as_bot(secret))
    assert late.status_code == 409 and not Room.objects.exists()
    second = challenges.challenge(challenger=ann, opponent="robo", kind="poker")
    challenges.decline(user=ann, challenge_id=second.pk)
    assert Challenge.objects.get(pk=second.pk).status == "cancelled"
    other = User.objects.create_user("eve", password=None)
    with pytest.raises(challenges.ChallengeError, match="no such challenge"):
        challenges.accept(user=other, challenge_id=second.pk)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_bot_hears_of_challenges_on_its_event_socket():
    robo, secret = await sync_to_async(make_bot)("robo")
    ann = await sync_to_async(User.objects.create_user)("ann", password=None)
    communicator = WebsocketCommunicator(
        application,
        "/ws/bot/",
        headers=[*ORIGIN, (b"authorization", f"Bearer {secret}".encode())],
    )
    connected, _ = await communicator.connect()
    assert connected
    assert json.loads(await communicator.receive_from(timeout=5)) == {
        "type": "challenges",
        "challenges": [],
    }
    made = await sync_to_async(challenges.challenge)(challenger=ann, opponent="robo", kind="war")
    heard = json.loads(await communicator.receive_from(timeout=5))
    assert heard["type"] == "challenge" and heard["challenge"]["id"] == made.pk
    await sync_to_async(challenges.accept)(user=robo, challenge_id=made.pk)
    heard = json.loads(await communicator.receive_from(timeout=5))
    assert heard["challenge"]["status"] == "accepted" and heard["challenge"]["room"]
    await communicator.disconnect()
    anonymous = WebsocketCommunicator(application, "/ws/bot/", headers=ORIGIN)
    assert await refused(anonymous) == 4401
