"""Friends: requests, blocks and invitations to a table. Every write goes through here.

Each refusal is a `Refused` with a sentence for the person and changes nothing. A blocked
person learns only that the other is "not available", the answer anyone closed to them gets.
Two people's rows are locked in one order (their user rows, by primary key) so that two
people asking each other at once can't both leave a request open."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from infra import news
from kudos import header
from lobby import services as lobby
from lobby.identity import account_key
from lobby.models import ROOM_SIZE, Room

from .models import Block, FriendRequest, Friendship, Invitation, Online

User = get_user_model()

# Friend requests one person may send a UTC day. Enough for anyone making friends at tables;
# too few to ask the whole site.
REQUESTS_PER_DAY = 20
# An invitation nobody answered stops being offered after this long.
INVITATION_TTL = timedelta(minutes=30)

NOT_AVAILABLE = gettext_noop("{name} is not available for friend requests.")
NO_SUCH_REQUEST = gettext_noop("There is no such friend request for you to answer.")
NO_SUCH_INVITATION = gettext_noop("There is no such invitation for you.")
FRIENDS_ONLY = gettext_noop("You can invite friends only, and {name} is not one of yours.")
NOT_AT_TABLE = gettext_noop("You can invite friends only to a table you are at.")
TOO_MANY_INVITATIONS = gettext_noop("You have sent too many invitations; try again in a minute.")
FILLED_UP = gettext_noop("That table has filled up.")
GAME_ENDED = gettext_noop("That game has ended.")
STARTED = gettext_noop("That table has started its game: you can watch it instead.")


class Refused(Exception):
    """Something a person asked that can't be done; the message says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def blocks(a, b) -> bool:
    """Whether either of two people (users or their ids) has blocked the other."""
    a, b = getattr(a, "pk", a), getattr(b, "pk", b)
    return Block.objects.filter(
        Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)
    ).exists()


def are_friends(a, b) -> bool:
    a, b = getattr(a, "pk", a), getattr(b, "pk", b)
    return Friendship.objects.filter(user_id=a, friend_id=b).exists()


def person(username) -> User:
    """The account with this name, or a sentence saying there is none."""
    name = str(username or "").strip()[:150]
    found = User.objects.filter(username=name, is_active=True).first() if name else None
    if found is None:
        raise Refused(
            (gettext("Nobody here is called %(name)s.") % {"name": name})
            if name
            else gettext("Say who, by their name.")
        )
    return found


def _lock(*users) -> None:
    """Lock these people's rows, always in the same order."""
    ids = sorted({u.pk for u in users})
    list(User.objects.select_for_update().filter(pk__in=ids).order_by("pk").values("pk"))


def _check_people(me, them) -> None:
    if me.pk == them.pk:
        raise Refused(gettext("You can't be your own friend."))
    if not me.is_person:
        raise Refused(gettext("Computer players and bots don't make friends."))
    if not them.is_person:
        said = (
            gettext("%(name)s is a computer player: computer players and bots don't make friends.")
            if them.role == User.COMPUTER
            else gettext("%(name)s is a bot: computer players and bots don't make friends.")
        )
        raise Refused(said % {"name": them.username})


def _day_start():
    today = timezone.now().astimezone(UTC).date()
    return datetime.combine(today, time.min, tzinfo=UTC)


def requests_left_today(user) -> int:
    sent = FriendRequest.objects.filter(sender=user, created__gte=_day_start()).count()
    return max(REQUESTS_PER_DAY - sent, 0)


# ---- friend requests ---------------------------------------------------------------------------


@transaction.atomic
def ask(*, sender, username) -> bool:
    """`sender` asks someone to be friends. A request to someone who already asked `sender`
    accepts theirs. True when the two are now friends, False when the request waits."""
    them = person(username)
    _check_people(sender, them)
    _lock(sender, them)
    if Block.objects.filter(blocker=sender, blocked=them).exists():
        raise Refused(
            gettext("You have blocked %(name)s: unblock them first.") % {"name": them.username}
        )
    if Block.objects.filter(blocker=them, blocked=sender).exists():
        raise Refused(gettext(NOT_AVAILABLE).format(name=them.username))
    if are_friends(sender, them):
        raise Refused(gettext("You and %(name)s are already friends.") % {"name": them.username})
    theirs = FriendRequest.objects.filter(sender=them, recipient=sender, status="pending").first()
    if theirs is not None:
        _befriend(theirs)
        return True
    if FriendRequest.objects.filter(sender=sender, recipient=them, status="pending").exists():
        raise Refused(
            gettext("You have already asked %(name)s: they haven't answered yet.")
            % {"name": them.username}
        )
    if requests_left_today(sender) == 0:
        raise Refused(
            gettext(
                "You have sent %(most)s friend requests today, the most a day: "
                "ask again tomorrow (UTC)."
            )
            % {"most": REQUESTS_PER_DAY}
        )
    FriendRequest.objects.create(sender=sender, recipient=them)
    return False


def _row_id(value) -> int | None:
    """A row id from a form or an address, or None for anything that can't be one."""
    try:
        pk = int(str(value)[:20])
    except (TypeError, ValueError):
        return None
    return pk if 0 < pk < 2**63 else None


def _open_request(user, request_id, side: str) -> FriendRequest:
    """The request `user` may answer (side "recipient") or withdraw (side "sender"), locked,
    or a sentence: one answer for no such request and for someone else's."""
    pk = _row_id(request_id)
    found = None if pk is None else FriendRequest.objects.filter(pk=pk, **{side: user}).first()
    if found is None:
        raise Refused(gettext(NO_SUCH_REQUEST))
    _lock(found.sender, found.recipient)
    found = FriendRequest.objects.select_related("sender", "recipient").get(pk=pk)
    if found.status == FriendRequest.Status.PENDING:
        return found
    other = found.sender if side == "recipient" else found.recipient
    raise Refused(
        {
            "accepted": (
                gettext("That request is already answered: you and %(name)s are friends.")
                % {"name": other.username}
            ),
            "declined": gettext("You declined that request already."),
            "cancelled": (
                gettext("That request was withdrawn by %(name)s.") % {"name": found.sender.username}
            )
            if side == "recipient"
            else gettext("That request is already withdrawn."),
        }[found.status]
    )


@transaction.atomic
def accept(*, user, request_id) -> FriendRequest:
    found = _open_request(user, request_id, "recipient")
    if blocks(found.sender, found.recipient):  # (a block closes requests; kept safe anyway)
        raise Refused(gettext(NO_SUCH_REQUEST))
    _befriend(found)
    return found


@transaction.atomic
def decline(*, user, request_id) -> FriendRequest:
    found = _open_request(user, request_id, "recipient")
    _close(found, FriendRequest.Status.DECLINED)
    return found


@transaction.atomic
def cancel(*, user, request_id) -> FriendRequest:
    found = _open_request(user, request_id, "sender")
    _close(found, FriendRequest.Status.CANCELLED)
    return found


def _close(found: FriendRequest, status: str) -> None:
    found.status, found.answered = status, timezone.now()
    found.save(update_fields=["status", "answered"])


def _befriend(found: FriendRequest) -> None:
    _close(found, FriendRequest.Status.ACCEPTED)
    a, b = found.sender_id, found.recipient_id
    Friendship.objects.bulk_create(
        [Friendship(user_id=a, friend_id=b), Friendship(user_id=b, friend_id=a)],
        ignore_conflicts=True,
    )


@transaction.atomic
def unfriend(*, user, username) -> None:
    them = person(username)
    _lock(user, them)
    if not are_friends(user, them):
        raise Refused(gettext("You and %(name)s are not friends.") % {"name": them.username})
    _part(user, them)


def _part(a, b) -> None:
    """No friendship, open request or open invitation is left between two people."""
    Friendship.objects.filter(Q(user=a, friend=b) | Q(user=b, friend=a)).delete()
    FriendRequest.objects.filter(
        Q(sender=a, recipient=b) | Q(sender=b, recipient=a), status="pending"
    ).update(status=FriendRequest.Status.CANCELLED, answered=timezone.now())
    Invitation.objects.filter(
        Q(sender=a, recipient=b) | Q(sender=b, recipient=a), status="pending"
    ).update(status=Invitation.Status.WITHDRAWN, answered=timezone.now())


# ---- blocks ------------------------------------------------------------------------------------


@transaction.atomic
def block(*, user, username) -> None:
    """`user` blocks someone: their friendship, requests and invitations end, and nothing new
    comes from them."""
    them = person(username)
    if them.pk == user.pk:
        raise Refused(gettext("You can't block yourself."))
    _lock(user, them)
    if Block.objects.filter(blocker=user, blocked=them).exists():
        raise Refused(gettext("You have already blocked %(name)s.") % {"name": them.username})
    Block.objects.create(blocker=user, blocked=them)
    _part(user, them)


@transaction.atomic
def unblock(*, user, username) -> None:
    them = person(username)
    if not Block.objects.filter(blocker=user, blocked=them).delete()[0]:
        raise Refused(gettext("You have not blocked %(name)s.") % {"name": them.username})


# ---- invitations to a table --------------------------------------------------------------------


def _player(user) -> str:
    return account_key(user.pk)


def _room_full(room: Room) -> bool:
    present = room.present().count()
    return present >= ROOM_SIZE or (room.public and present >= lobby.listed_size(room))


def _in_play(room: Room) -> bool:
    return room.game_id is not None and not room.game.is_over


def inviting_room(*, user, code) -> Room:
    """The room `user` may invite friends to, or a sentence saying why not."""
    try:
        room = lobby.open_room(code)
    except lobby.RoomError:
        raise Refused(gettext(NOT_AT_TABLE)) from None
    if lobby.member_of(room, _player(user)) is None:
        raise Refused(gettext(NOT_AT_TABLE))
    if room.private:
        raise Refused(gettext("This table is yours alone: nobody else can join it."))
    if room.ranked:
        raise Refused(gettext("The ranked queue seats this table: friends can watch it instead."))
    if _in_play(room):
        raise Refused(
            gettext("The game has started: invite friends when the table is back in its lobby.")
        )
    if _room_full(room):
        raise Refused(gettext("The table is full."))
    return room


@transaction.atomic
def invite(*, sender, username, code) -> Invitation:
    """`sender`, at a table waiting for players, invites a friend. The friend's open pages
    hear of it at once (the header socket); it waits on their home page until it lapses."""
    room = inviting_room(user=sender, code=code)
    them = person(username)
    if them.pk == sender.pk:
        raise Refused(gettext("You are at this table already."))
    _lock(sender, them)
    if not are_friends(sender, them):  # a block ends the friendship: one answer for both
        raise Refused(gettext(FRIENDS_ONLY).format(name=them.username))
    if lobby.member_of(room, _player(them)) is not None:
        raise Refused(gettext("%(name)s is at this table already.") % {"name": them.username})
    if Invitation.objects.filter(recipient=them, room=room, status="pending").exists():
        raise Refused(
            gettext("%(name)s has an invitation to this table already.") % {"name": them.username}
        )
    # Counted from the rows, under the sender's row lock: two at once can't both take the
    # last place.
    minute_ago = timezone.now() - timedelta(minutes=1)
    sent = Invitation.objects.filter(sender=sender, created__gt=minute_ago).count()
    if sent >= settings.INVITATIONS_PER_MINUTE:
        raise Refused(gettext(TOO_MANY_INVITATIONS))
    invitation = Invitation.objects.create(sender=sender, recipient=them, room=room)
    news.tell_after_commit(news.person_group(them.pk), "invitation.sent", invitation=invitation.pk)
    header.changed(them.pk)  # their home page shows it
    return invitation


def _invitation(user, invitation_id) -> Invitation:
    pk = _row_id(invitation_id)
    found = (
        Invitation.objects.select_related("room", "room__game", "sender")
        .filter(pk=pk, recipient=user)
        .first()
        if pk is not None
        else None
    )
    if found is None:
        raise Refused(gettext(NO_SUCH_INVITATION))
    return found


def _still_open(invitation: Invitation) -> None:
    """Refused, saying why, unless the invitation may still be taken up."""
    status = invitation.status
    if status == Invitation.Status.ACCEPTED:
        raise Refused(gettext("You have taken up that invitation already."))
    if status == Invitation.Status.DISMISSED:
        raise Refused(gettext("You dismissed that invitation."))
    if status == Invitation.Status.WITHDRAWN:
        raise Refused(gettext("That invitation was withdrawn."))
    room = invitation.room
    if not room.is_open:
        raise Refused(gettext(GAME_ENDED))
    if _in_play(room):
        raise Refused(gettext(STARTED))
    if invitation.created < timezone.now() - INVITATION_TTL:
        raise Refused(gettext("That invitation has lapsed: ask for a new one."))
    if lobby.member_of(room, _player(invitation.sender)) is None:
        raise Refused(
            gettext("%(name)s has left that table.") % {"name": invitation.sender.username}
        )


@transaction.atomic
def join(*, user, invitation_id, name: str) -> Room:
    """The invitee takes up the invitation: they join the table, by its code, as a person
    who typed it would."""
    invitation = _invitation(user, invitation_id)
    room = Room.objects.select_for_update().get(pk=invitation.room_id)
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("room", "sender")
        .get(pk=invitation.pk)
    )
    _still_open(invitation)
    if lobby.member_of(room, _player(user)) is None and _room_full(room):
        raise Refused(gettext(FILLED_UP))
    try:
        room = lobby.join_room(code=room.code, player=_player(user), name=name, user=user)
    except lobby.RoomError as exc:  # (its own checks: the same table, a moment later)
        raise Refused(gettext(FILLED_UP) if "full" in exc.message else exc.message) from exc
    invitation.status, invitation.answered = Invitation.Status.ACCEPTED, timezone.now()
    invitation.save(update_fields=["status", "answered"])
    return room


@transaction.atomic
def dismiss(*, user, invitation_id) -> Invitation:
    invitation = _invitation(user, invitation_id)
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.status != Invitation.Status.PENDING:
        _still_open(invitation)  # says why it is not open
    invitation.status, invitation.answered = Invitation.Status.DISMISSED, timezone.now()
    invitation.save(update_fields=["status", "answered"])
    return invitation


def watch_path(*, user, invitation_id) -> str:
    """Where the invitee watches the table: a table that is not listed is watched with the
    host's watcher token, which only the invitation gives them."""
    invitation = _invitation(user, invitation_id)
    room = invitation.room
    if invitation.status in (Invitation.Status.DISMISSED, Invitation.Status.WITHDRAWN):
        _still_open(invitation)
    if not room.is_open:
        raise Refused(gettext(GAME_ENDED))
    path = f"/rooms/{room.code}/watch/"
    if room.public or room.ranked:
        return path
    return f"{path}?invite={lobby.watch_invitation(room)}"


# ---- who is online: the header socket's presence -----------------------------------------------


def fresh_since():
    return timezone.now() - timedelta(seconds=settings.PRESENCE_TTL)


def came_online(*, user_id: int, channel: str) -> None:
    Online.objects.update_or_create(
        channel=channel, defaults={"user_id": user_id, "seen": timezone.now()}
    )


# Seconds a closed header socket still counts: going from one page to the next closes one
# socket before the next page opens its own, and a friend is not offline in between.
NEXT_PAGE_GRACE = 5.0


def went_offline(*, channel: str) -> None:
    """A header socket closed: it counts for NEXT_PAGE_GRACE more seconds, then expires like
    the row of a process that died (and the next heartbeat anywhere deletes it)."""
    expires = timezone.now() - timedelta(seconds=settings.PRESENCE_TTL - NEXT_PAGE_GRACE)
    Online.objects.filter(channel=channel, seen__gt=expires).update(seen=expires)


def heartbeat(sockets: dict[str, int]) -> None:
    """The sign of life of a process's header sockets (channel name: user id), every
    PRESENCE_BEAT seconds, in one write; rows nobody beats for (a process that died) go."""
    now = timezone.now()
    if Online.objects.filter(channel__in=sockets).update(seen=now) != len(sockets):
        kept = set(Online.objects.filter(channel__in=sockets).values_list("channel", flat=True))
        Online.objects.bulk_create(
            [Online(user_id=u, channel=c, seen=now) for c, u in sockets.items() if c not in kept],
            ignore_conflicts=True,
        )
    Online.objects.filter(seen__lt=fresh_since()).delete()
