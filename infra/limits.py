"""Limits on guessing and on mass sign-ups: one mechanism for all of them.

Each limit is a fixed-window counter per (limit, who) in the cache: Redis under `make serve`,
so every daphne process counts together (an in-process cache under `make run`). The first
counted attempt opens a window of `window` seconds; once `attempts` are counted in it, further
attempts are refused, without being tried, until the window closes ("Try again in N
minutes."). Then the count starts afresh, so a limit never locks anyone out for longer than
one window. What counts is what an attacker needs many of: a wrong password, a room code that
leads nowhere, an account created. Who is counted: an account (by its lower-cased name), a
browser session, or an address (IPv4, or an IPv6 /64, which one machine often holds whole).

If the cache can't be reached the limits let everything through (and log it): a Redis outage
must not lock every player out of signing in.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    name: str
    attempts: int  # counted attempts allowed in a window
    window: int  # seconds
    message: (
        str  # (lazily translated) what is refused, as a sentence; "Try again in N minutes." follows
    )

    def _keys(self, who: str) -> tuple[str, str]:
        digest = hashlib.sha256(who.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"limit:{self.name}:{digest}:n", f"limit:{self.name}:{digest}:until"


# The site's limits (docs/operating.md lists them).
ROOM_CODES_PER_SESSION = Limit("room-session", 10, 10 * 60, _("Too many room codes tried."))
ROOM_CODES_PER_ADDRESS = Limit(
    "room-address", 30, 10 * 60, _("Too many room codes tried from your network.")
)
SIGN_UPS_PER_ADDRESS = Limit(
    "signup-address", 10, 60 * 60, _("Too many accounts were made from your network.")
)
WRONG_PASSWORDS_PER_ACCOUNT = Limit(
    "signin-account", 10, 15 * 60, _("Too many wrong passwords for this account.")
)
WRONG_PASSWORDS_PER_ADDRESS = Limit(
    "signin-address", 30, 15 * 60, _("Too many wrong passwords from your network.")
)


def now() -> float:
    """The limits' clock: when a window opened and closes is read from it, never from how long
    the cache keeps a key, so a test moves it instead of waiting (and racing) for a window."""
    return time.time()


class Limited(Exception):
    def __init__(self, limit: Limit, seconds: int):
        self.seconds = seconds
        again = gettext("Try again in %(minutes)s.") % {"minutes": minutes(seconds)}
        self.message = f"{limit.message} {again}"
        super().__init__(self.message)


def minutes(seconds: float) -> str:
    n = max(1, math.ceil(seconds / 60))
    return ngettext("%(n)s minute", "%(n)s minutes", n) % {"n": n}


def address(request) -> str:
    """The client's address, as counted: behind a proxy, daphne must be started with
    --proxy-headers so that this is the client's and not the proxy's."""
    raw = request.META.get("REMOTE_ADDR") or "unknown"
    try:
        ip = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def check(*counted: tuple[Limit, str]) -> None:
    """Raise Limited (the longest wait) if any of these (limit, who) is used up."""
    moment = now()
    worst = None
    try:
        for limit, who in counted:
            n_key, until_key = limit._keys(who)
            found = cache.get_many([n_key, until_key])
            if found.get(n_key, 0) >= limit.attempts and found.get(until_key, 0) > moment:
                wait = max(1, math.ceil(found[until_key] - moment))
                if worst is None or wait > worst[1]:
                    worst = (limit, wait)
    except Exception as exc:
        log.warning("Limits not checked (cache unavailable): %s", exc)
        return
    if worst:
        raise Limited(*worst)


def count(*counted: tuple[Limit, str]) -> None:
    """Count one attempt against each of these (limit, who)."""
    moment = now()
    try:
        for limit, who in counted:
            n_key, until_key = limit._keys(who)
            keep = 2 * limit.window  # the cache only forgets a window well after it closed
            until = cache.get(until_key)
            if until is None and cache.add(until_key, moment + limit.window, keep):
                cache.set(n_key, 1, keep)  # the first attempt opens a window
                continue
            if until is not None and until <= moment:  # the window closed: a new one
                cache.set_many({until_key: moment + limit.window, n_key: 1}, keep)
                continue
            try:
                cache.incr(n_key)
            except ValueError:  # the keys were evicted meanwhile
                cache.set(n_key, 1, keep)
    except Exception as exc:
        log.warning("Attempt not counted (cache unavailable): %s", exc)
