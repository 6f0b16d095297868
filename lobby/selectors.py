"""What a table socket reads: its room, its member and the room's people. The socket calls these
on a thread (infra.scheduling.on_thread); they never write."""

from __future__ import annotations

from django.db.models import Q

from gameplay import store

from .models import Member, Room


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
