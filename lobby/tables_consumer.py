"""The open tables' socket: /ws/tables/. Anyone may listen (guests too): it sends the list of
public tables waiting for players on connect and again whenever one changes (listed, made
private, joined, left, started, back in its lobby, its host gone or back).

Out: the list's fragment for the htmx ws extension, or with ?format=json
{"type": "tables", "tables": [{"code", "kind", "title", "options", "seats", "free", "host",
"rating"}]}. In: {"type": "ping"} → {"type": "pong"}; anything else is ignored."""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import get_template
from django.utils import translation

from infra import jsontext
from infra.scheduling import on_thread
from infra.sockets import ClosesWhenRedisIsDown, LeavesTheLayer, SendsWhileOpen, language_of

from . import selectors, services, viewpoints
from .tables import csrf_token_for


class OpenTablesConsumer(
    SendsWhileOpen, ClosesWhenRedisIsDown, LeavesTheLayer, AsyncWebsocketConsumer
):
    async def connect(self):
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.format = "json" if query.get("format") == ["json"] else "html"
        self.language = language_of(self.scope)
        self.csrf_token = csrf_token_for(self.scope.get("cookies", {}))
        await self.accept()
        await self.channel_layer.group_add(services.OPEN_TABLES, self.channel_name)
        await self.send_list(None)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(services.OPEN_TABLES, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data and len(text_data) < 256 and '"ping"' in text_data:
            await self.send(text_data=jsontext.dumps({"type": "pong"}))

    async def tables_update(self, event):
        await self.send_list(event.get("version"))

    async def send_list(self, version: str | None):
        await self.send(text_data=await on_thread(self._render)(version))

    def _render(self, version: str | None) -> str:
        # One read per change per process, shared by every page it serves.
        listed = (
            viewpoints.shared(("open_tables", version), selectors.open_tables)
            if version
            else selectors.open_tables()
        )
        if self.format == "json":
            return jsontext.dumps({"type": "tables", "tables": listed})
        context = {"tables": listed, "csrf_token": self.csrf_token}
        with translation.override(self.language):  # the list is shared, its page is not
            return get_template("lobby/_open_tables.html").render(context)
