"""Personal access tokens: stored hashed, shown once, revocable, scoped and limited, for HTTP
and for sockets (the header and the subprotocol forms)."""

import asyncio
import hashlib
import json

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from api import sockets, tokens
from api.models import AccessToken
from cubiccards.asgi import application
from infra.sockets import READ_ONLY
from lobby import services as lobby
from tests.socket_helpers import refused

User = get_user_model()
ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


def bearer(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@pytest.fixture
def ann(db):
    return User.objects.create_user("ann", password="grey-Otter-71-lantern")


@pytest.mark.django_db
def test_the_secret_is_shown_once_and_stored_only_as_its_digest(ann):
    client = Client()
    client.force_login(ann)
    made = client.post("/accounts/tokens/", {"name": "my bot", "scopes": ["play", "read"]})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    secret = made.content.decode().split("data-token-secret>")[1].split("<")[0]
    assert secret.startswith("cc_") and len(secret) > 40
    token = AccessToken.objects.get(user=ann)
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    stored = json.dumps(list(AccessToken.objects.values()), default=str)
    assert secret not in stored and secret[8:] not in stored
    listed = client.get("/accounts/tokens/").content.decode()
    assert "my bot" in listed and token.prefix in listed and secret not in listed


@pytest.mark.django_db
def test_a_token_without_a_name_or_scope_is_refused_with_a_sentence(ann):
    client = Client()
    client.force_login(ann)
    answer = client.post("/accounts/tokens/", {"name": "x", "scopes": ["admin"]})
    assert answer.status_code == 400 and "Choose what the token may do" in answer.content.decode()
    assert not AccessToken.objects.exists()


@pytest.mark.django_db
def test_http_with_a_token_acts_as_its_account_without_csrf(ann):
    _, secret = tokens.create_token(user=ann, name="bot", scopes=["play"])
    client = Client(enforce_csrf_checks=True)
    made = client.post("/rooms/", **bearer(secret))
    assert made.status_code == 302 and made["Location"].startswith("/rooms/")
    code = made["Location"].strip("/").split("/")[-1]
    assert lobby.open_room(code).members.get().player == f"user:{ann.pk}"
    # Without the token, the same request is a forgery as ever.
    assert Client(enforce_csrf_checks=True).post("/rooms/").status_code == 403


@pytest.mark.django_db
def test_wrong_and_revoked_tokens_get_401(ann):
    token, secret = tokens.create_token(user=ann, name="bot", scopes=["play", "read"])
    client = Client()
    wrong = client.get("/api/", **bearer(secret + "x"))
    assert wrong.status_code == 401 and "wrong or was revoked" in wrong.json()["message"]
    assert client.get("/api/", **bearer(secret)).status_code == 200
    tokens.revoke_token(user=ann, token_id=token.pk)
    assert client.get("/api/", **bearer(secret)).status_code == 401
    assert client.post("/rooms/", **bearer(secret)).status_code == 401


@pytest.mark.django_db
def test_a_read_token_may_read_but_not_act(ann):
    _, secret = tokens.create_token(user=ann, name="watcher", scopes=["read"])
    client = Client()
    assert client.get("/api/", **bearer(secret)).status_code == 200
    refused_ = client.post("/rooms/", **bearer(secret))
    assert refused_.status_code == 403 and '"play" scope' in refused_.json()["message"]
    assert not lobby.Room.objects.exists()


@pytest.mark.django_db
def test_a_token_cannot_manage_its_account(ann):
    _, secret = tokens.create_token(user=ann, name="bot", scopes=["play", "read"])
    answer = Client().post(
        "/accounts/tokens/", {"name": "more", "scopes": ["play"]}, **bearer(secret)
    )
    assert answer.status_code == 403
    assert AccessToken.objects.count() == 1


@pytest.mark.django_db
def test_a_token_that_floods_gets_429(ann, settings):
    settings.TOKEN_RATE = 5
    token, secret = tokens.create_token(user=ann, name="bot", scopes=["read"])
    other, other_secret = tokens.create_token(user=ann, name="other", scopes=["read"])
    client = Client()
    answers = [client.get("/api/", **bearer(secret)).status_code for _ in range(8)]
    assert answers == [200] * 5 + [429] * 3
    assert client.get("/api/", **bearer(other_secret)).status_code == 200  # per token


@pytest.mark.django_db
def test_last_used_is_written_at_most_once_a_minute(ann):
    token, secret = tokens.create_token(user=ann, name="bot", scopes=["read"])
    client = Client()
    client.get("/api/", **bearer(secret))
    first = AccessToken.objects.get(pk=token.pk).last_used
    assert first is not None
    client.get("/api/", **bearer(secret))
    assert AccessToken.objects.get(pk=token.pk).last_used == first


# ---- sockets ---------------------------------------------------------------------------------


def _room_of(user):
    return lobby.create_room(player=f"user:{user.pk}", name=user.username, user=user)


async def _connect(path, headers=(), subprotocols=None):
    communicator = WebsocketCommunicator(
        application, path, headers=[*ORIGIN, *headers], subprotocols=subprotocols
    )
    connected, subprotocol = await communicator.connect()
    assert connected
    return communicator, subprotocol


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_with_the_header_or_the_subprotocol_is_its_account(ann):
    from asgiref.sync import sync_to_async

    room = await sync_to_async(_room_of)(ann)
    _, secret = await sync_to_async(tokens.create_token)(user=ann, name="bot", scopes=["play"])
    path = f"/ws/rooms/{room.code}/?format=json"
    header = [(b"authorization", f"Bearer {secret}".encode())]
    for socket, expected in [
        (await _connect(path, header), None),
        (await _connect(path, subprotocols=["cubiccards.v1", f"bearer.{secret}"]), "cubiccards.v1"),
    ]:
        communicator, subprotocol = socket
        assert subprotocol == expected
        state = json.loads(await communicator.receive_from(timeout=5))
        assert state["type"] == "lobby" and state["host"] is True
        await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_program_sends_no_origin_only_a_token(ann):
    from asgiref.sync import sync_to_async

    room = await sync_to_async(_room_of)(ann)
    _, secret = await sync_to_async(tokens.create_token)(user=ann, name="bot", scopes=["play"])
    path = f"/ws/rooms/{room.code}/?format=json"
    host = [(b"host", b"testserver")]
    bare = WebsocketCommunicator(application, path, headers=host)
    assert (await bare.connect())[0] is False  # cookies alone need the site's own Origin
    program = WebsocketCommunicator(
        application, path, headers=[*host, (b"authorization", f"Bearer {secret}".encode())]
    )
    assert (await program.connect())[0]
    assert json.loads(await program.receive_from(timeout=5))["type"] == "lobby"
    await program.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_wrong_token_socket_is_turned_away_with_4401(ann):
    from asgiref.sync import sync_to_async

    room = await sync_to_async(_room_of)(ann)
    header = [(b"authorization", b"Bearer cc_nothing")]
    communicator = WebsocketCommunicator(
        application, f"/ws/rooms/{room.code}/?format=json", headers=[*ORIGIN, *header]
    )
    assert await refused(communicator) == 4401


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_read_token_socket_watches_but_may_not_act(ann):
    from asgiref.sync import sync_to_async

    room = await sync_to_async(_room_of)(ann)
    await sync_to_async(lobby.start_game)(room=room, player=f"user:{ann.pk}", kind="war")
    _, secret = await sync_to_async(tokens.create_token)(user=ann, name="w", scopes=["read"])
    header = [(b"authorization", f"Bearer {secret}".encode())]
    communicator, _ = await _connect(f"/ws/rooms/{room.code}/?format=json", header)
    state = json.loads(await communicator.receive_from(timeout=5))
    assert state["type"] == "state" and state["legal"]
    act = {"type": "act", "action": state["legal"][0], "seq": state["seq"], "id": "1"}
    await communicator.send_to(text_data=json.dumps(act))
    answer = json.loads(await communicator.receive_from(timeout=5))
    assert answer == {"type": "error", "message": READ_ONLY, "id": "1"}
    game = await sync_to_async(lambda: lobby.open_room(room.code).game)()
    assert game.seq == state["seq"]  # nothing applied
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_revoking_a_token_closes_its_open_sockets_within_seconds(ann, monkeypatch):
    from asgiref.sync import sync_to_async

    monkeypatch.setattr(sockets, "REVOKE_CHECK", 0.2)
    room = await sync_to_async(_room_of)(ann)
    token, secret = await sync_to_async(tokens.create_token)(user=ann, name="b", scopes=["play"])
    header = [(b"authorization", f"Bearer {secret}".encode())]
    communicator, _ = await _connect(f"/ws/rooms/{room.code}/?format=json", header)
    await communicator.receive_from(timeout=5)
    await sync_to_async(tokens.revoke_token)(user=ann, token_id=token.pk)
    said = json.loads(await communicator.receive_from(timeout=5))
    assert said == {"type": "error", "message": sockets.WRONG_TOKEN}
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401}
    await asyncio.sleep(0.3)
