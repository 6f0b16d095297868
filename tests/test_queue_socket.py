"""The waiting page's socket on the Redis channel layer: who is queued, leaving by closing the
page, being sent to the table once matched, and plain answers to bad messages."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from cubiccards.asgi import application
from lobby import ranked
from lobby.models import QueueEntry
from tests.socket_helpers import refused

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

KIND = "poker"


def _user(name: str) -> tuple[User, Client]:
    user = User.objects.create_user(name, password="pw-long-enough")
    client = Client()
    client.force_login(user)
    return user, client


async def connect(client: Client | None, kind: str = KIND, fmt: str = "json"):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    query = "?format=json" if fmt == "json" else ""
    communicator = WebsocketCommunicator(application, f"/ws/queue/{kind}/{query}", headers=headers)
    communicator.scope["headers"] = headers
    return communicator


async def receive(communicator, timeout=5) -> dict:
    return json.loads(await communicator.receive_from(timeout=timeout))


async def receive_until(communicator, predicate, timeout=5, limit=20) -> dict:
    for _ in range(limit):
        message = await receive(communicator, timeout)
        if predicate(message):
            return message
    raise AssertionError("no matching message")


async def test_guests_and_unrated_games_are_turned_away(real_services):
    communicator = await connect(None)
    assert await refused(communicator) == 4401
    _, client = await sync_to_async(_user)("ann")
    for kind in ("war", "nosuchgame"):
        communicator = await connect(client, kind)
        assert await refused(communicator) == 4404


async def test_the_waiting_page_shows_who_waits_and_follows_the_queue(real_services):
    ann, ann_client = await sync_to_async(_user)("ann")
    bob, _ = await sync_to_async(_user)("bob")
    await sync_to_async(ranked.enqueue)(user=ann, kind=KIND)
    communicator = await connect(ann_client)
    assert (await communicator.connect())[0]
    state = await receive(communicator)
    assert state["type"] == "queue" and state["status"] == "waiting"
    assert state["rating"] == 1500 and state["provisional"] is True and state["seats"] == 4
    assert [(w["name"], w["you"]) for w in state["waiting"]] == [("ann", True)]
    # Someone else queues: the page hears of it.
    await sync_to_async(ranked.enqueue)(user=bob, kind=KIND)
    state = await receive_until(communicator, lambda m: len(m.get("waiting", [])) == 2)
    assert [w["name"] for w in state["waiting"]] == ["ann", "bob"]
    # Matched (after the wait, with computer players): the page gets the table's address.
    later = timezone.now() + timedelta(seconds=settings.RANKED_FILL_AFTER + 1)
    [room] = await sync_to_async(ranked.match)(KIND, now=later)
    state = await receive_until(communicator, lambda m: m.get("status") == "matched")
    assert state["room"] == room.code and state["url"] == f"/rooms/{room.code}/"
    await communicator.disconnect()


async def test_html_fragments_for_the_page(real_services):
    ann, client = await sync_to_async(_user)("ann")
    await sync_to_async(ranked.enqueue)(user=ann, kind=KIND)
    communicator = await connect(client, fmt="html")
    assert (await communicator.connect())[0]
    fragment = await communicator.receive_from(timeout=5)
    assert 'id="queue-main"' in fragment and "Looking for players" in fragment
    assert "Leave the queue" in fragment
    await communicator.disconnect()


async def test_closing_the_page_leaves_the_queue_but_a_reload_does_not(real_services):
    ann, client = await sync_to_async(_user)("ann")
    entry = await sync_to_async(ranked.enqueue)(user=ann, kind=KIND)
    first = await connect(client)
    await first.connect()
    await receive(first)
    second = await connect(client)  # a reload: the new page opens as the old one closes
    await second.connect()
    await receive(second)
    await first.disconnect()
    assert not await sync_to_async(ranked.check_presence)(entry.pk)  # still one page open
    await second.disconnect()
    # After the grace period (the task the disconnect scheduled), nobody is watching: gone.
    assert await sync_to_async(ranked.check_presence)(entry.pk)
    status = await sync_to_async(lambda: QueueEntry.objects.get(pk=entry.pk).status)()
    assert status == "left"


async def test_leave_and_bad_messages_over_the_socket(real_services):
    ann, client = await sync_to_async(_user)("ann")
    await sync_to_async(ranked.enqueue)(user=ann, kind=KIND)
    communicator = await connect(client)
    await communicator.connect()
    await receive(communicator)

    async def expect_error(payload, text):
        await communicator.send_to(text_data=payload)
        message = await receive_until(communicator, lambda m: m["type"] == "error")
        assert message["message"] == text

    await expect_error("not json", 'Messages are JSON objects with a "type".')
    await expect_error(
        json.dumps({"type": "dance"}), 'Unknown message type. Send "leave", "sync" or "ping".'
    )
    await communicator.send_to(text_data=json.dumps({"type": "ping"}))
    assert await receive(communicator) == {"type": "pong"}
    await communicator.send_to(text_data=json.dumps({"type": "leave"}))
    state = await receive_until(communicator, lambda m: m.get("status") == "left")
    assert state["waiting"] == []
    await expect_error(json.dumps({"type": "leave"}), "You are not in the queue for Poker.")
    await communicator.disconnect()


async def test_a_page_opened_before_queueing_keeps_its_person_in_the_queue(real_services):
    ann, client = await sync_to_async(_user)("ann")
    communicator = await connect(client)
    await communicator.connect()
    assert (await receive(communicator))["status"] == "none"
    response = await sync_to_async(client.post)(f"/ranked/{KIND}/")  # the page's own button
    assert response.status_code == 302
    await receive_until(communicator, lambda m: m.get("status") == "waiting")
    entry = await sync_to_async(QueueEntry.objects.get)(user=ann)
    assert entry.connections == 1
    await communicator.disconnect()
    assert await sync_to_async(ranked.check_presence)(entry.pk)
