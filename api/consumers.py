"""The bot event socket: /ws/bot/. What a program hears of besides its tables: challenges.

Signed in or with an access token (others are closed with 4401). Out: at once and on
``{"type": "sync"}``, ``{"type": "challenges", "challenges": [...]}`` (the account's open
challenges, made and received); whenever one of them changes (made, accepted with its room,
declined, withdrawn) ``{"type": "challenge", "challenge": {...}}``; ``{"type": "pong"}``;
``{"type": "error", "message": "..."}``. In: ``sync``, ``ping``."""

from __future__ import annotations

import json

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext_noop

from infra.scheduling import on_thread
from infra.sockets import ClosesWhenRedisIsDown, LeavesTheLayer, SendsWhileOpen, refuse, said
from lobby import messages

from . import challenges

MAX_MESSAGE = 1024


class BotEventsConsumer(
    SendsWhileOpen, ClosesWhenRedisIsDown, LeavesTheLayer, AsyncWebsocketConsumer
):
    group = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await refuse(
                self, 4401, gettext_noop("Send an access token (or sign in) to hear of challenges.")
            )
            return
        self.user = user
        self.group = challenges.event_group(user.pk)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_list()

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = messages.parse(text_data or bytes_data, limit=MAX_MESSAGE)
        except messages.BadMessage:
            return await self.error(gettext_noop('Messages are JSON objects with a "type".'))
        kind = message.get("type")
        if kind == "ping":
            return await self.send_json({"type": "pong"})
        if kind == "sync":
            return await self.send_list()
        return await self.error(gettext_noop('Unknown message type. Send "sync" or "ping".'))

    async def challenge_update(self, event):
        await self.send_json({"type": "challenge", "challenge": event["challenge"]})

    async def send_list(self):
        listed = await on_thread(self._listed)()
        await self.send_json({"type": "challenges", "challenges": listed})

    def _listed(self) -> list[dict]:
        return [challenges.as_json(c) for c in challenges.listed(self.user)]

    async def error(self, message: str):
        await self.send_json({"type": "error", "message": said(message, self.scope)})

    async def send_json(self, message: dict):
        await self.send(text_data=json.dumps(message))
