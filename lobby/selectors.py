"""What a table socket reads: its room, its member and the room's people. The socket calls these
on a thread (infra.scheduling.on_thread); they never write."""

from __future__ import annotations

from django.db.models import Exists, F, OuterRef, Q, Subquery

from accounts import ratings
from accounts.models import Rating
from gameplay import store
from gameplay.engine import registry
from gameplay.models import Game

from .models import Member, Presence, Room
from .services import fresh_since, listed_size


def open_room(code: str) -> Room | None:
    return Room.objects.filter(code=code, is_open=True).first()


def member(member_id: int) -> Member:
    """A member with their room and its game."""
    return Member.objects.select_related("room", "room__game").get(pk=member_id)


def people(member_id: int, room_id: int, *, with_game: bool = False):
    """(member, room, the room's people in the order they came), in one query; with_game
    also reads the room's game row, which is then this process's latest of it (the next move
    here starts from it, on the loop)."""
    related = "room__game" if with_game else "room"
    found = list(
        Member.objects.filter(Q(left=False) | Q(pk=member_id), room_id=room_id)
        .select_related(related)
        .order_by("joined")
    )
    member = next(m for m in found if m.pk == member_id)
    room = member.room
    if with_game and room.game is not None:
        store.remember_row(room.game)
    return member, room, [m for m in found if not m.left]


def game_seq(game_id: int) -> int:
    """The game's seq as committed now."""
    return Game.objects.filter(pk=game_id).values_list("seq", flat=True).first() or 0


def watched(room_id: int, *, with_game: bool = False) -> tuple[Room, list[Member]]:
    """(the room, its people in the order they came) for a spectator's socket; with_game as
    for people()."""
    room = Room.objects.select_related("game" if with_game else None).get(pk=room_id)
    if with_game and room.game is not None:
        store.remember_row(room.game)
    return room, list(room.members.filter(left=False).order_by("joined"))


def open_tables() -> list[dict]:
    """The public rooms waiting for players, with a seat free and their host here, oldest
    first: what /tables/ lists. One query for the rooms, one for their people, one for the
    hosts' ratings."""
    host_here = Presence.objects.filter(
        member__room=OuterRef("pk"), member__player=OuterRef("host"), seen__gte=fresh_since()
    )
    rooms = list(
        Room.objects.filter(is_open=True, public=True, ranked=False, private=False)
        .filter(Q(game__isnull=True) | ~Q(game__status=Game.Status.ACTIVE))
        .filter(Exists(host_here))
        .order_by("created")[:200]
    )
    people: dict[int, list[Member]] = {}
    for m in Member.objects.filter(room__in=rooms, left=False).order_by("joined"):
        people.setdefault(m.room_id, []).append(m)
    hosts = {
        r.pk: next((m for m in people.get(r.pk, []) if m.player == r.host), None) for r in rooms
    }
    rated = {
        (r.user_id, r.kind): ratings.shown(r.mu, r.sigma)
        for r in Rating.objects.filter(
            user_id__in=[h.user_id for h in hosts.values() if h and h.user_id], games__gt=0
        )
    }
    listed = []
    for room in rooms:
        host, engine = hosts[room.pk], registry.get(room.kind)
        size, present = listed_size(room), len(people.get(room.pk, []))
        if host is None or present >= size:
            continue  # full: it leaves the list at once
        listed.append(
            {
                "code": room.code,
                "kind": engine.kind,
                "title": engine.title,
                "options": _offered_options(engine, room),
                "seats": size,
                "free": size - present,
                "host": host.name,
                "rating": rated.get((host.user_id, engine.kind)) if engine.rated else None,
            }
        )
    return listed


def _offered_options(engine, room: Room) -> list[str]:
    """The rule options a table changes from the game's defaults, and its turn timer."""
    defaults = engine.default_rules()
    shown = [
        f"{option.label}: {option.value_label(room.rules[option.name])}"
        for option in engine.options
        if option.name in room.rules and room.rules[option.name] != defaults[option.name]
    ]
    if room.turn_timer:
        shown.append(f"Turn timer: {room.turn_timer} s")
    return shown


def tv_table(kind: str | None = None) -> Room | None:
    """The live ranked table whose best-rated seated person is rated highest (of one game, or
    of all), for /tv/: newest first among equals and unrated."""
    best = (
        Rating.objects.filter(
            kind=OuterRef("kind"),
            user__member__room=OuterRef("pk"),
            user__member__left=False,
            user__member__seat__isnull=False,
        )
        .order_by("-ordinal")
        .values("ordinal")[:1]
    )
    rooms = Room.objects.filter(is_open=True, ranked=True, game__status=Game.Status.ACTIVE)
    if kind:
        rooms = rooms.filter(kind=kind)
    rooms = rooms.annotate(top=Subquery(best)).select_related("game")
    return rooms.order_by(F("top").desc(nulls_last=True), "-pk").first()


def tv_kinds() -> list[str]:
    """The games with a live ranked table now, for the TV's channel list."""
    live = Room.objects.filter(is_open=True, ranked=True, game__status=Game.Status.ACTIVE)
    return sorted(set(live.values_list("kind", flat=True)))
