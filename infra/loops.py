"""What belongs to one event loop: async connections (to PostgreSQL, to Redis) can only be
used on the loop that opened them. Each loop gets its own, made when first asked for, and
closed when the loop ends (its tasks are cancelled then), so a test's short-lived loop leaves
no connection open behind it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    def __init__(self, make: Callable[[], T], close: Callable[[T], Awaitable[None]]):
        self._make, self._close = make, close
        self._things: dict[asyncio.AbstractEventLoop, T] = {}
        self._keepers: set[asyncio.Task] = set()

    def get(self) -> T:
        """This loop's own (called on the loop)."""
        loop = asyncio.get_running_loop()
        thing = self._things.get(loop)
        if thing is None:
            thing = self._things[loop] = self._make()
            keeper = loop.create_task(self._close_at_the_end(loop, thing))
            self._keepers.add(keeper)
            keeper.add_done_callback(self._keepers.discard)
        return thing

    async def _close_at_the_end(self, loop: asyncio.AbstractEventLoop, thing: T) -> None:
        try:
            await asyncio.Event().wait()  # until the loop's end cancels it
        finally:
            del self._things[loop]
            await self._close(thing)
