"""Limits shared by every socket of one person (and of one address), across processes: one
person with 40 sockets asking for the state must not slow everyone else's tables."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

ADDRESS_FACTOR = 5  # an address may be several people (a school, a café)


def sync_allowed(player: str, address: str | None) -> bool:
    """May this person (and their address) have the state again now? SYNC_RATE a second for
    a person, ADDRESS_FACTOR times that for an address; counted in one-second windows in the
    shared cache, so the answer costs one cache round trip per key and no database."""
    window = int(time.time())
    rate = settings.SYNC_RATE
    limits = [(f"sync:{player}", rate)]
    if address:
        limits.append((f"sync-ip:{address}", rate * ADDRESS_FACTOR))
    try:
        for key, allowed in limits:
            if _count(f"{key}:{window}") > allowed:
                return False
    except Exception:  # the cache is away: each socket's own limit still holds
        log.warning("the shared sync limit could not be read", exc_info=True)
    return True


def _count(key: str, timeout: int = 2) -> int:
    try:
        return cache.incr(key)
    except ValueError:  # the window's first request
        if cache.add(key, 1, timeout=timeout):
            return 1
        return cache.incr(key)


def token_allowed(token_id: int) -> bool:
    """May this access token make one more request (an HTTP request or a socket opened) this
    minute? TOKEN_RATE a minute, counted for all the token's processes together; a script
    that floods gets 429 and its account's other tokens and tables are unaffected."""
    window = int(time.time() // 60)
    try:
        return _count(f"token:{token_id}:{window}", timeout=120) <= settings.TOKEN_RATE
    except Exception:  # the cache is away: the sockets' own limits still hold
        log.warning("the token limit could not be read", exc_info=True)
        return True
