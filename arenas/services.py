"""Arenas: the only code that writes them.

- ``advance`` (beat, every few seconds): creates each schedule's coming arenas, starts those
  whose time has come, closes those whose time is up, and finishes closed arenas once their
  last games are scored (``finish`` pays the prizes). Each step is a conditional update or a
  unique row, so running it twice, late, or in two workers gives the same arenas.
- ``join`` / ``pause``: any time before the end; joining again after a pause comes back.
- ``pair`` (beat, and nudged when someone becomes free): seats free players at ranked tables
  (arenas/pairing.py).
- ``score_game`` (the end-of-game hook, after the ratings): scores an arena game's players
  (arenas/points.py).

Every write that reads who is free locks the arena's row first, so a join, a pause and a
pairing never cross: a person is at one arena table at a time.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts import ratings
from gameplay.engine import registry
from gameplay.models import Game
from infra import news
from infra.scheduling import run_later
from kudos import awards, badges, keys
from kudos import services as kudos
from kudos.models import Entry
from lobby import ranked
from lobby.models import Member, QueueEntry

from . import pairing, points
from .models import Arena, ArenaGame, ArenaSchedule, Entrant, Result
from .selectors import standing

log = logging.getLogger(__name__)

STEP = {
    ArenaSchedule.Every.HOURLY: timedelta(hours=1),
    ArenaSchedule.Every.DAILY: timedelta(days=1),
    ArenaSchedule.Every.WEEKLY: timedelta(days=7),
}
# A closed arena whose last game never ended (a stuck table) is finished without it after this.
LAST_GAMES_WAIT = timedelta(minutes=30)
PODIUM = 3
ACTIVE = (Arena.Status.UPCOMING, Arena.Status.LIVE)


class ArenaError(Exception):
    """Something a person asked of an arena that can't be done; the message says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def group(arena_id: int) -> str:
    return f"arena_{arena_id}"


def _changed(arena_id: int, pair_now: bool = False) -> None:
    """After the commit: the arena's open pages redraw; a free player is paired at once."""
    # One stamp per change: every viewer's socket hears it, their board builds once.
    news.tell_after_commit(group(arena_id), "arena.update", change=uuid.uuid4().hex)
    if pair_now:
        transaction.on_commit(lambda: run_later("arenas.pair", arena_id, delay=0))


# ---- the schedule --------------------------------------------------------------------------


def starts_between(schedule: ArenaSchedule, after: datetime, until: datetime) -> list[datetime]:
    """The schedule's start times in (``after``, ``until``], UTC."""
    step = STEP[schedule.every]
    first = after.astimezone(UTC).replace(minute=schedule.at.minute, second=0, microsecond=0)
    if schedule.every != ArenaSchedule.Every.HOURLY:
        first = first.replace(hour=schedule.at.hour)
    if schedule.every == ArenaSchedule.Every.WEEKLY:
        first -= timedelta(days=first.weekday() - schedule.weekday)
    while first > after:
        first -= step
    found, start = [], first + step
    while start <= until:
        found.append(start)
        start += step
    return found


def schedule_arenas(now: datetime) -> int:
    """Create each active schedule's arena running now (if any) and its next one. Returns how
    many were new."""
    created = 0
    for schedule in ArenaSchedule.objects.filter(active=True).order_by("pk"):
        length = timedelta(minutes=schedule.minutes)
        for starts in starts_between(schedule, now - length, now + STEP[schedule.every]):
            try:
                with transaction.atomic():
                    _, new = Arena.objects.get_or_create(
                        schedule=schedule,
                        starts=starts,
                        defaults={
                            "name": schedule.name,
                            "kind": schedule.kind,
                            "rules": schedule.rules,
                            "ends": starts + length,
                            "prizes": schedule.prizes,
                            "min_games": schedule.min_games,
                            "capacity": schedule.capacity,
                        },
                    )
            except IntegrityError:  # another beat made it a moment ago
                new = False
            created += new
    return created


def advance(now: datetime | None = None) -> dict[str, int]:
    """One turn of the arenas' clock (see the module's doc). Returns what changed."""
    now = now or timezone.now()
    done = {"created": schedule_arenas(now), "started": 0, "closed": 0, "finished": 0}
    for arena_id in Arena.objects.filter(status=Arena.Status.UPCOMING, starts__lte=now).values_list(
        "pk", flat=True
    ):
        done["started"] += start(arena_id, now)
    for arena_id in Arena.objects.filter(status=Arena.Status.LIVE, ends__lte=now).values_list(
        "pk", flat=True
    ):
        done["closed"] += close(arena_id)
    for arena_id in Arena.objects.filter(status=Arena.Status.CLOSING).values_list("pk", flat=True):
        done["finished"] += finish(arena_id, now)
    return done


def start(arena_id: int, now: datetime) -> bool:
    """The arena's time has come: pairing begins. True if this call started it."""
    with transaction.atomic():
        started = Arena.objects.filter(
            pk=arena_id, status=Arena.Status.UPCOMING, starts__lte=now
        ).update(status=Arena.Status.LIVE)
        if started:
            _changed(arena_id, pair_now=True)
    return bool(started)


def close(arena_id: int) -> bool:
    """Time is up: nobody new is seated; the games in play finish and count. True if this call
    closed it."""
    with transaction.atomic():
        closed = Arena.objects.filter(pk=arena_id, status=Arena.Status.LIVE).update(
            status=Arena.Status.CLOSING
        )
        if closed:
            Entrant.objects.filter(arena_id=arena_id).update(free_since=None)
            _changed(arena_id)
    return bool(closed)


def finish(arena_id: int, now: datetime | None = None) -> bool:
    """Freeze the table and pay the prizes once the closed arena's games are all scored. True
    if this call finished it; a second call (or a second worker) finds it finished and pays
    nothing, and each prize's ledger key is paid once whatever happens."""
    now = now or timezone.now()
    with transaction.atomic():
        arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
        if arena is None or arena.status != Arena.Status.CLOSING:
            return False
        playing = arena.games.filter(scored=False).exists()
        if playing and now < arena.ends + LAST_GAMES_WAIT:
            return False  # a game still in play counts: wait for it
        table = list(standing(arena).select_for_update(of=("self",)))
        winners = [e for e in table if e.games >= arena.min_games][: len(arena.prizes)]
        for place, entrant in enumerate(table, start=1):
            entrant.place, entrant.free_since = place, None
        for prize, entrant in zip(arena.prizes, winners, strict=False):
            entrant.prize = prize
        Entrant.objects.bulk_update(table, ["place", "free_since", "prize"])
        arena.status, arena.finished = Arena.Status.FINISHED, now
        arena.save(update_fields=["status", "finished"])
        kudos.hold_all({e.user_id for e in winners})  # the one order every multi-account lock takes
        for rank, entrant in enumerate(winners, start=1):
            kudos.credit(
                user_id=entrant.user_id,
                amount=entrant.prize,
                kind=Entry.Kind.BONUS,  # counts on the weekly board, like Kudos from play
                key=keys.arena(arena.pk, entrant.user_id),
                memo=f"{kudos.ordinal(rank)} place in the {arena.name} arena",
                reference=keys.arena_place(arena.pk, rank),
            )
            if rank <= PODIUM:
                awards.award_due(entrant.user_id, {badges.ARENA})
        _changed(arena.pk)
    return True


# ---- joining, pausing -------------------------------------------------------------------------


def queue_hold(user) -> str:
    """lobby.ranked's check before a person queues: not while they play in an arena."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    entrant = (
        Entrant.objects.filter(user=user, paused=False, arena__status__in=ACTIVE)
        .select_related("arena")
        .first()
    )
    if entrant is None:
        return ""
    return gettext("You are playing in the %(arena)s arena: pause there before you queue.") % {
        "arena": entrant.arena.shown_name
    }


def _elsewhere(user, arena: Arena) -> str:
    """Why the person can't play in this arena now ("" if they can)."""
    waiting = QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING).first()
    if waiting is not None:
        title = registry.get(waiting.kind).title
        queue = (
            gettext("%(game)s with people (Find players)")
            if waiting.casual
            else gettext("ranked %(game)s")
        ) % {"game": title}
        return gettext("You are in the queue for %(queue)s: leave it before you join an arena.") % {
            "queue": queue
        }
    other = (
        Entrant.objects.filter(user=user, paused=False, arena__status__in=ACTIVE)
        .exclude(arena=arena)
        .select_related("arena")
        .first()
    )
    if other is not None:
        return gettext(
            "You are playing in the %(arena)s arena: pause there before you join this one."
        ) % {"arena": other.arena.shown_name}
    return ""


def join(*, user, arena_id: int, now: datetime | None = None) -> Entrant:
    """Join the arena (or come back after a pause), any time before its end."""
    now = now or timezone.now()
    if not user.is_authenticated:
        raise ArenaError(
            gettext("Sign up or sign in to play in arenas: points and prizes need an account.")
        )
    if not user.is_person:
        raise ArenaError(
            gettext("Arenas are for people: bot accounts and computer players don't join.")
        )
    with transaction.atomic():
        arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
        if arena is None:
            raise ArenaError(gettext("There is no such arena."))
        if arena.status not in ACTIVE:
            raise ArenaError(
                gettext("The %(arena)s arena has ended: join one that is coming up.")
                % {"arena": arena.shown_name}
            )
        # The person's row: an arena join and a queue join (lobby.ranked) wait for each other.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        entrant = Entrant.objects.filter(arena=arena, user=user).first()
        if entrant is not None and not entrant.paused:
            raise ArenaError(gettext("You are already in this arena."))
        if reason := _elsewhere(user, arena):
            raise ArenaError(reason)
        if entrant is None and arena.entrants.count() >= arena.capacity:
            raise ArenaError(
                gettext("The %(arena)s arena is full: %(capacity)s players.")
                % {"arena": arena.shown_name, "capacity": arena.capacity}
            )
        skill = ratings.shown_skill(ratings.skill_of(user, arena.kind).mu)
        if entrant is None:
            entrant = Entrant.objects.create(
                arena=arena, user=user, skill=skill, free_since=now, joined=now
            )
        else:
            entrant.paused, entrant.skill = False, skill
            entrant.free_since = now if entrant.table_id is None else None
            entrant.save(update_fields=["paused", "skill", "free_since"])
        _changed(arena.pk, pair_now=arena.status == Arena.Status.LIVE)
    return entrant


def pause(*, user, arena_id: int) -> Entrant:
    """Stop being paired. A game in play goes on and counts; join again to come back."""
    if not user.is_authenticated:
        raise ArenaError(gettext("You are not in this arena."))
    with transaction.atomic():
        arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
        entrant = Entrant.objects.filter(arena=arena, user=user).first() if arena else None
        if entrant is None:
            raise ArenaError(gettext("You are not in this arena."))
        if arena.status not in ACTIVE:
            raise ArenaError(
                gettext("The %(arena)s arena has ended.") % {"arena": arena.shown_name}
            )
        if entrant.paused:
            raise ArenaError(gettext("You are already paused: join again to come back."))
        entrant.paused, entrant.free_since = True, None
        entrant.save(update_fields=["paused", "free_since"])
        _changed(arena.pk)
    return entrant


# ---- pairing -------------------------------------------------------------------------------------


def pair(arena_id: int, now: datetime | None = None) -> list[ArenaGame]:
    """Seat the arena's free players (arenas/pairing.py). Returns the games it started."""
    now = now or timezone.now()
    made = []
    with transaction.atomic():
        # A pairing another worker is running holds the row: this one has nothing to add.
        arena = (
            Arena.objects.select_for_update(skip_locked=True)
            .filter(pk=arena_id, status=Arena.Status.LIVE)
            .first()
        )
        if arena is None:
            return []
        engine = registry.get(arena.kind)
        waiting = list(
            arena.entrants.filter(paused=False, table__isnull=True, free_since__isnull=False)
            .select_related("user")
            .order_by("pk")
        )
        busy = _busy([e.user_id for e in waiting])
        by_id = {e.pk: e for e in waiting}
        free = [
            pairing.Free(
                e.pk, e.user_id, e.points, e.skill, max(e.free_since, arena.starts),
                frozenset(e.last_table),
            )
            for e in waiting
            if e.user_id not in busy
        ]  # fmt: skip
        size = ranked.table_size(engine)
        for table in pairing.tables(
            free,
            size=size,
            least=engine.min_players,
            now=now,
            fill_after=settings.ARENA_FILL_AFTER,
        ):
            people = [by_id[f.id] for f in table.people]
            room = ranked.seat_table(
                engine, people, size if table.computers else len(people), rules=arena.rules or None
            )
            arena_game = ArenaGame.objects.create(
                arena=arena,
                game_id=room.game_id,
                room=room,
                people=[e.user_id for e in people],
                computers=table.computers,
            )
            Entrant.objects.filter(pk__in=[e.pk for e in people]).update(
                table=arena_game, free_since=None
            )
            made.append(arena_game)
        if made:
            _changed(arena.pk)
    return made


def _busy(user_ids: list[int]) -> set[int]:
    """People seated at a game in play elsewhere, or waiting in a queue: not paired now."""
    seated = Member.objects.filter(
        user_id__in=user_ids,
        left=False,
        seat__isnull=False,
        room__is_open=True,
        room__game__status=Game.Status.ACTIVE,
    ).values_list("user_id", flat=True)
    queued = QueueEntry.objects.filter(
        user_id__in=user_ids, status=QueueEntry.Status.WAITING
    ).values_list("user_id", flat=True)
    return set(seated) | set(queued)


def pair_all(now: datetime | None = None) -> int:
    """A pairing in every live arena. Returns the games started."""
    live = Arena.objects.filter(status=Arena.Status.LIVE).values_list("pk", flat=True)
    return sum(len(pair(arena_id, now)) for arena_id in live)


# ---- scoring --------------------------------------------------------------------------------------


def score_game(game: Game) -> list[Result]:
    """Score an ended arena game (the end-of-game hook's "arenas" receiver, after the ratings:
    in the hook's transaction, once per game). Its players are free again, or paused if they
    left it."""
    arena_game = (
        ArenaGame.objects.select_for_update().select_related("arena").filter(game=game).first()
    )
    if arena_game is None or arena_game.scored:
        return []
    arena = arena_game.arena
    if arena.status == Arena.Status.FINISHED:  # ended long after the arena: its table is frozen
        arena_game.scored = True
        arena_game.save(update_fields=["scored"])
        return []
    entrants = {
        e.user_id: e
        for e in Entrant.objects.select_for_update()
        .filter(arena=arena, user_id__in=arena_game.people)
        .order_by("pk")
    }
    places = _places(game)
    now = timezone.now()
    results = []
    for seat, held in enumerate(game.seats):
        entrant = entrants.pop(held.get("user_id"), None)
        if entrant is None:
            continue  # a computer player
        place, base, won = places.get(seat, (len(game.seats), 0, False))
        left = bool(held.get("left")) or game.status != Game.Status.OVER
        scored = points.score(
            base=base,
            won=won,
            streak=entrant.streak,
            computers=arena_game.computers,
            abandoned=left,
        )
        results.append(
            Result.objects.create(
                entrant=entrant,
                arena_game=arena_game,
                place=place,
                points=scored.points,
                doubled=scored.doubled,
                abandoned=left,
            )
        )
        entrant.points += scored.points
        entrant.games += 1
        entrant.wins += scored.won
        entrant.streak = scored.streak
        entrant.last_scored = now
        entrant.last_table = arena_game.people
        entrant.table = None
        entrant.paused = entrant.paused or left
        live = arena.status == Arena.Status.LIVE
        entrant.free_since = now if live and not entrant.paused else None
        entrant.skill = ratings.shown_skill(ratings.skill_of(entrant.user_id, game.kind).mu)
        entrant.save()
    arena_game.scored = True
    arena_game.save(update_fields=["scored"])
    _changed(arena.pk, pair_now=arena.status == Arena.Status.LIVE)
    if arena.status == Arena.Status.CLOSING:
        transaction.on_commit(lambda: run_later("arenas.advance", delay=0))
    return results


def _places(game: Game) -> dict[int, tuple[int, int, bool]]:
    """Per seat of a finished game: (place, points for it, won alone)."""
    if game.status != Game.Status.OVER or not game.result:
        return {}
    sides = ratings.sides(game)
    ranks = [rank for _, rank in sides]
    found = {}
    for (team, rank), (place, base) in zip(sides, points.for_ranks(ranks, len(sides)), strict=True):
        won = place == 1 and ranks.count(rank) == 1
        for seat in team:
            found[seat] = (place, base, won)
    return found
