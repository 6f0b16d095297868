"""Ranked tables: the queue, the matcher that seats people of similar rating together, and
what happens when someone leaves a ranked game.

A person queues for one rated game at a time (``enqueue``). The matcher (``match``, run by
Celery beat every two seconds, and once right after each enqueue) takes the waiting entries of
a game, oldest first: each one still waiting anchors a table of the people nearest to it in
rating within its window, which widens the longer it has waited. A full table of people forms
at once; after ``RANKED_FILL_AFTER`` seconds the anchor is seated with whoever is in its window
and computer players fill the rest, at the strength whose rating is nearest the people's. The matcher locks the entries it reads and skips entries
another matcher holds (FOR UPDATE SKIP LOCKED), so two matchers never seat a person twice.

Quick play (``casual=True``) uses the same queue and matcher for any game of two or more
players, with no rating at stake: first come, first seated (every casual entry has the same
skill), computer players filling after ``QUICK_FILL_AFTER`` seconds, or at once when the person
asks to play now (``play_now``). Its table is an ordinary room afterwards (the host can start
another game).

A ranked table plays the game's default rules with a turn timer. A person who presses Leave, or
stays away longer than ``RANKED_FORFEIT``, has left for good: the computer finishes the game for
them and the ratings rank them last. If everyone leaves, the computer finishes the game at once
and it is rated all the same.
"""

from __future__ import annotations

import bisect
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import ratings
from gameplay import services as gameplay
from gameplay.engine import registry
from gameplay.models import Game
from infra import news
from infra.scheduling import run_later

from . import services
from .identity import account_key
from .models import Member, QueueEntry, Room
from .words import say

log = logging.getLogger(__name__)

WINDOW_BASE = 100  # shown rating points either side, at first
WINDOW_GROWTH = 10  # more points per second waited
QUEUE_GRACE = 5.0  # seconds a waiting page may be gone (a reload) before its person leaves
STALE_AFTER = timedelta(seconds=60)
PLAY_NOW_TRIES = 10  # passes "Play now" makes while another matcher holds the queue  # no sign of life from the waiting page: gone


class QueueError(Exception):
    """Something a person asked of the queue that can't be done; the message says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SeatElsewhere(QueueError):
    """The person holds a seat at a game in play: the waiting page offers to go back to it or
    to leave it and queue."""

    def __init__(self, room):
        super().__init__(
            f"You have a seat at a game in play (room {room.code}): finish or leave it first."
        )
        self.room = room


# What else keeps a person out of the queue (an arena they are playing in): each check, added
# by an app above the lobby, answers with the sentence that says why, or "". It runs in
# ``enqueue``'s transaction, so it may lock what it reads.
QUEUE_HOLDS: list[Callable[[object], str]] = []
# Where the people of a ranked game seated from elsewhere (an arena) go back to when it ends:
# each, added by an app above the lobby, answers a game's id with (url, label) or None.
GAME_HOMES: list[Callable[[int], tuple[str, str] | None]] = []


def game_home(game_id: int) -> tuple[str, str] | None:
    return next((home for find in GAME_HOMES if (home := find(game_id))), None)


def queue_group(kind: str, casual: bool = False) -> str:
    return f"quick_{kind}" if casual else f"queue_{kind}"


def table_size(engine) -> int:
    """People (and computer players) at a ranked table of this game: four, or fewer if the
    game seats fewer."""
    return min(4, engine.max_players)


def rated_engine(kind) -> object:
    try:
        engine = registry.get(str(kind))
    except KeyError as exc:
        raise QueueError(say("There is no game called “{kind}”.", kind=str(kind)[:30])) from exc
    if not engine.rated:
        raise QueueError(
            say("{game} is not played ranked: pick a game of skill.", game=engine.title)
        )
    return engine


def casual_engine(kind) -> object:
    """A game quick play seats: any played by two or more."""
    try:
        engine = registry.get(str(kind))
    except KeyError as exc:
        raise QueueError(say("There is no game called “{kind}”.", kind=str(kind)[:30])) from exc
    if engine.max_players < 2:
        raise QueueError(
            say("{game} is played alone: start it from the home page.", game=engine.title)
        )
    return engine


def queue_engine(kind, casual: bool = False) -> object:
    return casual_engine(kind) if casual else rated_engine(kind)


def fill_after(casual: bool) -> float:
    """Seconds an anchor waits before the computer fills the rest of its table."""
    return settings.QUICK_FILL_AFTER if casual else settings.RANKED_FILL_AFTER


def rated_kinds() -> list[str]:
    return [kind for kind in registry.kinds() if registry.get(kind).rated]


def player_key(user) -> str:
    return account_key(user.pk)


# ---- joining and leaving the queue --------------------------------------------------------------


def enqueue(
    *, user, kind, now: datetime | None = None, casual: bool = False, leave_table: str = ""
) -> QueueEntry:
    """Queue for a ranked (or, ``casual``, a quick-play) game. ``leave_table``: the code of the
    room where the person holds a seat, which they chose to leave for the queue (a different
    room's seat still refuses)."""
    engine = queue_engine(kind, casual)
    if user.role == user.BOT:
        raise QueueError(
            say(
                "Bot accounts don't join the ranked queue, which is for people: challenge other "
                "bots, and people challenge you from your profile."
            )
        )
    now = now or timezone.now()
    with transaction.atomic():
        waiting = QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING).first()
        if waiting and waiting.kind == engine.kind and waiting.casual == casual:
            raise QueueError(say("You are already in the queue for {game}.", game=engine.title))
        if waiting:
            title = _queue_title(waiting)
            raise QueueError(
                say("You are already in the queue for {game}: leave it first.", game=title)
            )
        for hold in QUEUE_HOLDS:
            if reason := hold(user):
                raise QueueError(reason)
        room = services.current_room(player_key(user))
        if room is not None and leave_table and room.code == leave_table:
            services.leave_room(room=room, player=player_key(user))
            room = services.current_room(player_key(user))
        if room is not None:
            raise SeatElsewhere(room)
        # A casual table seats whoever comes first: every casual entry has the same skill.
        skill = ratings.fresh() if casual else ratings.skill_of(user, engine.kind)
        try:
            with transaction.atomic():
                entry = QueueEntry.objects.create(
                    user=user,
                    kind=engine.kind,
                    casual=casual,
                    skill=ratings.shown_skill(skill.mu),
                    rating=ratings.shown(skill.mu, skill.sigma),
                    provisional=ratings.provisional(skill.sigma),
                    enqueued=now,
                    seen=now,
                )
        except IntegrityError as exc:  # the same person queued twice at the same moment
            raise QueueError(
                say("You are already in the queue for {game}.", game=engine.title)
            ) from exc
        transaction.on_commit(lambda: _queue_changed(engine.kind, nudge=True, casual=casual))
    return entry


def _queue_title(entry: QueueEntry) -> str:
    title = registry.get(entry.kind).title
    return f"{title} with people (Find players)" if entry.casual else title


def leave(*, user, kind, casual: bool = False) -> QueueEntry:
    """Leave the queue. A person already matched is told where their table is."""
    engine = queue_engine(kind, casual)
    with transaction.atomic():
        entry = (
            QueueEntry.objects.select_for_update()
            .filter(user=user, kind=engine.kind, casual=casual)
            .order_by("-enqueued", "-pk")
            .first()
        )
        if entry is None or entry.status == QueueEntry.Status.LEFT:
            raise QueueError(say("You are not in the queue for {game}.", game=engine.title))
        if entry.status == QueueEntry.Status.MATCHED:
            code = entry.room.code if entry.room else "?"
            raise QueueError(say("You were already matched: your table is room {code}.", code=code))
        _close(entry, QueueEntry.Status.LEFT)
        transaction.on_commit(lambda: _queue_changed(engine.kind, casual=casual))
    return entry


def _close(entry: QueueEntry, status: str, room: Room | None = None) -> None:
    entry.status, entry.room, entry.closed = status, room, timezone.now()
    entry.save(update_fields=["status", "room", "closed"])


def current_entry(user, kind: str, casual: bool = False) -> QueueEntry | None:
    """The person's latest entry for this game (waiting, or how it ended)."""
    entries = QueueEntry.objects.filter(user=user, kind=kind, casual=casual)
    return entries.order_by("-enqueued", "-pk").first()


def waiting(kind: str, casual: bool = False) -> list[QueueEntry]:
    return list(
        QueueEntry.objects.filter(kind=kind, casual=casual, status=QueueEntry.Status.WAITING)
        .select_related("user")
        .order_by("enqueued", "pk")
    )


def queue_state(user, engine, casual: bool = False) -> dict:
    """What the waiting page shows (the queue socket's "queue" message): this person's entry
    and everyone waiting for the game. ``url`` is set once they are seated at a game in play."""
    now = timezone.now()
    entry = current_entry(user, engine.kind, casual) if user.is_authenticated else None
    status = entry.status if entry else "none"
    waited = (now - entry.enqueued).total_seconds() if entry else 0.0
    room = entry.room if entry and entry.room_id else None
    in_play = room is not None and room.game_id is not None and not room.game.is_over
    return {
        "type": "queue",
        "game": engine.kind,
        "title": engine.title,
        "status": status,
        "rating": entry.rating if entry else None,
        "provisional": entry.provisional if entry else None,
        "waited": round(waited, 1),
        "window": round(window(waited)) if status == QueueEntry.Status.WAITING else None,
        "casual": casual,
        "fill_after": fill_after(casual),
        "seats": table_size(engine),
        "room": room.code if room else None,
        "elsewhere": _seat_elsewhere(user) if status == "none" else None,
        "url": f"/rooms/{room.code}/" if in_play and status == QueueEntry.Status.MATCHED else None,
        "waiting": [
            {
                "name": e.user.username,
                "rating": e.rating,
                "provisional": e.provisional,
                "waited": round((now - e.enqueued).total_seconds(), 1),
                "you": e.user_id == user.pk,
            }
            for e in waiting(engine.kind, casual)
        ],
    }


def _seat_elsewhere(user) -> dict | None:
    """The game in play where this person holds a seat, which keeps them out of the queue."""
    room = services.current_room(player_key(user)) if user.is_authenticated else None
    if room is None:
        return None
    return {"code": room.code, "title": registry.get(room.game.kind).title, "ranked": room.ranked}


# ---- the waiting page's presence ----------------------------------------------------------------


def page_opened(entry_id: int) -> None:
    from django.db.models import F

    QueueEntry.objects.filter(pk=entry_id).update(
        connections=F("connections") + 1, seen=timezone.now()
    )


def page_seen(entry_id: int) -> None:
    QueueEntry.objects.filter(pk=entry_id).update(seen=timezone.now())


def page_closed(entry_id: int) -> None:
    """The waiting page closed: its person leaves the queue unless it opens again (a reload)
    within ``QUEUE_GRACE`` seconds."""
    from django.db.models import F

    QueueEntry.objects.filter(pk=entry_id, connections__gt=0).update(
        connections=F("connections") - 1, seen=timezone.now()
    )
    run_later("lobby.queue_presence", entry_id, delay=QUEUE_GRACE)


def check_presence(entry_id: int) -> bool:
    """Leave the queue for a person whose waiting page is closed. Returns True if it did."""
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(pk=entry_id).first()
        if entry is None or entry.status != QueueEntry.Status.WAITING or entry.connections:
            return False
        _close(entry, QueueEntry.Status.LEFT)
        kind, casual = entry.kind, entry.casual
        transaction.on_commit(lambda: _queue_changed(kind, casual=casual))
    return True


# ---- matching ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Waiter:
    id: int
    skill: int
    enqueued: datetime


def window(waited: float) -> float:
    """How far apart in rating (shown points) a table may be, after waiting this long."""
    return WINDOW_BASE + WINDOW_GROWTH * max(waited, 0.0)


def form_tables(
    waiters: list[Waiter],
    size: int,
    now: datetime,
    fill_after: float,
    eager: frozenset[int] = frozenset(),
) -> list[list[Waiter]]:
    """Group waiters into tables (people only; the computer fills the rest of a short one).
    Oldest first, each waiter not yet seated anchors a table of the ``size - 1`` nearest in
    rating within its window; a short table forms once the anchor has waited ``fill_after``,
    or at once for an ``eager`` anchor (quick play's "Play now with computers")."""
    by_skill = sorted(waiters, key=lambda w: (w.skill, w.id))
    keys = [(w.skill, w.id) for w in by_skill]
    taken: set[int] = set()
    tables = []
    for anchor in sorted(waiters, key=lambda w: (w.enqueued, w.id)):
        if anchor.id in taken:
            continue
        waited = (now - anchor.enqueued).total_seconds()
        reach = window(waited)
        near = _nearest(by_skill, keys, anchor, size - 1, reach, taken)
        if len(near) == size - 1 or waited >= fill_after or anchor.id in eager:
            table = [anchor, *near]
            taken.update(w.id for w in table)
            tables.append(table)
    return tables


def _nearest(by_skill, keys, anchor: Waiter, count: int, reach: float, taken: set[int]):
    """Up to ``count`` untaken waiters nearest ``anchor`` in rating, within ``reach``."""
    at = bisect.bisect_left(keys, (anchor.skill, anchor.id))
    left, right, found = at - 1, at + 1, []
    while len(found) < count:
        while left >= 0 and by_skill[left].id in taken:
            left -= 1
        while right < len(by_skill) and by_skill[right].id in taken:
            right += 1
        lower = by_skill[left] if left >= 0 else None
        upper = by_skill[right] if right < len(by_skill) else None
        gap_low = anchor.skill - lower.skill if lower else None
        gap_up = upper.skill - anchor.skill if upper else None
        if lower and (gap_up is None or gap_low <= gap_up) and gap_low <= reach:
            found.append(lower)
            left -= 1
        elif upper and gap_up <= reach:
            found.append(upper)
            right += 1
        else:
            break
    return found


def match(
    kind: str,
    *,
    now: datetime | None = None,
    casual: bool = False,
    eager: frozenset[int] = frozenset(),
) -> list[Room]:
    """One matching pass over a game's queue (its ranked or its casual one). Returns the rooms
    it seated."""
    engine = registry.get(kind)
    size = table_size(engine)
    now = now or timezone.now()
    rooms = []
    with transaction.atomic():
        # Entries another matcher holds are skipped, not waited for: nobody is seated twice.
        entries = list(
            QueueEntry.objects.select_for_update(skip_locked=True)
            .filter(kind=kind, casual=casual, status=QueueEntry.Status.WAITING)
            .select_related("user")
            .order_by("enqueued", "pk")
        )
        entries = _drop_gone(entries, now)
        by_id = {e.pk: e for e in entries}
        waiters = [Waiter(e.pk, e.skill, e.enqueued) for e in entries]
        for table in form_tables(waiters, size, now, fill_after(casual), eager):
            people = [by_id[w.id] for w in table]
            room = seat_table(engine, people, size, casual)
            QueueEntry.objects.filter(pk__in=[e.pk for e in people]).update(
                status=QueueEntry.Status.MATCHED, room=room, closed=timezone.now()
            )
            rooms.append(room)
        if rooms or len(entries) != len(by_id):
            transaction.on_commit(lambda: _queue_changed(kind, casual=casual))
    return rooms


def match_all(now: datetime | None = None) -> int:
    """A matching pass over every queue with someone waiting (each rated game's ranked one,
    each game's casual one). Returns rooms seated."""
    queues = set(
        QueueEntry.objects.filter(status=QueueEntry.Status.WAITING).values_list("kind", "casual")
    )
    playable = set(registry.kinds())
    return sum(
        len(match(kind, now=now, casual=casual))
        for kind, casual in sorted(queues)
        if kind in (playable if casual else rated_kinds())
    )


def play_now(*, user, kind) -> Room:
    """Quick play's "Play now with computers": seat this person at once, with whoever else is
    waiting for the game, computer players in the other seats."""
    engine = casual_engine(kind)
    entry = QueueEntry.objects.filter(
        user=user, kind=engine.kind, casual=True, status=QueueEntry.Status.WAITING
    ).first()
    if entry is None:
        raise QueueError(say("You are not waiting for players for {game}.", game=engine.title))
    for _ in range(PLAY_NOW_TRIES):
        for room in match(engine.kind, casual=True, eager=frozenset({entry.pk})):
            if room.members.filter(user=user).exists():
                return room
        entry.refresh_from_db()
        if entry.status == QueueEntry.Status.MATCHED and entry.room is not None:
            return entry.room  # another pass seated them meanwhile
        if entry.status != QueueEntry.Status.WAITING:
            raise QueueError(say("You are not waiting for players for {game}.", game=engine.title))
        # The beat's matcher held the queue (its rows are skipped, not waited for): it is
        # done in a moment.
        time.sleep(0.2)
    raise QueueError(say("Your table could not be set just now. Try again in a moment."))


def _drop_gone(entries: list[QueueEntry], now: datetime) -> list[QueueEntry]:
    """Leave out (and close) entries whose page went silent, and people who sat down at a
    game elsewhere since they queued."""
    seated = set(
        Member.objects.filter(
            user_id__in=[e.user_id for e in entries],
            left=False,
            seat__isnull=False,
            room__is_open=True,
            room__game__status=Game.Status.ACTIVE,
        ).values_list("user_id", flat=True)
    )
    kept = []
    for entry in entries:
        if entry.user_id in seated or entry.seen < now - STALE_AFTER:
            _close(entry, QueueEntry.Status.LEFT)
        else:
            kept.append(entry)
    return kept


def seat_table(
    engine, people: list[QueueEntry], size: int, casual: bool = False, rules: dict | None = None
) -> Room:
    """A ranked (or casual) room for these people (queue entries, or anything with their
    ``user``, ``user_id`` and ``skill``: a rated challenge's two, an arena's players), with the
    game started: ``rules`` (the defaults if None), a turn timer, computer players in the empty
    seats, seats in a random order."""
    host = people[0].user
    room = services.create_room(player=player_key(host), name=host.username, user=host)
    room.ranked = not casual
    for entry in people[1:]:
        Member.objects.create(
            room=room, player=player_key(entry.user), name=entry.user.username, user=entry.user
        )
    members = {m.user_id: m for m in room.members.all()}
    table = [
        {"name": e.user.username, "user_id": e.user_id, "player": player_key(e.user), "bot": False}
        for e in people
    ]
    # The computer players nearest the people's level: one strength fills every empty seat.
    empty = size - len(people)
    if empty:
        level = sum(e.skill for e in people) / len(people)
        strength = ratings.nearest_strength(engine.kind, level)
    table += [
        {
            "name": services.BOT_NAMES[i],
            "user_id": None,
            "player": None,
            "bot": True,
            "strength": strength,
        }
        for i in range(empty)
    ]
    order = list(range(size))
    secrets.SystemRandom().shuffle(order)
    table = [table[i] for i in order]
    game = gameplay.start_game(
        kind=engine.kind,
        seats=table,
        rules=rules,
        turn_timer=settings.RANKED_TURN_TIMER,
        ranked=not casual,
    )
    for index, seat in enumerate(table):
        if seat["user_id"]:
            member = members[seat["user_id"]]
            member.seat = index
            member.save(update_fields=["seat"])
    services.seats_changed(m.player for m in members.values())
    room.game, room.kind, room.turn_timer = game, engine.kind, settings.RANKED_TURN_TIMER
    room.save(update_fields=["ranked", "game", "kind", "turn_timer", "updated"])
    return room


def _queue_changed(kind: str, nudge: bool = False, casual: bool = False) -> None:
    """Tell the waiting pages; after an enqueue, run the matcher now rather than at the next
    tick of the beat."""
    news.tell_now(queue_group(kind, casual), "queue.update")
    if nudge:
        run_later("lobby.match_queue", delay=0)


# ---- leaving a ranked table ----------------------------------------------------------------------


def check_forfeit(member_id: int) -> bool:
    """A person away from a ranked table for ``RANKED_FORFEIT`` seconds has left it for good.
    Returns True if they had."""
    with transaction.atomic():
        member = Member.objects.select_for_update().filter(pk=member_id).first()
        if member is None or member.left or services.is_online(member.pk):
            return False
        room = member.room
        if not room.ranked or member.seat is None:
            return False
        if member.last_seen > timezone.now() - timedelta(seconds=settings.RANKED_FORFEIT - 1):
            return False  # came back and went again since: a later check decides
        services.leave_for_good(room, member)
        transaction.on_commit(lambda: services.notify_room(room.code))
    return True
