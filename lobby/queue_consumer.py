"""The waiting page's socket: /ws/queue/<kind>/. Shows who is queued and for how long, and
sends the person to their table once the matcher seats them. Closing it leaves the queue.

Out: {"type": "queue", ...} (see ``QueueConsumer.state``) as JSON with ?format=json, or the
page's fragment for the htmx ws extension; {"type": "error", "message": "..."}.
In: {"type": "leave"}, {"type": "sync"}, {"type": "ping"} → {"type": "pong"}."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import get_template
from django.utils import translation

from infra import jsontext
from infra.sockets import (
    READ_ONLY,
    ClosesWhenRedisIsDown,
    LeavesTheLayer,
    SendsWhileOpen,
    language_of,
    may_act,
    refuse,
)

from . import messages, ranked
from .models import QueueEntry
from .tables import csrf_token_for
from .words import in_language, say

MAX_MESSAGE = 1024
SIGN_IN_CASUAL = say("Sign in to find players.")
SIGN_IN_RANKED = say("Sign in to play ranked.")
NOT_RANKED = say("That game is not played ranked.")
NOT_JSON = say('Messages are JSON objects with a "type".')
UNKNOWN_TYPE = say('Unknown message type. Send "leave", "sync" or "ping".')
SEEN_EVERY = 20  # seconds between signs of life while the page is open


class QueueConsumer(SendsWhileOpen, ClosesWhenRedisIsDown, LeavesTheLayer, AsyncWebsocketConsumer):
    casual = False  # QuickConsumer: quick play's queue
    template = "lobby/_queue_main.html"

    async def connect(self):
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.format = "json" if query.get("format") == ["json"] else "html"
        self.language = language_of(self.scope)
        self.entry_id = None
        self.heartbeat = None
        self.user = self.scope.get("user")
        self.csrf_token = csrf_token_for(self.scope.get("cookies", {}))
        if self.user is None or not self.user.is_authenticated:
            await refuse(
                self,
                4401,
                in_language(SIGN_IN_CASUAL if self.casual else SIGN_IN_RANKED, self.language),
            )
            return
        try:
            kind = self.scope["url_route"]["kwargs"]["kind"]
            self.engine = ranked.queue_engine(kind, self.casual)
        except ranked.QueueError as exc:
            await refuse(
                self,
                4404,
                in_language(exc.message if self.casual else NOT_RANKED, self.language),
            )
            return
        await self.accept()
        self.group = ranked.queue_group(self.engine.kind, self.casual)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.heartbeat = asyncio.ensure_future(self._beat())
        await self.refresh()

    def _track(self) -> None:
        """Watch the person's waiting entry, if any: the one this page keeps in the queue
        (they may queue after the page opened, from its own button)."""
        entry = ranked.current_entry(self.user, self.engine.kind, self.casual)
        waiting = entry.pk if entry and entry.status == QueueEntry.Status.WAITING else None
        if waiting is not None and waiting != self.entry_id:
            ranked.page_opened(waiting)
            self.entry_id = waiting

    async def _beat(self):
        while True:
            await asyncio.sleep(SEEN_EVERY)
            if self.entry_id is not None:
                await database_sync_to_async(ranked.page_seen)(self.entry_id)

    async def disconnect(self, code):
        if self.heartbeat:
            self.heartbeat.cancel()
        if getattr(self, "group", None) is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.entry_id is not None:
            await database_sync_to_async(ranked.page_closed)(self.entry_id)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = messages.parse(text_data or bytes_data, limit=MAX_MESSAGE)
        except messages.BadMessage:
            return await self.error(NOT_JSON)
        kind = message.get("type")
        if kind == "ping":
            if self.entry_id is not None:
                await database_sync_to_async(ranked.page_seen)(self.entry_id)
            return await self.send(text_data=jsontext.dumps({"type": "pong"}))
        if kind == "sync":
            return await self.refresh()
        if kind == "leave":
            if not may_act(self.scope):
                return await self.error(READ_ONLY)
            try:
                await database_sync_to_async(ranked.leave)(
                    user=self.user, kind=self.engine.kind, casual=self.casual
                )
            except ranked.QueueError as exc:
                await self.error(exc.message)
            return await self.refresh()
        return await self.error(UNKNOWN_TYPE)

    async def queue_update(self, event):
        await self.refresh()

    async def refresh(self):
        await self.send(text_data=await database_sync_to_async(self._render)())

    def _render(self) -> str:
        self._track()
        state = ranked.queue_state(self.user, self.engine, self.casual)
        if self.format == "json":
            return jsontext.dumps(state)
        with translation.override(self.language):
            return get_template(self.template).render(
                {"q": state, "csrf_token": self.csrf_token, "user": self.user}
            )

    async def error(self, message: str):
        message = in_language(message, self.language)
        if self.format == "json":
            await self.send(text_data=jsontext.dumps({"type": "error", "message": message}))
        else:
            with translation.override(self.language):
                text = get_template("lobby/_error.html").render({"message": message})
            await self.send(text_data=text)


class QuickConsumer(QueueConsumer):
    """Quick play's waiting page: /ws/quick/<kind>/, the same messages as the ranked queue's
    ("casual": true, no rating at stake); 4404 for a game played alone."""

    casual = True
    template = "lobby/_quick_main.html"
