"""A game's spectators in this process: one subscription to the game's group, one delivery per
move, after the seats.

Spectator sockets don't join the game's group themselves: the first spectator of a game here
makes the process's crowd for it, which joins the group on a channel of its own (`follow`), so
a move is one message to each process, however many watch. The crowd's delivery waits (at most
SEATS_FIRST) until this process's seat sockets at the game have been sent the move, reads the
spectators' view once, has each kind of message of it built off the event loop (for HTML
spectators a template render of the table: the loop goes on with the seats' moves meanwhile),
and hands it to the spectators CHUNK at a time, pausing between chunks (CHUNK_PAUSE, less for a
big crowd: SPREAD in all) so that their frames are written out before the next chunk's, and a
seat's move arriving meanwhile waits for one chunk's sends at most, not the whole crowd's;
while any seat's move in this process is between its arrival and its own view (`seat_busy`), it waits (at most SEATS_AHEAD in all), so a table's crowd doesn't slow
another table's players. A spectator whose last view is still being sent is not queued another:
it is sent the newest view when that send is done, never a backlog of stale ones. A newer move
arriving during a delivery is delivered instead. The last spectator to go takes the crowd's
subscription with it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any, Protocol

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

CHUNK = 10  # spectators handed a view between two pauses
CHUNK_PAUSE = 0.002  # seconds between two chunks (the event loop writes their frames then)
SPREAD = 0.05  # seconds a delivery's pauses add up to at most, however big the crowd
SEATS_FIRST = 0.1  # seconds a delivery waits at most for this process's seats to be sent
SEATS_AHEAD = 0.05  # seconds a delivery yields at most, in all, to seats' moves in this process
HEAR_AGAIN_AFTER = 1.0  # seconds before a crowd subscribes again after the channel layer failed


class Seat(Protocol):
    sent_seq: int
    gone: bool


class Spectator(Seat, Protocol):
    kind: Any  # spectators of one kind are sent one and the same message of a view

    def offer(self, view: Any, seq: int) -> None: ...

    def crowd_view(self, seq: int) -> Awaitable[Any]:
        """The spectators' view as of move `seq` or later (None: nothing to send)."""

    def prepare(self, view: Any) -> Awaitable[None]:
        """The message of `view` for this spectator's kind is built (off the event loop), so
        that offering it costs no rendering."""


# game group: this process's sockets at that game
_seats: dict[str, set[Seat]] = {}
_crowds: dict[str, Crowd] = {}
_busy_seats = 0  # seats' moves in this process between their arrival and their own view


@contextlib.contextmanager
def seat_busy():
    """A seat's move is being handled: spectators' deliveries here wait for it."""
    global _busy_seats
    _busy_seats += 1
    try:
        yield
    finally:
        _busy_seats -= 1


def seat_moved(seat: Seat, old: str | None, new: str | None) -> None:
    """A seat's socket now follows game group `new` (None: none) instead of `old`."""
    if old in _seats:
        _seats[old].discard(seat)
        if not _seats[old]:
            del _seats[old]
    if new:
        _seats.setdefault(new, set()).add(seat)


def spectator_left(spectator: Spectator, group: str | None) -> None:
    crowd = _crowds.get(group) if group else None
    if crowd is not None:
        crowd.spectators.discard(spectator)
        if not crowd.spectators:
            del _crowds[group]
            crowd.disband()


async def follow(spectator: Spectator, old: str | None, new: str | None) -> None:
    """The spectator now watches game group `new` (None: none) instead of `old`; returns once
    the process's crowd for `new` hears the group's moves."""
    spectator_left(spectator, old)
    if new:
        crowd = _crowds.get(new)
        if crowd is None or crowd.loop is not asyncio.get_running_loop():
            # (a crowd left by an event loop that has ended, as each test's loop does)
            crowd = _crowds[new] = Crowd(new)
        crowd.spectators.add(spectator)
        await asyncio.wait([crowd.following])  # done, or cancelled when the crowd disbands


class Crowd:
    """The spectators of one game in this process, and their one subscription to its group."""

    def __init__(self, group: str):
        self.group = group
        self.spectators: set[Spectator] = set()
        self.newest = -1
        self.delivery: asyncio.Future | None = None
        self.loop = asyncio.get_running_loop()
        self.following = self.loop.create_future()
        self.listening = asyncio.ensure_future(self._listen())

    async def _listen(self) -> None:
        layer = get_channel_layer()
        while True:
            channel = await layer.new_channel()
            try:
                await layer.group_add(self.group, channel)
                if self.following.done():
                    self.moved(self.newest + 1)  # heard again after a failure: any news is sent
                else:
                    self.following.set_result(None)
                while True:
                    message = await layer.receive(channel)
                    if message.get("type") == "game.update":
                        self.moved(int(message["seq"]))
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await layer.group_discard(self.group, channel)
                raise
            except Exception as exc:  # the channel layer away (Redis): hear the game again
                log.warning("game %s: its spectators stopped hearing it: %r", self.group, exc)
                with contextlib.suppress(Exception):
                    await layer.group_discard(self.group, channel)
                if not self.following.done():
                    self.following.set_result(None)
                await asyncio.sleep(HEAR_AGAIN_AFTER)

    def disband(self) -> None:
        self.listening.cancel()
        if self.delivery is not None:
            self.delivery.cancel()
        if not self.following.done():
            self.following.cancel()

    def moved(self, seq: int) -> None:
        """Move `seq` of the game is committed: deliver it to the spectators here."""
        if seq > self.newest:
            self.newest = seq
            if self.delivery is None or self.delivery.done():
                self.delivery = asyncio.ensure_future(self.deliver())

    async def deliver(self) -> None:
        delivered = -1
        ahead_until = asyncio.get_running_loop().time() + SEATS_AHEAD
        while self.newest > delivered:
            seq = delivered = self.newest
            try:
                await self._seats_first(seq)
                await _seats_ahead(ahead_until)
                reader = next((s for s in self.spectators if not s.gone), None)
                view = await reader.crowd_view(seq) if reader is not None else None
            except Exception:
                log.exception(
                    "game %s: the spectators' view of move %d was not read", self.group, seq
                )
                continue
            if view is None:
                continue
            prepared = set()
            crowd = list(self.spectators)
            pause = min(CHUNK_PAUSE, SPREAD * CHUNK / max(1, len(crowd)))  # (all may have left)
            for n, spectator in enumerate(crowd):
                if n and n % CHUNK == 0:
                    await asyncio.sleep(pause)
                    await _seats_ahead(ahead_until)
                    if self.newest > seq:
                        break  # a newer move: every spectator is sent that one instead
                if spectator.sent_seq < seq and not spectator.gone:
                    if spectator.kind not in prepared:
                        prepared.add(spectator.kind)
                        # (if that fails, the spectator's own send builds it and says why)
                        with contextlib.suppress(Exception):
                            await spectator.prepare(view)
                    spectator.offer(view, seq)

    async def _seats_first(self, seq: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SEATS_FIRST
        while loop.time() < deadline and any(
            s.sent_seq < seq and not s.gone for s in _seats.get(self.group, ())
        ):
            await asyncio.sleep(0.002)


async def _seats_ahead(until: float) -> None:
    loop = asyncio.get_running_loop()
    while _busy_seats and loop.time() < until:
        await asyncio.sleep(0.002)
