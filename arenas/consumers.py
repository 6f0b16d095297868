"""The arena page's socket: /ws/arenas/<id>/. Anyone may follow an arena's standings; a signed-in
player's own row is highlighted and, once paired, the page goes to their table.

Out: {"type": "arena", ...} (arenas.selectors.arena_state) as JSON with ?format=json, or the
page's fragment for the htmx ws extension; {"type": "error", "message": "..."}.
In: {"type": "sync"}, {"type": "ping"} → {"type": "pong"}. Joining and pausing are forms."""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import get_template

from infra.scheduling import on_thread
from infra.sockets import ClosesWhenRedisIsDown, LeavesTheLayer, SendsWhileOpen, refuse
from lobby import messages
from lobby.tables import csrf_token_for

from . import selectors, services
from .models import Arena

MAX_MESSAGE = 1024


class ArenaConsumer(SendsWhileOpen, ClosesWhenRedisIsDown, LeavesTheLayer, AsyncWebsocketConsumer):
    async def connect(self):
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.format = "json" if query.get("format") == ["json"] else "html"
        self.group = None
        self.user = self.scope.get("user")
        self.csrf_token = csrf_token_for(self.scope.get("cookies", {}))
        arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        if not await on_thread(Arena.objects.filter(pk=arena_id).exists)():
            await refuse(self, 4404, "There is no such arena.")
            return
        self.arena_id = arena_id
        await self.accept()
        self.group = services.group(arena_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.refresh()

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = messages.parse(text_data or bytes_data, limit=MAX_MESSAGE)
        except messages.BadMessage:
            return await self.error('Messages are JSON objects with a "type".')
        kind = message.get("type")
        if kind == "ping":
            return await self.send(text_data=json.dumps({"type": "pong"}))
        if kind == "sync":
            return await self.refresh()
        return await self.error('Unknown message type. Send "sync" or "ping"; join with the form.')

    async def arena_update(self, event):
        await self.refresh()

    async def refresh(self):
        await self.send(text_data=await on_thread(self._render)())

    def _render(self) -> str:
        arena = Arena.objects.get(pk=self.arena_id)
        state = selectors.arena_state(arena, self.user)
        if self.format == "json":
            return json.dumps(state)
        return get_template("arenas/_arena_main.html").render(
            {"a": state, "arena": arena, "csrf_token": self.csrf_token, "user": self.user}
        )

    async def error(self, message: str):
        if self.format == "json":
            await self.send(text_data=json.dumps({"type": "error", "message": message}))
        else:
            await self.send(
                text_data=get_template("lobby/_error.html").render({"message": message})
            )
