"""The header's Kudos slot over /ws/kudos/: sent on connect, and again when Kudos change or a
bonus event starts, with the news."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from cubiccards.asgi import application
from kudos import clock, services
from kudos.models import BonusEvent, Entry
from tests.socket_helpers import refused

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def connect(client: Client | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, "/ws/kudos/", headers=headers)


@database_sync_to_async
def signed_in(player) -> tuple:
    user = player()
    client = Client()
    client.force_login(user)
    return user, client


async def test_the_slot_follows_the_players_kudos(real_services, player):
    ann, client = await signed_in(player)
    socket = await connect(client)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=5)
    assert 'id="kudos-slot"' in first and 'class="kudos-balance">0<' in first
    assert 'id="kudos-news"' not in first  # no news: the page's own stays
    await database_sync_to_async(services.credit)(
        user_id=ann.pk,
        amount=12,
        kind=Entry.Kind.PLAY,
        key="test:1",
        memo="Won War at a table of 2",
    )
    pushed = await socket.receive_from(timeout=5)
    assert 'class="kudos-balance">12<' in pushed
    assert "+12 Kudos: Won War at a table of 2" in pushed
    await socket.disconnect()


async def test_a_bonus_event_is_announced_to_every_open_header(real_services, player):
    ann, client = await signed_in(player)
    socket = await connect(client)
    await socket.connect()
    await socket.receive_from(timeout=5)
    now = clock.now()
    await database_sync_to_async(BonusEvent.objects.create)(
        name="Double Kudos hour",
        multiplier=2,
        starts=now - timedelta(seconds=1),
        ends=now + timedelta(hours=1),
    )
    assert await database_sync_to_async(services.announce_bonus_events)() == 1
    pushed = await socket.receive_from(timeout=5)
    assert "×2 Double Kudos hour" in pushed
    assert await database_sync_to_async(services.announce_bonus_events)() == 0
    await socket.disconnect()


async def test_guests_get_no_slot(real_services):
    socket = await connect(None)
    assert await refused(socket) == 4401
