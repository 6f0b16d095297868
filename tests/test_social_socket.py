"""Friends over the header socket (/ws/kudos/): an invitation reaches the friend's open pages
the moment it is sent, as a toast with Join and Dismiss; an open header is what makes a
person online to their friends, and closing it (or its process dying) ends that, after a
moment's grace for the next page to open its own."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db.models import F
from django.test import Client

from accounts.models import User
from cubiccards.asgi import application
from lobby import services as lobby
from social import consumers, selectors, services
from social.models import Online

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def header(client: Client) -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    return WebsocketCommunicator(application, "/ws/kudos/", headers=headers)


@database_sync_to_async
def two_friends_and_a_room():
    ann = User.objects.create_user("ann", password=None)
    bob = User.objects.create_user("bob", password=None)
    services.ask(sender=ann, username="bob")
    services.ask(sender=bob, username="ann")
    room = lobby.create_room(player=f"user:{ann.pk}", name="ann", user=ann)
    client = Client()
    client.force_login(bob)
    return ann, bob, room, client


async def test_an_invitation_reaches_the_friends_open_page_at_once(real_services):
    ann, bob, room, bob_client = await two_friends_and_a_room()
    socket = header(bob_client)
    assert (await socket.connect())[0]
    assert 'id="kudos-slot"' in await socket.receive_from(timeout=5)
    invitation = await database_sync_to_async(services.invite)(
        sender=ann, username="bob", code=room.code
    )
    toast = await socket.receive_from(timeout=5)
    assert 'id="kudos-toasts" hx-swap-oob="beforeend"' in toast
    assert "<b>ann</b> invites you to their table" in toast and room.code in toast
    assert f'hx-post="/invitations/{invitation.pk}/join/"' in toast
    assert f'hx-post="/invitations/{invitation.pk}/dismiss/"' in toast
    # Join from the toast (htmx) goes to the table.
    joined = await database_sync_to_async(bob_client.post)(
        f"/invitations/{invitation.pk}/join/", HTTP_HX_REQUEST="true"
    )
    assert joined["HX-Redirect"] == f"/rooms/{room.code}/"
    await socket.disconnect()


async def test_news_of_an_invitation_no_longer_open_shows_nothing(real_services):
    ann, bob, room, bob_client = await two_friends_and_a_room()
    invitation = await database_sync_to_async(services.invite)(
        sender=ann, username="bob", code=room.code
    )
    await database_sync_to_async(services.dismiss)(user=bob, invitation_id=invitation.pk)
    socket = header(bob_client)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=5)
    # Stale or forged news (an id that is not theirs, or not open) renders no toast.
    for forged in (invitation.pk, invitation.pk + 1000, "x"):
        await socket.send_input({"type": "invitation.sent", "invitation": forged})
    assert await socket.receive_nothing(timeout=1)
    await socket.disconnect()


async def test_an_open_header_is_online_and_closing_it_is_not(real_services):
    _, bob, _, bob_client = await two_friends_and_a_room()
    socket = header(bob_client)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=5)
    assert await database_sync_to_async(selectors.online_ids)([bob.pk]) == {bob.pk}
    await socket.disconnect()
    assert consumers._sockets == {}
    # Still online for the moment a next page takes to open its own header...
    assert await database_sync_to_async(selectors.online_ids)([bob.pk]) == {bob.pk}
    # ...and not once that has passed.
    await database_sync_to_async(Online.objects.update)(
        seen=F("seen") - timedelta(seconds=services.NEXT_PAGE_GRACE + 0.5)
    )
    assert await database_sync_to_async(selectors.online_ids)([bob.pk]) == set()
