"""What every page's header shows a signed-in player (Kudos, streak, level, name colour) and
whether friends' invitations wait on their home page, kept in the cache so a page reads them
without a query, and the bonus event running, kept for everyone.

A player's facts are kept beside a version: a random token that ``changed`` replaces when
something changes them (a Kudos credit or spend, a level, a streak's day, a name colour, an
invitation sent: the moments the header's socket refreshes open pages), and again after the
commit. A page reads the token and the facts in one round trip and uses the facts only if
they were read under that token; facts read from the database are kept under the token read
before them, so a committed change is never hidden. The cache is Redis in production (one
for every process) and the process's memory in the embedded shape (one process).
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from accounts import backends

from . import clock
from .models import BonusEvent

# Seconds a player's facts are kept unread. Short, so facts a change could not replace (Redis
# away when it came) are read afresh soon after Redis is back.
KEEP = 5 * 60

log = logging.getLogger(__name__)


EVERYONE = "everyone"  # what is the same for every player: the bonus event running


def changed(owner) -> None:
    """What the header shows this player (a user id), or ``EVERYONE``, changed: pages read it
    afresh. The token is replaced now and again after the commit: what a page reads between
    the two is kept under a token the commit replaces."""

    def replace():
        try:
            cache.set(f"header:version:{owner}", uuid.uuid4().hex, KEEP)
        except Exception as exc:  # Redis away: the change stands; the kept facts soon expire
            log.warning("the header of %s was not marked changed: %r", owner, exc)

    replace()
    transaction.on_commit(replace)


class Kept:
    """Facts kept for one owner (a player's id, or ``EVERYONE``): ``get(name, read)`` answers
    the fact ``name``, reading it with ``read()`` (and keeping it) when it isn't kept."""

    def __init__(self, owner, got: dict, kept: bool = True):
        self.version_key, self.facts_key = f"header:version:{owner}", f"header:facts:{owner}"
        self.version, self.facts = None, {}
        if not kept:
            return
        self.version = got.get(self.version_key)
        if self.version is None:
            try:
                cache.add(self.version_key, uuid.uuid4().hex, KEEP)
                self.version = cache.get(self.version_key)
            except Exception:  # Redis away: nothing is kept for this page
                return
        version, facts = got.get(self.facts_key) or (None, {})
        self.facts = facts if version is not None and version == self.version else {}

    @staticmethod
    def keys(*owners) -> list[str]:
        return [key for o in owners for key in (f"header:version:{o}", f"header:facts:{o}")]

    @classmethod
    def read(cls, *owners, got: dict | None = None) -> list[Kept]:
        """The facts of each owner, in one round trip (none when ``got`` has them already)."""
        if got is None:
            try:
                got = cache.get_many(cls.keys(*owners))
            except Exception:  # Redis away: the page reads everything from the database
                return [cls(owner, {}, kept=False) for owner in owners]
        return [cls(owner, got) for owner in owners]

    def get(self, name: str, read):
        if name not in self.facts:
            self.put(name, read())
        return self.facts[name]

    def put(self, name: str, value) -> None:
        if self.facts.get(name, self) != value:
            self.facts[name] = value
            if self.version is not None:
                try:
                    cache.set(self.facts_key, (self.version, self.facts), KEEP)
                except Exception:  # Redis away: this page has them; the next reads afresh
                    self.version = None


def kept(request) -> Kept:
    """The signed-in player's kept facts, read once for the page (with everyone's)."""
    if getattr(request, "_header_kept", None) is None:
        owners = (request.user.pk, EVERYONE)
        got = backends.read_beside(request.user, Kept.keys(*owners))  # read with the account
        request._header_kept, request._header_everyone = Kept.read(*owners, got=got)
    return request._header_kept


# A signed-in player's page reads the facts with the account row (one round trip for both).
backends.BESIDE.append(lambda user_id: Kept.keys(user_id, EVERYONE))


def running_event(request, read) -> BonusEvent | None:
    """The bonus event the header shows now, kept for everyone until the next event starts or
    this one ends (``read(now)`` answers the running events, best first, and the next start)."""
    kept(request)
    everyone, now = request._header_everyone, clock.now()
    since, until, event = everyone.facts.get("event", (None, None, None))
    if since is None or not since <= now < until:
        events, next_start = read(now)
        ends = [e.ends for e in events] + ([next_start] if next_start else [])
        event = events[0] if events else None
        everyone.put("event", (now, min(ends, default=datetime.max.replace(tzinfo=UTC)), event))
    return event


def _events_changed(**kwargs) -> None:
    changed(EVERYONE)


post_save.connect(_events_changed, sender=BonusEvent, dispatch_uid="header-bonus-event-saved")
post_delete.connect(_events_changed, sender=BonusEvent, dispatch_uid="header-bonus-event-gone")
