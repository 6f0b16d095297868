"""The published protocol covers what the sockets say: every message type each socket sends
and accepts, checked against /api/schema/*.json (the whole games of every kind are checked in
tests/e2e/test_wire.py), and the documents are served."""

import json

import jsonschema
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from api import challenges, schema, services, tokens
from cubiccards.asgi import application
from lobby import services as lobby
from lobby.models import Room

ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
DOCUMENTS = schema.socket_schemas()


def check(name: str, messages: list[dict]) -> set[str]:
    """Every message valid against the document `name`; the types seen."""
    validator = jsonschema.Draft202012Validator(DOCUMENTS[name])
    for message in messages:
        error = jsonschema.exceptions.best_match(validator.iter_errors(message))
        assert error is None, f"{name}: {message}: {error.message}"
    return {m["type"] for m in messages}


class Wire:
    """A socket whose every message in and out is kept."""

    def __init__(self, path: str, secret: str):
        header = (b"authorization", f"Bearer {secret}".encode())
        self.communicator = WebsocketCommunicator(application, path, headers=[*ORIGIN, header])
        self.received: list[dict] = []
        self.sent: list[dict] = []

    async def __aenter__(self):
        connected, _ = await self.communicator.connect()
        assert connected
        return self

    async def __aexit__(self, *exc):
        await self.communicator.disconnect()

    async def send(self, message: dict | str):
        if isinstance(message, dict):
            self.sent.append(message)
            message = json.dumps(message)
        await self.communicator.send_to(text_data=message)

    async def read(self, want: str, timeout: float = 5) -> dict:
        """Messages until one of type `want`."""
        while True:
            message = json.loads(await self.communicator.receive_from(timeout=timeout))
            self.received.append(message)
            if message["type"] == want:
                return message

    async def drain(self, seconds: float = 0.3) -> None:
        # (receive_from's timeout would end the consumer: receive_nothing waits without that)
        while not await self.communicator.receive_nothing(timeout=seconds):
            self.received.append(json.loads(await self.communicator.receive_from()))


def person_with_token(name: str) -> tuple[User, str]:
    user = User.objects.create_user(name, password=None)
    _, secret = tokens.create_token(user=user, name="t", scopes=["play", "read"])
    return user, secret


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_every_table_message_type_is_in_the_schema(real_services):
    ann, secret = await sync_to_async(person_with_token)("ann")
    bob, bob_secret = await sync_to_async(person_with_token)("bob")
    room = await sync_to_async(lobby.create_room)(player=f"user:{ann.pk}", name="ann", user=ann)
    await sync_to_async(lobby.join_room)(
        code=room.code, player=f"user:{bob.pk}", name="bob", user=bob
    )
    path = f"/ws/rooms/{room.code}/?format=json"
    async with Wire(path, secret) as wire, Wire(path, bob_secret) as other:
        await wire.read("lobby")
        await wire.send({"type": "ping"})
        await wire.read("pong")
        await wire.send("not json")
        await wire.read("error")
        await sync_to_async(lobby.start_game)(room=room, player=f"user:{ann.pk}", kind="gin")
        state = await wire.read("state")
        await wire.send({"type": "hint"})
        await wire.read("hint")
        await wire.send({"type": "speed_play", "speed": "fast"})
        await wire.send({"type": "sync"})
        await wire.read("state")
        mover = wire if 0 in state["to_act"] else other
        await other.read("state")
        current = (await mover.read("state")) if mover is other else state
        act = {"type": "act", "action": current["legal"][0], "seq": current["seq"], "id": "a1"}
        await mover.send(act)
        await mover.read("ack")
        await mover.send(act)  # the same id again: the same ack, never applied twice
        await mover.read("ack")
        await mover.send({"type": "chat", "phrase": "gg", "id": "c1"})
        said = await other.read("chat")
        assert (said["phrase"], said["text"]) == ("gg", "Good game")
        # Off the schema on purpose (sent as text, so not counted as a message that fits).
        await mover.send(json.dumps({"type": "act", "action": {"type": "nonsense"}, "seq": "x"}))
        await mover.read("error")
        # A spectator arrives (the room made public): the seats hear how many watch.
        await sync_to_async(Room.objects.filter(pk=room.pk).update)(public=True)
        cat, cat_secret = await sync_to_async(person_with_token)("cat")
        async with Wire(f"/ws/rooms/{room.code}/watch/?format=json", cat_secret) as watcher:
            await watcher.read("state")
            await wire.read("watchers")
        for socket in (wire, other):
            await socket.drain()
        received = check("table-out", wire.received + other.received)
        sent = check("table-in", wire.sent + other.sent)
    assert received == set(schema.TABLE_OUT), received
    assert sent == set(schema.TABLE_IN), sent


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_every_queue_and_bot_socket_message_type_is_in_the_schema(real_services):
    ann, secret = await sync_to_async(person_with_token)("ann")
    async with Wire("/ws/queue/poker/?format=json", secret) as wire:
        await wire.read("queue")
        for message in ({"type": "sync"}, {"type": "ping"}, {"type": "leave"}):
            await wire.send(message)
        await wire.read("error")  # leaving a queue one is not in
        await wire.drain()
        assert check("queue-out", wire.received) == set(schema.QUEUE_OUT)
        assert check("queue-in", wire.sent) == set(schema.QUEUE_IN)

    def robo_bot():
        robo, robo_secret = person_with_token("robo")
        services.become_bot(user=robo)
        return robo, robo_secret

    robo, robo_secret = await sync_to_async(robo_bot)()
    async with Wire("/ws/bot/", robo_secret) as wire:
        await wire.read("challenges")
        await sync_to_async(challenges.challenge)(challenger=ann, opponent="robo", kind="war")
        await wire.read("challenge")
        for message in ({"type": "sync"}, {"type": "ping"}, json.dumps({"type": "what"})):
            await wire.send(message)  # the last one is off the schema: sent as text
        await wire.read("error")
        await wire.drain()
        assert check("bot-out", wire.received) == set(schema.BOT_OUT)
        assert check("bot-in", wire.sent) == set(schema.BOT_IN)


@pytest.mark.django_db
def test_the_documents_are_served_and_the_http_answers_match_them():
    client = Client()
    page = client.get("/api/").content.decode()
    for name in schema.documents():
        assert f"/api/schema/{name}.json" in page
        served = client.get(f"/api/schema/{name}.json").json()
        if name != "openapi":
            jsonschema.Draft202012Validator.check_schema(served)
    assert client.get("/api/schema/nothing.json").status_code == 404
    robo, secret = person_with_token("robo")
    services.become_bot(user=robo)
    User.objects.create_user("zed", password=None)
    services.become_bot(user=User.objects.get(username="zed"))
    document = schema.openapi()
    one = {**document["components"]["schemas"]["Challenge"], "$defs": {}}
    made = client.post(
        "/api/challenges/",
        {"opponent": "zed", "game": "war"},
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    ).json()
    jsonschema.validate(made["challenge"], one)
    refused = client.post(
        "/api/challenges/",
        {"opponent": "zed", "game": "war"},
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    ).json()
    jsonschema.validate(refused, document["components"]["schemas"]["Refusal"])
