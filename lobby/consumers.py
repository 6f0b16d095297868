"""The table socket: /ws/rooms/<CODE>/. Each connection is one seat or a spectator.

Messages in: {"type": "act", "action": {...}, "seq": N}, {"type": "sync"}, {"type": "ping"}.
Out: the connection's own view after every committed action, as HTML fragments for the htmx
ws extension, or as JSON with ?format=json. Anything malformed gets {"type": "error"}."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from cards import prefs as card_prefs
from gameplay import services as gameplay
from gameplay.engine import IllegalAction, registry

from . import services, tables
from .identity import scope_player_key
from .models import Member, Room

MAX_MESSAGE = 4096  # bytes; the largest real action is far smaller
RATE = 8.0  # messages per second, sustained
BURST = 20.0


class RoomConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.code = services.normalise_code(self.scope["url_route"]["kwargs"]["code"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.format = "json" if query.get("format") == ["json"] else "html"
        self.member_id = None
        self.game_group = None
        self.sent_seq = -1
        self.allowance, self.checked = BURST, time.monotonic()
        self.csrf_token = tables.csrf_token_for(self.scope.get("cookies", {}))
        player = scope_player_key(self.scope)
        if player is None:
            await self.close(code=4401)  # no account and no guest session: open the page first
            return
        member = await database_sync_to_async(self._connect_member)(player)
        if member is None:
            await self.close(code=4403)  # not in this room: join it by its code first
            return
        self.member_id = member.pk
        await self.accept()
        await self.channel_layer.group_add(services.room_group(self.code), self.channel_name)
        await self.refresh()

    def _connect_member(self, player: str) -> Member | None:
        room = Room.objects.filter(code=self.code, is_open=True).first()
        if room is None:
            return None
        return services.connected(room_id=room.pk, player=player)

    async def disconnect(self, code):
        if self.member_id is None:
            return
        await self.channel_layer.group_discard(services.room_group(self.code), self.channel_name)
        if self.game_group:
            await self.channel_layer.group_discard(self.game_group, self.channel_name)
        await database_sync_to_async(services.disconnected)(member_id=self.member_id)

    # ---- in ------------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        if not self._allowed():
            return await self.error("Slow down: too many messages. Wait a moment.")
        raw = text_data if text_data is not None else bytes_data
        if raw is None or len(raw) > MAX_MESSAGE:
            return await self.error("That message is too large.")
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return await self.error("Messages must be JSON.")
        if not isinstance(message, dict):
            return await self.error('A message must be a JSON object with a "type".')
        kind = message.get("type")
        if kind == "act":
            return await self.act(message)
        if kind == "sync":
            return await self.refresh(force=True)
        if kind == "hint":
            return await self.hint()
        if kind == "ping":
            return await self.send(text_data=json.dumps({"type": "pong"}))
        return await self.error('Unknown message type. Send "act", "sync", "hint" or "ping".')

    async def hint(self):
        """Advice for this seat from the game's own helper (Klondike's solver, ...)."""
        try:
            hint = await database_sync_to_async(self._hint)()
        except services.RoomError as exc:
            return await self.error(exc.message)
        if self.format == "json":
            await self.send(text_data=json.dumps({"type": "hint", "hint": hint}))
        else:
            await self.send(text_data=tables.render_hint(hint))

    async def act(self, message: dict):
        action = message.get("action")
        if isinstance(action, str):  # an htmx form sends JSON as text
            try:
                action = json.loads(action)
            except ValueError:
                return await self.error("The action must be a JSON object.")
        seq = message.get("seq")
        if isinstance(seq, str) and seq.isdigit():
            seq = int(seq)
        try:
            await database_sync_to_async(self._submit)(action, seq)
        except gameplay.StaleSeq as exc:
            await self.error(exc.message)
            await self.refresh(force=True)
        except (IllegalAction, services.RoomError) as exc:
            await self.error(exc.message)

    def _submit(self, action, seq):
        member = Member.objects.select_related("room").get(pk=self.member_id)
        room = member.room
        if member.left or not room.is_open:
            raise services.RoomError("You are no longer in this room.")
        if room.game_id is None:
            raise services.RoomError("No game is in play. The host starts one from the lobby.")
        if member.seat is None:
            raise services.RoomError("You are watching this game: spectators can't play.")
        gameplay.submit_action(
            game_id=room.game_id, seat=member.seat, action=action, seq=seq, rebase=True
        )

    def _hint(self):
        member = Member.objects.select_related("room", "room__game").get(pk=self.member_id)
        game = member.room.game
        if game is None or game.is_over or member.seat is None:
            raise services.RoomError("There is nothing to advise on right now.")
        engine = registry.get(game.kind)
        return engine.hint(gameplay.load_state(game), member.seat)

    def _allowed(self) -> bool:
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    # ---- out -----------------------------------------------------------------------------

    async def game_update(self, event):
        """A committed action: send this connection's own view if it is news."""
        if event["seq"] > self.sent_seq:
            await self.refresh()

    async def room_update(self, event):
        """The room changed: people, the host, or the game itself."""
        await self.refresh(force=True)

    async def refresh(self, force: bool = False):
        payload = await database_sync_to_async(self._render)(force)
        if payload is None:
            return
        text, game_group, seq = payload
        if game_group != self.game_group:
            if self.game_group:
                await self.channel_layer.group_discard(self.game_group, self.channel_name)
            if game_group:
                await self.channel_layer.group_add(game_group, self.channel_name)
            self.game_group = game_group
        self.sent_seq = seq
        await self.send(text_data=text)

    def _render(self, force: bool):
        member = Member.objects.select_related("room", "room__game").get(pk=self.member_id)
        room = member.room
        if member.left or not room.is_open:
            return None
        game = room.game
        seq = game.seq if game else -1
        if not force and game and seq <= self.sent_seq:
            return None
        context = tables.room_context(room, member)
        context["csrf_token"] = self.csrf_token
        context.update(card_prefs.as_context(self.scope.get("session")))
        if self.format == "json":
            text = json.dumps(tables.state_message(context))
        else:
            text = tables.render_fragment(context)
        return text, gameplay.group_name(game.pk) if game else None, seq

    async def error(self, message: str):
        if self.format == "json":
            await self.send(text_data=json.dumps({"type": "error", "message": message}))
        else:
            await self.send(text_data=tables.render_error(message))


class EchoConsumer(AsyncWebsocketConsumer):
    """A bare relay through the channel layer, the baseline of bench/table_roundtrip.py.
    Routed only when ECHO_SOCKET=1."""

    async def connect(self):
        self.group = f"echo_{self.channel_name[-12:].replace('!', '')}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(
            self.group, {"type": "echo.back", "text": text_data or ""}
        )

    async def echo_back(self, event):
        await self.send(text_data=event["text"])
