"""Sightings: where an account signs up, signs in and sits down at a table from, so that a
referral from one's own address or browser can be told (kudos/referrals.py), and accounts used
from one place share their daily bonuses (kudos/services.py).

A sighting is the account, a keyed hash of the client's address (as the limits count it:
``infra.limits.address``, an IPv6 /64 whole) and a keyed hash of the browser's device cookie
(``cc_device``: random, set once by ``accounts.middleware.device_cookie``), with when it was
first and last seen. Neither the address nor the cookie is stored: only hashes keyed with the
site's secret, which compare equal and say nothing else. One row per (account, address,
device), written only on sign-up, sign-in and joining a table, never on every page; rows
unused for ``KEEP`` are pruned (``prune``, on Celery beat).
"""

from __future__ import annotations

import functools
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac

from infra import limits

from .models import Sighting

DEVICE_COOKIE = "cc_device"
DEVICE_AGE = 60 * 60 * 24 * 365 * 2
DEVICE_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")
KEEP = timedelta(days=30)  # how long a sighting is kept, and how far apart two still match
SALT = "accounts.sightings"


def new_device() -> str:
    return secrets.token_urlsafe(24)


def device_of(request) -> str:
    """The browser's device cookie (set by the middleware on this very request if it had none);
    blank if the middleware didn't run."""
    device = getattr(request, "device", None)
    if device is None:
        device = request.COOKIES.get(DEVICE_COOKIE, "")
    return device if DEVICE_SHAPE.fullmatch(device or "") else ""


def digest(value: str) -> str:
    """A keyed hash: equal values match, and the stored hash can't be turned back into an
    address without the site's secret."""
    return salted_hmac(SALT, value, algorithm="sha256").hexdigest()


def hashes_of(request) -> tuple[str, str] | None:
    """(address hash, device hash) of a request; None if it came from no known address (an
    internal request, such as a test client's forced sign-in). The device hash is blank
    without a device cookie."""
    if not request.META.get("REMOTE_ADDR"):
        return None
    device = device_of(request)
    return digest(limits.address(request)), digest(device) if device else ""


def saw(request, user=None) -> None:
    """Note that the account (the request's, unless given) is here now: one upsert."""
    user = user or getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return
    seen = hashes_of(request)
    if seen is None:
        return
    now = timezone.now()
    Sighting.objects.bulk_create(
        [Sighting(user=user, address=seen[0], device=seen[1], first_seen=now, last_seen=now)],
        update_conflicts=True,
        unique_fields=["user", "address", "device"],
        update_fields=["last_seen"],
    )


def sighted(view):
    """A view where a signed-in player sits down at a table: note where they play from."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        saw(request)
        return response

    return wrapped


@dataclass(frozen=True)
class Match:
    """Two accounts seen from one address or device: when each was there."""

    what: str  # "address" or "device"
    value: str  # the shared hash
    one: datetime  # when the first account was there (of its uses, the closest to the other's)
    other: datetime  # when the second account was


def shared(one_id: int, other_id: int) -> list[Match]:
    """The addresses and devices both accounts were seen from, within ``KEEP`` of each other
    (either first), with when each was there (the moments closest together)."""
    rows = list(Sighting.objects.filter(user_id__in=[one_id, other_id]))
    ones = [s for s in rows if s.user_id == one_id]
    others = [s for s in rows if s.user_id == other_id]
    found: dict[tuple[str, str], Match] = {}
    for a in ones:
        for b in others:
            # The gap between the two periods of use (0 if they overlap).
            if a.last_seen < b.first_seen:
                at_a, at_b = a.last_seen, b.first_seen
            elif b.last_seen < a.first_seen:
                at_a, at_b = a.first_seen, b.last_seen
            else:
                at_a = at_b = max(a.first_seen, b.first_seen)
            if abs(at_b - at_a) > KEEP:
                continue
            for what, x, y in (("address", a.address, b.address), ("device", a.device, b.device)):
                if x and x == y and (what, x) not in found:
                    found[(what, x)] = Match(what, x, at_a, at_b)
    return sorted(found.values(), key=lambda m: (m.what, m.one))


def seen_with_each(user_ids, since: datetime) -> dict[int, frozenset[int]]:
    """For each account, the other accounts seen from an address or device it was seen
    from, both used there at or after ``since``: the accounts whose daily bonuses are shared
    (kudos). Two statements for all of them."""
    mine = list(
        Sighting.objects.filter(user_id__in=user_ids, last_seen__gte=since).values_list(
            "user_id", "address", "device"
        )
    )
    found: dict[int, set[int]] = {user_id: set() for user_id in user_ids}
    addresses = {address for _, address, _ in mine}
    devices = {device for _, _, device in mine if device}
    if addresses or devices:
        theirs = Sighting.objects.filter(Q(address__in=addresses) | Q(device__in=devices))
        for other, address, device in theirs.filter(last_seen__gte=since).values_list(
            "user_id", "address", "device"
        ):
            for user_id, a, d in mine:
                if other != user_id and (a == address or (d and d == device)):
                    found[user_id].add(other)
    return {user_id: frozenset(others) for user_id, others in found.items()}


def matching_request(request, user_id: int) -> list[Match]:
    """The address and device of this request, where the account was seen within ``KEEP``
    (``one``: now, this request; ``other``: the account's last use)."""
    seen = hashes_of(request)
    if seen is None:
        return []
    address, device = seen
    now = timezone.now()
    found = []
    recent = Sighting.objects.filter(user_id=user_id, last_seen__gte=now - KEEP)
    for what, value in (("address", address), ("device", device)):
        if not value:
            continue
        last = recent.filter(**{what: value}).order_by("-last_seen").first()
        if last is not None:
            found.append(Match(what, value, now, last.last_seen))
    return found


def prune(now: datetime | None = None) -> int:
    """Forget sightings unused for ``KEEP``. Returns how many."""
    now = now or timezone.now()
    deleted, _ = Sighting.objects.filter(last_seen__lt=now - KEEP).delete()
    return deleted
