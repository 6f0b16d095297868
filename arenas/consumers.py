"""The arena page's socket: /ws/arenas/<id>/. Anyone may follow an arena's standings; a signed-in
player's own row is highlighted and, once paired, the page goes to their table.

Out: {"type": "arena", ...} (arenas.selectors.arena_state) as JSON with ?format=json, or the
page's fragment for the htmx ws extension; {"type": "error", "message": "..."}.
In: {"type": "sync"}, {"type": "ping"} → {"type": "pong"}. Joining and pausing are forms.

The standings are the same for every viewer but their own row: each process keeps one board
per arena its viewers follow, rebuilt once per change (at most every ARENA_STANDINGS_EVERY
seconds, changes meanwhile wait for the next build), and each viewer's message is spliced from
it. A change reaches every viewer as its own news with the same stamp, so the stamp, not the
news, says whether the board is stale."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import get_template
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_noop

from infra.scheduling import on_thread
from infra.sockets import (
    ClosesWhenRedisIsDown,
    LeavesTheLayer,
    SendsWhileOpen,
    language_of,
    refuse,
    said,
)
from lobby import messages
from lobby.tables import csrf_token_for

from . import selectors, services
from .models import Arena

MAX_MESSAGE = 1024


class StandingsBoard:
    """One arena's standings in this process, shared by its viewers here."""

    def __init__(self, arena_id: int):
        self.arena_id = arena_id
        self.loop = asyncio.get_running_loop()
        self.viewers = 0
        self.builds = 0
        self.board: selectors.Board | None = None
        self.started = 0.0  # when the last build began (monotonic)
        self.stale = False  # a change came after the last build began
        self.seen: deque[str] = deque(maxlen=256)  # stamps of changes already counted
        self.building: asyncio.Future | None = None

    async def current(self) -> selectors.Board:
        """The board, built if there is none yet or a change is waiting for its build."""
        if self.board is None and self.building is None:
            self.stale = True
            self._build_soon()
        if self.building is not None:
            await asyncio.shield(self.building)
        return self.board

    async def changed(self, stamp: str | None) -> selectors.Board:
        """A change's news: the board after a build that began after the change."""
        if stamp is None or stamp not in self.seen:
            if stamp is not None:
                self.seen.append(stamp)
            self.stale = True
            self._build_soon()
        return await self.current()

    def _build_soon(self) -> None:
        if self.building is None:
            self.building = asyncio.ensure_future(self._build())

    async def _build(self) -> None:
        try:
            while self.stale:
                wait = self.started + settings.ARENA_STANDINGS_EVERY - time.monotonic()
                if self.board is not None and wait > 0:
                    await asyncio.sleep(wait)
                self.stale, self.started = False, time.monotonic()
                self.builds += 1
                self.board = await on_thread(self._read)()
        finally:
            self.building = None

    def _read(self) -> selectors.Board:
        return selectors.arena_board(Arena.objects.get(pk=self.arena_id))


boards: dict[int, StandingsBoard] = {}


def board_for(arena_id: int) -> StandingsBoard:
    found = boards.get(arena_id)
    if found is None or found.loop is not asyncio.get_running_loop():
        found = boards[arena_id] = StandingsBoard(arena_id)
    found.viewers += 1
    return found


def leave_board(board: StandingsBoard) -> None:
    board.viewers -= 1
    if board.viewers <= 0 and boards.get(board.arena_id) is board:
        del boards[board.arena_id]  # nobody here follows it: no news would keep it fresh


def _json_rows(board: selectors.Board) -> list[str]:
    if board.json_rows is None:
        board.json_rows = [json.dumps(r) for r in board.rows]
    return board.json_rows


_making_rows = threading.Lock()  # viewers' threads wait for the first to render the rows


def _html_rows(board: selectors.Board) -> list[str]:
    """The rows as made once for every viewer who reads the active language."""
    language = translation.get_language() or "en"
    with _making_rows:
        if board.html_rows is None:
            board.html_rows = {}
        if language not in board.html_rows:
            row = get_template("arenas/_standing_row.html")
            board.html_rows[language] = [row.render({"r": r, "a": board.head}) for r in board.rows]
    return board.html_rows[language]


def _splice(made: list[str], at: int | None, own: str | None) -> list[str]:
    """The top rows as made once, with the viewer's own row (made for them) in its place, or
    after the top rows when it stands below them."""
    rows = made[: selectors.TOP_ROWS]
    if at is None:
        return rows
    return rows[:at] + [own] + rows[at + 1 :] if at < selectors.TOP_ROWS else [*rows, own]


def message(
    board: selectors.Board, user_id: int | None, fmt: str, context: dict, language: str = "en"
) -> str:
    """One viewer's "arena" message, from the shared board and their own row (the page's HTML
    in the viewer's language)."""
    at, own = selectors.mine(board, user_id)
    head = selectors.viewer_head(board, own)
    if fmt == "json":
        rows = _splice(_json_rows(board), at, own and json.dumps(own))
        return json.dumps(head)[:-1] + ', "standings": [' + ", ".join(rows) + "]}"
    with translation.override(language):
        row = get_template("arenas/_standing_row.html")
        rows = _splice(_html_rows(board), at, own and row.render({"r": own, "a": board.head}))
        return get_template("arenas/_arena_main.html").render(
            {
                **context,
                "a": {**head, "standings": board.rows},
                "rows_html": mark_safe("".join(rows)),  # noqa: S308 - rendered from our template
            }
        )


class ArenaConsumer(SendsWhileOpen, ClosesWhenRedisIsDown, LeavesTheLayer, AsyncWebsocketConsumer):
    async def connect(self):
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.format = "json" if query.get("format") == ["json"] else "html"
        self.group = self.board = None
        self.user = self.scope.get("user")
        self.user_id = (
            self.user.pk if self.user is not None and self.user.is_authenticated else None
        )
        self.csrf_token = csrf_token_for(self.scope.get("cookies", {}))
        arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        if not await on_thread(Arena.objects.filter(pk=arena_id).exists)():
            await refuse(self, 4404, gettext_noop("There is no such arena."))
            return
        self.arena_id = arena_id
        await self.accept()
        self.group = services.group(arena_id)
        self.board = board_for(arena_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_board(await self.board.current())

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.board is not None:
            leave_board(self.board)
            self.board = None

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = messages.parse(text_data or bytes_data, limit=MAX_MESSAGE)
        except messages.BadMessage:
            return await self.error(gettext_noop('Messages are JSON objects with a "type".'))
        kind = message.get("type")
        if kind == "ping":
            return await self.send(text_data=json.dumps({"type": "pong"}))
        if kind == "sync":
            return await self.send_board(await self.board.current())
        return await self.error(
            gettext_noop('Unknown message type. Send "sync" or "ping"; join with the form.')
        )

    async def arena_update(self, event):
        await self.send_board(await self.board.changed(event.get("change")))

    async def send_board(self, board: selectors.Board):
        if self.format == "json":
            text = message(board, self.user_id, "json", {})
        else:  # the page's forms read the user: off the event loop
            context = {"csrf_token": self.csrf_token, "user": self.user}
            language = language_of(self.scope)
            text = await on_thread(message)(board, self.user_id, "html", context, language)
        await self.send(text_data=text)

    async def error(self, message: str):
        message = said(message, self.scope)
        if self.format == "json":
            await self.send(text_data=json.dumps({"type": "error", "message": message}))
        else:
            await self.send(
                text_data=get_template("lobby/_error.html").render({"message": message})
            )
