"""A bot that stops answering is a person who left: its seat says "reconnecting", then the
computer plays it; it is back when it reconnects; at a rated table it loses the game if it
stays away (the ranked forfeit), as a person would."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from api import challenges, services, tokens
from lobby import ranked
from lobby import services as lobby
from lobby.models import Member

from .test_presence import _presence
from .test_protocol_schema import ORIGIN
from .test_room_socket import _gone_for_the_grace_period, receive, receive_until

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _setup(rated: bool):
    ann = User.objects.create_user("ann", password=None)
    robo = User.objects.create_user("robo", password=None)
    services.become_bot(user=robo)
    secrets = {}
    for user in (ann, robo):
        _, secrets[user.username] = tokens.create_token(user=user, name="t", scopes=["play"])
    made = challenges.challenge(challenger=ann, opponent="robo", kind="gin", rated=rated)
    room = challenges.accept(user=robo, challenge_id=made.pk).room
    seat = Member.objects.get(room=room, user=robo).seat
    return room.code, secrets, seat


async def _opened(code: str, secret: str):
    from channels.testing import WebsocketCommunicator

    from cubiccards.asgi import application

    header = (b"authorization", f"Bearer {secret}".encode())
    ws = WebsocketCommunicator(
        application, f"/ws/rooms/{code}/?format=json", headers=[*ORIGIN, header]
    )
    assert (await ws.connect())[0]
    return ws, await receive(ws)


async def test_a_bot_that_goes_quiet_has_the_computer_play_its_seat_until_it_is_back(
    real_services,
):
    code, secrets, seat = await database_sync_to_async(_setup)(rated=False)
    ann_ws, _ = await _opened(code, secrets["ann"])
    robo_ws, _ = await _opened(code, secrets["robo"])
    await receive_until(ann_ws, lambda m: _presence(m, seat) == "online")
    await robo_ws.disconnect()
    await receive_until(ann_ws, lambda m: _presence(m, seat) == "reconnecting")
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=seat)
    await database_sync_to_async(_gone_for_the_grace_period)(member.pk)
    assert await database_sync_to_async(lobby.check_seat)(member.pk)
    held = await receive_until(ann_ws, lambda m: _presence(m, seat) == "computer")
    assert held["seats"][seat]["bot"] and held["seats"][seat]["bot_account"]
    robo_ws, _ = await _opened(code, secrets["robo"])
    back = await receive_until(ann_ws, lambda m: m.get("notice"))
    assert back["notice"] == "robo is back." and _presence(back, seat) == "online"
    for ws in (ann_ws, robo_ws):
        await ws.disconnect()


def _away_for_the_forfeit(member_id: int) -> None:
    away = timezone.now() - timedelta(seconds=settings.RANKED_FORFEIT + 1)
    Member.objects.filter(pk=member_id).update(last_seen=away)


async def test_a_bot_that_stays_away_from_a_rated_game_loses_it(real_services):
    code, secrets, seat = await database_sync_to_async(_setup)(rated=True)
    robo_ws, _ = await _opened(code, secrets["robo"])
    await robo_ws.disconnect()
    member = await database_sync_to_async(Member.objects.get)(room__code=code, seat=seat)
    await database_sync_to_async(_gone_for_the_grace_period)(member.pk)
    assert await database_sync_to_async(lobby.check_seat)(member.pk)
    await database_sync_to_async(_away_for_the_forfeit)(member.pk)
    assert await database_sync_to_async(ranked.check_forfeit)(member.pk)
    member = await database_sync_to_async(Member.objects.select_related("room__game").get)(
        pk=member.pk
    )
    # Gone for good: it only watches now, and the computer finishes the game for its seat,
    # which is ranked last.
    assert member.seat is None and member.room.game.seats[seat]["left"]
