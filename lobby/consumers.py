"""The table socket: /ws/rooms/<CODE>/. Each connection is one seat or a spectator.

Messages in: {"type": "act", "action": {...}, "seq": N, "id": "..."} ("id" optional),
{"type": "sync"}, {"type": "hint"}, {"type": "speed_play", "speed": "fast"},
{"type": "chat", "phrase": "gg"}, {"type": "ping"}. Out: the connection's own view after
every committed action, as HTML fragments for the htmx ws extension, or as JSON with
?format=json; {"type": "ack"} for an act that carried an id and is in the log;
{"type": "chat"} when someone at the table says a quick chat phrase (lobby.chat). Anything
malformed gets {"type": "error"} and changes nothing."""

from __future__ import annotations

import asyncio
import copy
import logging
import time
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext_noop

from cards import prefs as card_prefs
from gameplay import services as gameplay
from gameplay import store
from gameplay.engine import IllegalAction, registry
from infra import jsontext, metrics, news
from infra.scheduling import on_thread
from infra.sockets import (
    READ_ONLY,
    ClosesWhenRedisIsDown,
    HearsTheClientLeave,
    LeavesTheLayer,
    RidesOutABusyDatabase,
    SendsWhileOpen,
    language_of,
    may_act,
    refuse,
)

from . import chat, limits, messages, selectors, services, spectating, tables, viewpoints
from .identity import scope_player_key
from .models import Member
from .words import all_in_language, in_language, say

log = logging.getLogger(__name__)

SLOW_DOWN_ACT = gettext_noop(
    "Slow down: too many messages. Your move was not applied: send it again in a moment."
)
SLOW_DOWN = gettext_noop("Slow down: too many messages. Wait a moment.")
SLOW_DOWN_SYNC = gettext_noop("Slow down: you asked for the table too often. Wait a moment.")
UNKNOWN_TYPE = gettext_noop(
    'Unknown message type. Send "act", "sync", "hint", "speed_play", "chat" or "ping".'
)
NO_SESSION = gettext_noop("Open the site first: this socket needs a session.")
NOT_A_MEMBER = gettext_noop("Join the room by its code first.")
NOT_SAVED = gettext_noop(
    "Your move was not applied: the table could not save it just now. Send it again."
)


# This process's open table sockets (channel name: member id) and spectator sockets (channel
# name: room id), kept present by one heartbeat.
_sockets: dict[str, int] = {}
_watchers: dict[str, int] = {}
_beater: asyncio.Task | None = None


def _beating(channel: str, member_id: int, sockets: dict[str, int] = _sockets) -> None:
    global _beater
    sockets[channel] = member_id
    if _beater is None or _beater.done() or _beater.get_loop() is not asyncio.get_running_loop():
        _beater = asyncio.ensure_future(_beat())


async def _beat():
    """Every PRESENCE_BEAT seconds, one write keeps all this process's sockets present (and
    one its spectators'); it stops when the last socket has closed (the next one starts it
    again)."""
    while _sockets or _watchers:
        await asyncio.sleep(settings.PRESENCE_BEAT)
        for sockets, beat in (
            (_sockets, services.heartbeat),
            (_watchers, services.watch_heartbeat),
        ):
            if not sockets:
                continue
            try:
                await on_thread(beat)(dict(sockets))
            except DatabaseError:  # the database is away: the next beat tries again
                log.warning("a presence heartbeat for %d sockets failed", len(sockets))


class RoomConsumer(
    SendsWhileOpen,
    ClosesWhenRedisIsDown,
    LeavesTheLayer,
    RidesOutABusyDatabase,
    AsyncWebsocketConsumer,
):
    gone = False

    async def __call__(self, scope, receive, send):
        # The client leaving is heard at once, even while a handler waits on a worker thread.
        inbox = HearsTheClientLeave(receive, self._gone)
        try:
            await super().__call__(scope, inbox.receive, send)
        finally:
            # However the consumer ends (closed, crashed, cancelled), its presence stops
            # beating and expires; disconnect() alone does not run after a crash.
            inbox.stop()
            self._gone()

    def _gone(self) -> None:
        """The socket is gone: its heartbeat stops now, whatever the consumer is doing."""
        self.gone = True
        _sockets.pop(getattr(self, "channel_name", None), None)
        spectating.seat_moved(self, getattr(self, "game_group", None), None)

    async def _follow_game(self, old: str | None, new: str | None) -> None:
        """This socket now hears game group `new` instead of `old`; the process's spectators
        of a game wait for its seats (lobby.spectating)."""
        if old:
            await self.channel_layer.group_discard(old, self.channel_name)
        if new:
            await self.channel_layer.group_add(new, self.channel_name)
        spectating.seat_moved(self, old, new)

    def says_why(self) -> bool:
        return getattr(self, "format", None) == "json" and bool(getattr(self, "member_id", None))

    async def dispatch(self, message):
        """As channels dispatches, without its hop to the process's one shared thread to close
        stale database connections before every message (a queue every table's every message
        waited in): this consumer's database calls all run through on_thread, which gives its
        connection back as each call returns, so there is none to close."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except (OperationalError, InterfaceError) as exc:  # a busy pool: say so, resync later
            await self.database_busy(exc)

    async def connect(self):
        self.code = services.normalise_code(self.scope["url_route"]["kwargs"]["code"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.format = "json" if query.get("format") == ["json"] else "html"
        self.language = language_of(self.scope)
        self.member_id = self.room_id = None
        self.seen = None  # (member, room, people present) as of the last view rendered
        self.online = None  # the members with a live socket, as of the last room update
        self.game_group = None
        self.sent_seq = -1
        self.allowance, self.checked = settings.SOCKET_BURST, time.monotonic()
        self.csrf_token = tables.csrf_token_for(self.scope.get("cookies", {}))
        player = self.player = scope_player_key(self.scope)
        self.address = (self.scope.get("client") or [None])[0]
        if player is None:
            await refuse(self, 4401, in_language(NO_SESSION, self.language))
            return
        member = await on_thread(self._connect_member)(player)
        if member is None:
            await refuse(self, 4403, in_language(NOT_A_MEMBER, self.language))
            return
        self.member_id, self.room_id = member.pk, member.room_id
        await self.accept()
        metrics.OPEN_SOCKETS.inc()
        await self.channel_layer.group_add(services.room_group(self.code), self.channel_name)
        if not self.gone:  # its client may have left while it connected
            _beating(self.channel_name, self.member_id)
        await self.refresh()

    def _connect_member(self, player: str) -> Member | None:
        room = selectors.open_room(self.code)
        if room is None:
            return None
        # The cards as this person chose them, read with the session here (a query), once:
        # a view rendered on the loop must not wait on the database.
        self.card_prefs = card_prefs.as_context(self.scope.get("session"))
        return services.connected(room_id=room.pk, player=player, channel=self.channel_name)

    async def disconnect(self, code):
        if self.member_id is None:
            return
        metrics.OPEN_SOCKETS.dec()
        await self.channel_layer.group_discard(services.room_group(self.code), self.channel_name)
        if self.game_group:
            await self.channel_layer.group_discard(self.game_group, self.channel_name)
        _sockets.pop(self.channel_name, None)
        await on_thread(services.disconnected)(member_id=self.member_id, channel=self.channel_name)

    # ---- in ------------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        allowed = self._allowed()
        try:
            message = messages.parse(text_data if text_data is not None else bytes_data)
        except messages.BadMessage as exc:
            return await self.error(exc.message)
        if not allowed:
            # Said plainly, with how long to wait: a client must never take this for silence.
            if message.get("type") == "act":
                return await self.error(
                    SLOW_DOWN_ACT,
                    action_id=message.get("id") if isinstance(message.get("id"), str) else "",
                    retry_after=round(1 / settings.SOCKET_RATE, 2),
                )
            return await self.error(
                SLOW_DOWN,
                retry_after=round(1 / settings.SOCKET_RATE, 2),
            )
        kind = message.get("type")
        if kind in ("act", "speed_play", "chat") and not may_act(self.scope):
            action_id = message.get("id") if isinstance(message.get("id"), str) else ""
            return await self.error(READ_ONLY, action_id=action_id)
        if kind == "act":
            return await self.act(message)
        if kind in ("sync", "hint"):
            # Both cost a render (a hint, a solver's run): limited per person and address too
            # (counted in Redis, so on a thread: the loop never waits on a sync client).
            if not await on_thread(limits.sync_allowed)(self.player, self.address):
                return await self.error(
                    SLOW_DOWN_SYNC,
                    retry_after=1.0,
                )
            return await (self.refresh(force=True) if kind == "sync" else self.hint())
        if kind == "speed_play":
            return await self.speed_play(message.get("speed"))
        if kind == "chat":
            return await self.chat(message)
        if kind == "ping":
            return await self.send(text_data=jsontext.dumps({"type": "pong"}))
        return await self.error(UNKNOWN_TYPE)

    async def hint(self):
        """Advice for this seat from the game's own helper (Klondike's solver, ...)."""
        try:
            hint = await on_thread(self._hint)()
        except services.RoomError as exc:
            return await self.error(exc.message)
        hint = all_in_language(hint, self.language)  # its advice, said in this reader's words
        if self.format == "json":
            await self.send(text_data=jsontext.dumps({"type": "hint", "hint": hint}))
        else:
            with translation.override(self.language):
                await self.send(text_data=tables.render_hint(hint))

    async def speed_play(self, speed):
        """The host sets how fast the computer players move; remembered for their next table."""
        try:
            await on_thread(self._speed_play)(speed)
        except services.RoomError as exc:
            await self.error(exc.message)

    async def chat(self, message: dict):
        """A quick chat phrase from this seat, for everyone at the table; a refusal is said to
        this socket only."""
        try:
            phrase, chat_id = chat.read(message)
            member, room, _ = self.seen or await on_thread(self._people)()
            said = await on_thread(chat.say)(
                member=member, room=room, phrase=phrase, chat_id=chat_id
            )
        except messages.BadMessage as exc:
            return await self.error(exc.message, action_id=exc.action_id)
        except chat.Refused as exc:
            return await self.error(exc.message, action_id=exc.chat_id, retry_after=exc.retry_after)
        await news.tell(services.room_group(self.code), "room.chat", **said.news())

    def _speed_play(self, speed):
        member = selectors.member(self.member_id)
        services.set_speed_play(room=member.room, player=member.player, speed=speed)
        user = self.scope.get("user")
        user = user if user is not None and user.is_authenticated else None
        session = self.scope.get("session")
        services.remember_speed_play(user, session, speed)
        if user is None and session is not None:
            session.save()

    async def act(self, message: dict):
        with spectating.seat_busy():  # spectators' deliveries here wait for this move
            await self._act(message)

    async def _act(self, message: dict):
        started = time.perf_counter()
        try:
            action, seq, action_id = messages.read_act(message)
        except messages.BadMessage as exc:
            return await self.error(exc.message, action_id=exc.action_id)
        try:
            # Who sits where, as of the last view this connection was sent: every change to the
            # room or the table is followed by a fresh view, so a move needs no query of its own
            # to find its seat.
            member, room, present = self.seen or await on_thread(self._people)()
            outcome = await gameplay.submit_from_loop(
                game_id=room.game_id,
                seat=services.seat_to_move(member, room),
                action=action,
                seq=seq,
                action_id=action_id,
                shown_by=self.channel_name,  # sent its view below, not the table's news
            )
        except gameplay.AlreadyApplied as exc:  # a retry: the same answer as the first time
            await self.ack(action_id, exc.seq)
            return await self.refresh(force=True)
        except gameplay.StaleSeq as exc:
            await self.error(exc.message, action_id=action_id)
            return await self.refresh(force=True)
        except (IllegalAction, services.RoomError) as exc:
            return await self.error(exc.message, action_id=action_id)
        except DatabaseError:
            log.exception("room %s: an action could not be saved", self.code)
            return await self.error(
                NOT_SAVED,
                action_id=action_id,
            )
        room.game = outcome.game
        if action_id:
            await self.ack(action_id, outcome.game.seq)
        # The player who moved sees the result without waiting for the table's news.
        payload = await self._render_after_move(member, room, present)
        if payload is not None:
            await self.deliver(payload)
        metrics.action_done(game=room.game, seat=member.seat, started=started, by="person")

    def _hint(self):
        member = selectors.member(self.member_id)
        game = member.room.game
        if game is None or game.is_over or member.seat is None:
            raise services.RoomError("There is nothing to advise on right now.")
        engine = registry.get(game.kind)
        return engine.hint(store.load_state(game), member.seat)

    def _allowed(self) -> bool:
        now = time.monotonic()
        allowance = self.allowance + (now - self.checked) * settings.SOCKET_RATE
        self.allowance = min(settings.SOCKET_BURST, allowance)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    # ---- out -----------------------------------------------------------------------------

    async def game_update(self, event):
        """A committed action: send this connection's own view if it is news. Only the game
        row moves with a move (who is in the room and who is online come with room updates):
        when this process wrote or read that row, the view needs no query."""
        seq = event["seq"]
        if seq <= self.sent_seq:
            return
        game = None
        if self.seen is not None and self.seen[1].game_id is not None:
            game = store.latest_row(self.seen[1].game_id, seq)
        if game is not None:
            member, room, present = self.seen
            room.game = game
            payload = await self._render_after_move(member, room, present)
        else:
            payload = await on_thread(self._render_move)()
        if payload is not None:
            await self.deliver(payload)

    async def room_update(self, event):
        """The room changed: people, the host, or the game itself (with a notice to say at
        the table, e.g. "ann is back.")."""
        notice = event.get("notice", "")
        if event.get("notice_id"):  # said in this reader's language
            notice = say(event["notice_id"], **event.get("notice_params", {}))
        await self.refresh(force=True, notice=in_language(notice, self.language))

    async def room_watchers(self, event):
        """How many watch changed: only the count is sent, not a new view."""
        count = int(event.get("count", 0))
        if self.format == "json":
            await self.send(text_data=jsontext.dumps({"type": "watchers", "count": count}))
        else:
            with translation.override(self.language):
                await self.send(text_data=tables.render_watching(count))

    async def room_chat(self, event):
        """Someone at the table said a quick chat phrase: only that, not a new view."""
        if self.player in event["unheard_by"]:
            return
        with translation.override(self.language):  # the phrase in the reader's language
            if self.format == "json":
                text = jsontext.dumps(chat.message(event))
            else:
                text = tables.render_chat(event)
        await self.send(text_data=text)

    async def refresh(self, force: bool = False, notice: str = ""):
        payload = await on_thread(self._render)(force, notice)
        if payload is not None:
            await self.deliver(payload)

    async def deliver(self, payload):
        text, game_group, seq = payload
        if seq < self.sent_seq and game_group == self.game_group:
            return  # a newer view went out meanwhile
        joined = game_group != self.game_group and bool(game_group)
        if game_group != self.game_group:
            await self._follow_game(self.game_group, game_group)
            self.game_group = game_group
        self.sent_seq = seq
        await self.send(text_data=text)
        if (
            joined
            and self.seen is not None
            and await on_thread(selectors.game_seq)(self.seen[1].game_id) > seq
        ):
            # Moves committed after this view was read and before the socket joined the
            # game's group were told to a group it was not in yet: it reads them now.
            await self.refresh()

    def _people(self):
        return self._read_people(with_game=False)

    def _read_people(self, with_game: bool):
        return selectors.people(self.member_id, self.room_id, with_game=with_game)

    def _render(self, force: bool, notice: str = ""):
        self.online = None  # a room update, a sync, a refused move: read the room afresh
        return self._render_move(force, notice)

    def _render_move(self, force: bool = False, notice: str = ""):
        """The view after a write elsewhere (a computer player's, by the worker; another
        process's): the member, room, people and game read afresh."""
        member, room, present = self._read_people(with_game=True)
        if not self._wanted(member, room, present, force):
            return None
        return self._message(room, self._context(member, room, present), notice)

    async def _render_after_move(self, member: Member, room, present: list[Member]):
        """This seat's view of the game `room.game` has moved to: on the loop when this
        process holds all it shows (as it nearly always does after a move here), else read on
        a thread."""
        if not self._wanted(member, room, present, force=False):
            return None
        context = tables.room_context_in_memory(room, member, present, self.online)
        if context is None:
            context = await on_thread(self._context)(member, room, present)
        return self._message(room, context)

    def _wanted(self, member: Member, room, present: list[Member], force: bool) -> bool:
        """Whether this connection is to be sent the view of `room` now (not if it has it
        already, or has left); `room` becomes what it last saw."""
        self.seen = (member, room, present)
        if member.left or not room.is_open:
            return False
        return force or room.game is None or room.game.seq > self.sent_seq

    def _context(self, member: Member, room, present: list[Member]):
        if self.online is None:
            self.online = services.online_ids(room.pk)
        return tables.room_context(room, member, present, self.online)

    def _message(self, room, context, notice: str = ""):
        """The message for `context`, with the game group and seq it shows."""
        context["csrf_token"], context["notice"] = self.csrf_token, notice
        context.update(self.card_prefs)
        if self.format == "json":  # its sentences said in the reader's language by name
            message = tables.state_message(context)
            text = jsontext.dumps(tables.in_reader_language(message, self.language))
        else:
            with translation.override(self.language):
                text = tables.render_fragment(context)
        game = room.game
        return text, gameplay.group_name(game.pk) if game else None, game.seq if game else -1

    async def ack(self, action_id: str, seq: int):
        if self.format == "json":
            await self.send(text_data=jsontext.dumps({"type": "ack", "id": action_id, "seq": seq}))

    async def error(self, message: str, action_id: str = "", retry_after: float | None = None):
        message = in_language(message, self.language)
        if self.format == "json":
            answer = {"type": "error", "message": message}
            if action_id:
                answer["id"] = action_id
            if retry_after is not None:
                answer["retry_after"] = retry_after
            await self.send(text_data=jsontext.dumps(answer))
        else:
            with translation.override(self.language):
                await self.send(text_data=tables.render_error(message))


class WatchConsumer(RoomConsumer):
    """A spectator's socket: /ws/rooms/<CODE>/watch/ (?invite=<token> for a table that is not
    public or ranked). It is sent the spectators' view (seat null) as a seat's socket is sent
    its own, and may only sync and ping: it is no member, holds no seat and writes nothing but
    its own count."""

    async def connect(self):
        self.code = services.normalise_code(self.scope["url_route"]["kwargs"]["code"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.format = "json" if query.get("format") == ["json"] else "html"
        self.language = language_of(self.scope)
        self.member_id = self.room_id = None
        self.seen = self.online = self.game_group = self._next = None
        self.sent_seq = -1
        self.allowance, self.checked = settings.SOCKET_BURST, time.monotonic()
        self.csrf_token = tables.csrf_token_for(self.scope.get("cookies", {}))
        self.player = scope_player_key(self.scope) or f"address:{self.scope.get('client')}"
        self.address = (self.scope.get("client") or [None])[0]
        room = await on_thread(self._watchable)(query.get("invite", [""])[0])
        if room is None:
            await refuse(self, 4403, in_language(services.WATCH_REFUSED, self.language))
            return
        self.room_id = room.pk
        await self.accept()
        metrics.OPEN_SOCKETS.inc()
        await self.channel_layer.group_add(services.room_group(self.code), self.channel_name)
        if not self.gone:
            _beating(self.channel_name, self.room_id, _watchers)
            user = self.scope.get("user")
            await on_thread(services.started_watching)(
                room_id=self.room_id,
                channel=self.channel_name,
                user_id=user.pk if user is not None and user.is_authenticated else None,
            )
        await self.refresh()

    def _watchable(self, invite: str):
        try:
            room = services.watchable_room(self.code, invite)
        except services.RoomError:
            return None
        self.card_prefs = card_prefs.as_context(self.scope.get("session"))
        return room

    def _gone(self) -> None:
        self.gone = True
        _watchers.pop(getattr(self, "channel_name", None), None)
        spectating.spectator_left(self, getattr(self, "game_group", None))

    async def _follow_game(self, old: str | None, new: str | None) -> None:
        """A spectator hears a game's moves through the process's crowd of its spectators,
        which delivers each move to them all, after the seats (lobby.spectating)."""
        await spectating.follow(self, old, new)

    async def crowd_view(self, seq: int):
        """The spectators' view of the game as of move `seq` (or later), read once for all of
        this process's spectators of it: (spectator, room, people present, context), or None
        when there is nothing to send."""
        game = None
        if self.seen is not None and self.seen[1].game_id is not None:
            game = store.latest_row(self.seen[1].game_id, seq)
        context = None
        if game is not None:
            member, room, present = self.seen
            # copies: the room and people last seen may be in a view rendering aside
            room, present = copy.copy(room), [copy.copy(person) for person in present]
            room.game = game
            context = tables.room_context_in_memory(room, member, present, self.online)
        if context is None:
            member, room, present, context = await on_thread(self._read_view)()
        if member.left or not room.is_open or room.game is None:
            return None
        return member, room, present, context

    def _read_view(self):
        member, room, present = self._read_people(with_game=True)
        return member, room, present, self._context(member, room, present)

    @property
    def kind(self):
        """Spectators of one kind are sent one and the same message of a view."""
        prefs = self.card_prefs if self.format == "html" else {}
        return self.format, self.language, repr(sorted(prefs.items()))

    async def prepare(self, view) -> None:
        """The message `offer` will send, built on the render thread: the seats' moves this
        loop handles meanwhile don't wait for the table's template to render."""
        _, room, _, context = view
        await viewpoints.built_aside(*self._crowd_message(room, dict(context), ""))

    def offer(self, view, seq: int) -> None:
        """Send this socket `view` (of move `seq`) when its last send is done; a newer offer
        meanwhile replaces it (a socket that is behind skips the views it missed)."""
        self._next = view
        if not getattr(self, "_sending", False):
            self._sending = True
            asyncio.ensure_future(self._send_newest())

    async def _send_newest(self):
        try:
            while self._next is not None and not self.gone:
                (member, room, present, context), self._next = self._next, None
                if room.game.seq <= self.sent_seq:
                    continue
                self.seen = (member, room, present)
                await self.deliver(self._message(room, dict(context)))
        except Exception:
            log.exception("room %s: a spectator's view was not sent", self.code)
        finally:
            self._sending = False

    def says_why(self) -> bool:
        return getattr(self, "format", None) == "json" and bool(getattr(self, "room_id", None))

    async def disconnect(self, code):
        if self.room_id is None:
            return
        metrics.OPEN_SOCKETS.dec()
        await self.channel_layer.group_discard(services.room_group(self.code), self.channel_name)
        _watchers.pop(self.channel_name, None)
        await on_thread(services.stopped_watching)(room_id=self.room_id, channel=self.channel_name)

    def _read_people(self, with_game: bool):
        room, present = selectors.watched(self.room_id, with_game=with_game)
        return services.spectator(room), room, present

    def _message(self, room, context, notice: str = ""):
        """A table's spectators show no form and no seat of their own: one message for each
        view (per language, and per card style for HTML) serves all of this process's (each
        socket building its own copy made every move wait behind the table's crowd)."""
        game = room.game
        if game is None:
            return super()._message(room, context, notice)
        text = viewpoints.shared(*self._crowd_message(room, context, notice))
        return text, gameplay.group_name(game.pk), game.seq

    def _crowd_message(self, room, context, notice: str):
        """The spectators' message for `context`: its key among the viewpoints (everything it
        shows), and how to build it (from `context` alone: no query)."""
        game, language = room.game, self.language
        context["csrf_token"], context["notice"] = "", notice
        key = (
            repr([getattr(room, f.attname) for f in room._meta.concrete_fields]),
            game.pk,
            game.seed_hash,
            game.seq,
            game.updated,
            notice,
            tuple((m.pk, m.name, m.seat, m.online) for m in context["members"]),
            language,
        )
        if self.format == "json":

            def state():
                with translation.override(language):
                    message = tables.state_message(context)
                    return jsontext.dumps(tables.in_reader_language(message, language))

            return ("watch-json", *key), state

        context.update(self.card_prefs)

        def fragment():
            with translation.override(language):
                return tables.render_fragment(context)

        return ("watch-html", *key, repr(sorted(self.card_prefs.items()))), fragment

    async def act(self, message: dict):
        action_id = message.get("id") if isinstance(message.get("id"), str) else ""
        await self.error(services.SPECTATORS_CANNOT_PLAY, action_id=action_id[:64])

    async def hint(self):
        await self.error(services.SPECTATORS_CANNOT_PLAY)

    async def speed_play(self, speed):
        await self.error(services.SPECTATORS_CANNOT_PLAY)

    async def chat(self, message: dict):
        chat_id = message.get("id") if isinstance(message.get("id"), str) else ""
        await self.error(chat.SPECTATORS_CANNOT_CHAT, action_id=chat_id[:64])


class EchoConsumer(AsyncWebsocketConsumer):
    """A bare relay through the channel layer, the baseline of bench/table_roundtrip.py.
    Routed only when ECHO_SOCKET=1."""

    async def connect(self):
        # ?group=NAME puts several sockets in one group, as a table's seats are (bench/load.py)
        group = parse_qs(self.scope.get("query_string", b"").decode()).get("group", [""])[0]
        own = self.channel_name[-12:].replace("!", "")
        self.group = f"echo_{group[:20] if group.isalnum() else own}"
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
