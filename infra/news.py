"""News: the one way to tell open sockets that something happened.

Every socket joins the groups it listens to (a table's game, its room, a game's ranked queue,
its person's own group) and handles each news type with a method of that name (``game.update``
-> ``game_update``). News is a nudge, never state: each socket reads or renders what it shows
itself, so news that is lost (the channel layer away, Redis restarting) costs a delay, never a
wrong table: it is logged as a warning and the committed change stands.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from channels.layers import get_channel_layer
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.db import transaction

from .layers import TableLayer
from .scheduling import run_async, run_soon

log = logging.getLogger(__name__)


def person_group(user_id: int) -> str:
    """Every open page of one signed-in person (the header's socket)."""
    return f"person_{user_id}"


async def tell(
    group: str, kind: str, *, keep: tuple[str, Any, int] | None = None, but: str = "", **fields
) -> bool:
    """Send news `kind` (e.g. "game.update") to every socket in `group`. Whether it went.

    `keep` (key, value, seconds) is set in the shared cache first, so every socket that hears
    the news can read it: in the news's own round trip where the channel layer holds the
    cache's Redis (the production shape), else just before. `but`: a socket of this process
    that has what the news says already (the one that made it), where the layer can skip one
    (TableLayer); any other layer tells it too, as it tells everyone."""
    layer = get_channel_layer()
    first = None
    if keep is not None:
        shared = caches[DEFAULT_CACHE_ALIAS]  # once: each read through the proxy looks it up
        if _sent_together(layer, shared):
            first = shared.entry(*keep)
        else:
            try:
                await shared.aset(*keep)
            except Exception as exc:  # Redis away: a cached value is rebuilt by its reader
                log.warning("%s was not cached: %r", keep[0], exc)
    extra = {}
    if first is not None:
        extra["first"] = first
    if but and isinstance(layer, TableLayer):
        extra["but"] = but
    try:
        await layer.group_send(group, {"type": kind, **fields}, **extra)
    except Exception as exc:  # the channel layer away: news, not state
        log.warning("news %s for %s was not sent: %r", kind, group, exc)
        return False
    return True


def _sent_together(layer, shared_cache) -> bool:
    holds = getattr(layer, "holds", None)
    url = getattr(shared_cache, "url", None)
    return holds is not None and url is not None and holds(url)


def tell_now(group: str, kind: str, **fields) -> bool:
    """From sync code: send the news and wait until it has gone."""
    return run_async(functools.partial(tell, group, kind, **fields))


def tell_soon(group: str, kind: str, **fields) -> None:
    """From sync code: send the news without waiting for it."""
    run_soon(functools.partial(tell, group, kind, **fields))


def tell_after_commit(group: str, kind: str, **fields) -> None:
    """Send the news once the caller's transaction commits (at once outside one)."""
    transaction.on_commit(lambda: tell_now(group, kind, **fields))


def tell_soon_after_commit(group: str, kind: str, **fields) -> None:
    """Start sending the news once the caller's transaction commits, without waiting for it
    (at once outside one): the writer is not held up by a round trip to Redis."""
    transaction.on_commit(lambda: tell_soon(group, kind, **fields))
