"""The header's Kudos slot, live: /ws/kudos/.

Signed-in players only (others are closed with 4401). The server sends the slot's HTML (for
the htmx ws extension, swapped by its id) on connect, and again whenever the player's Kudos
change or a bonus event starts or ends, with the news to announce (and a badge just earned,
as a toast with its art). It reads nothing the client sends."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import close_old_connections
from django.utils import translation
from django.utils.translation import gettext_noop

from infra import news
from infra.sockets import (
    ClosesWhenRedisIsDown,
    LeavesTheLayer,
    SendsWhileOpen,
    language_of,
    refuse,
)

from . import selectors, services, slot, words


class KudosConsumer(SendsWhileOpen, ClosesWhenRedisIsDown, LeavesTheLayer, AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await refuse(self, 4401, gettext_noop("Sign in to see your Kudos."))
            return
        self.user = user
        self.joined = [news.person_group(user.pk), services.EVERYONE]
        await self.accept()
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_slot(None, "")

    async def disconnect(self, code):
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # nothing to ask: the slot comes when it changes

    async def kudos_changed(self, event):
        await self.send_slot(event.get("news"), event.get("badge", ""))

    async def send_slot(self, news, badge):
        # Not thread-sensitive: a bonus event refreshes every open header at once.
        html = await database_sync_to_async(render_slot, thread_sensitive=False)(
            self.user, news, badge, language_of(self.scope)
        )
        await self.send(text_data=html)


def render_slot(user, news: str | None, badge: str = "", language: str = "en") -> str:
    try:
        # The news box is sent only with news, so a reconnect leaves the page's own news be.
        with translation.override(language):
            return slot.drawn(selectors.header(user, words.news(news), badge), live=True)
    finally:
        # Off the shared thread, the connection belongs to this call's context: close it here
        # (database_sync_to_async's own cleanup runs outside that context and misses it).
        close_old_connections()
