"""A move's delivery to this process's spectators of a game: once, after the seats.

Every spectator socket hears each move from the channel layer, but only the first to hear it
starts the delivery; the others have nothing to do. The delivery waits (at most SEATS_FIRST)
until this process's seat sockets at the game have been sent the move, reads the spectators'
view once, and hands it to the spectators CHUNK at a time, yielding to the event loop between
chunks so a seat's next move never waits behind the crowd; while any seat's move in this
process is between its arrival and its own view (`seat_busy`), the delivery waits (at most
SEATS_AHEAD in all), so a table's crowd doesn't slow another table's players. A spectator whose last view is still
being sent is not queued another: it is sent the newest view when that send is done, never a
backlog of stale ones. A newer move arriving during a delivery is delivered instead."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

CHUNK = 10  # spectators handed a view between two yields to the event loop
SEATS_FIRST = 0.1  # seconds a delivery waits at most for this process's seats to be sent
SEATS_AHEAD = 0.05  # seconds a delivery yields at most, in all, to seats' moves in this process


class Seat(Protocol):
    sent_seq: int
    gone: bool


class Spectator(Seat, Protocol):
    def offer(self, view: Any, seq: int) -> None: ...


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
    _move(_seats, seat, old, new)


def spectator_moved(spectator: Spectator, old: str | None, new: str | None) -> None:
    if old in _crowds:
        _crowds[old].spectators.discard(spectator)
        if not _crowds[old].spectators:
            del _crowds[old]
    if new:
        _crowds.setdefault(new, Crowd(new)).spectators.add(spectator)


def _move(sockets: dict[str, set], socket, old: str | None, new: str | None) -> None:
    if old in sockets:
        sockets[old].discard(socket)
        if not sockets[old]:
            del sockets[old]
    if new:
        sockets.setdefault(new, set()).add(socket)


def moved(group: str | None, seq: int, read: Callable[[int], Awaitable[Any]]) -> bool:
    """Move `seq` of the game `group` is committed: deliver it to the game's spectators here
    (`read(seq)` gives their view, or None if there is none to send). False when no spectator
    here follows that game yet (the caller sends its own view)."""
    crowd = _crowds.get(group) if group else None
    if crowd is None:
        return False
    if seq > crowd.newest:
        crowd.newest, crowd.read = seq, read
        if crowd.task is None or crowd.task.done():
            crowd.task = asyncio.ensure_future(crowd.deliver())
    return True


class Crowd:
    """The spectators of one game in this process."""

    def __init__(self, group: str):
        self.group = group
        self.spectators: set[Spectator] = set()
        self.newest = -1
        self.read: Callable[[int], Awaitable[Any]] | None = None
        self.task: asyncio.Future | None = None

    async def deliver(self) -> None:
        delivered = -1
        ahead_until = asyncio.get_running_loop().time() + SEATS_AHEAD
        while self.newest > delivered:
            seq = delivered = self.newest
            try:
                await self._seats_first(seq)
                await _seats_ahead(ahead_until)
                view = await self.read(seq)
            except Exception:
                log.exception(
                    "game %s: the spectators' view of move %d was not read", self.group, seq
                )
                continue
            if view is None:
                continue
            for n, spectator in enumerate(list(self.spectators)):
                if n and n % CHUNK == 0:
                    await asyncio.sleep(0)
                    await _seats_ahead(ahead_until)
                    if self.newest > seq:
                        break  # a newer move: every spectator is sent that one instead
                if spectator.sent_seq < seq and not spectator.gone:
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
