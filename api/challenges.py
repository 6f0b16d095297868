"""Challenges: one account asks another to a game; accepting seats both and starts it.

Who may challenge whom: a person may challenge a bot account; a bot account may challenge
another bot, or a person who chose "bots may challenge me". Computer players are played from
the home page, and people meet people at tables by room code or in the ranked queue. A
challenge is open for OPEN_FOR, then it expires; an account has at most MAX_OPEN open
challenges of its own. Both sides hear of every change on the bot event socket (/ws/bot/).
"""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from gameplay.engine import registry
from infra import news
from lobby import ranked
from lobby import services as lobby
from lobby.ranked import player_key

from .models import Challenge

OPEN_FOR = timedelta(minutes=10)
MAX_OPEN = 10
TRUE = {"1", "true", "yes", "on"}


class ChallengeError(Exception):
    def __init__(self, message: str, status: int = 400):
        self.message, self.status = message, status
        super().__init__(message)


def event_group(user_id: int) -> str:
    """An account's bot event sockets (api.consumers.BotEventsConsumer)."""
    return f"bot_events_{user_id}"


def as_json(challenge: Challenge) -> dict:
    room = challenge.room
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.username,
        "challenged": challenge.challenged.username,
        "game": challenge.kind,
        "rated": challenge.rated,
        "status": _status(challenge),
        "room": room.code if room else None,
        "created": challenge.created.isoformat(),
        "expires": challenge.expires.isoformat(),
    }


def _status(challenge: Challenge) -> str:
    if challenge.status == Challenge.Status.OPEN and challenge.expires <= timezone.now():
        return Challenge.Status.EXPIRED
    return challenge.status


def _engine(kind):
    try:
        engine = registry.get(str(kind))
    except KeyError as exc:
        raise ChallengeError(
            gettext("There is no game called “%(kind)s”.") % {"kind": str(kind)[:30]}
        ) from exc
    if engine.max_players < 2 or engine.min_players > 2:
        raise ChallengeError(
            gettext("%(title)s is not played by two: pick another game.") % {"title": engine.title}
        )
    return engine


def may_challenge(challenger: User, opponent: User) -> str:
    """Why `challenger` may not challenge `opponent`, or "" if they may."""
    if opponent.pk == challenger.pk:
        return gettext("You can't challenge yourself.")
    if challenger.role == User.COMPUTER or opponent.role == User.COMPUTER:
        return gettext("Computer players are played from the home page, not challenged.")
    if challenger.role == User.PERSON and opponent.role != User.BOT:
        return gettext(
            "You can challenge bot accounts here: play people at a table, by its room code."
        )
    if challenger.role == User.BOT and opponent.role == User.PERSON:
        if not opponent.bots_may_challenge:
            return f"{opponent.username} doesn't take challenges from bots."
    return ""


@transaction.atomic
def challenge(*, challenger: User, opponent: str, kind, rated=False) -> Challenge:
    engine = _engine(kind)
    rated = rated is True or str(rated).strip().lower() in TRUE
    if rated and not engine.rated:
        raise ChallengeError(
            gettext("%(title)s is not rated: challenge to a casual game.") % {"title": engine.title}
        )
    found = User.objects.filter(username=str(opponent)[:150], is_active=True).first()
    if found is None:
        raise ChallengeError(
            (gettext("There is no player called “%(name)s”.") % {"name": str(opponent)[:30]}),
            status=404,
        )
    why = may_challenge(challenger, found)
    if why:
        raise ChallengeError(why, status=403)
    now = timezone.now()
    # The challenger's row, locked: their parallel challenges are counted one at a time.
    User.objects.select_for_update().get(pk=challenger.pk)
    mine = Challenge.objects.filter(
        challenger=challenger, status=Challenge.Status.OPEN, expires__gt=now
    )
    if mine.filter(challenged=found, kind=engine.kind).exists():
        raise ChallengeError(
            gettext("You have challenged %(name)s to %(title)s already.")
            % {"name": found.username, "title": engine.title}
        )
    if mine.count() >= MAX_OPEN:
        raise ChallengeError(
            f"You have {MAX_OPEN} open challenges: wait for answers, or withdraw one.", 429
        )
    made = Challenge.objects.create(
        challenger=challenger,
        challenged=found,
        kind=engine.kind,
        rated=rated,
        created=now,
        expires=now + OPEN_FOR,
    )
    _tell(made)
    return made


def _held(user: User, challenge_id) -> Challenge:
    try:
        pk = int(challenge_id)
    except (TypeError, ValueError) as exc:
        raise ChallengeError(gettext("There is no such challenge."), status=404) from exc
    found = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "challenged")
        .filter(pk=pk)
        .first()
    )
    if found is None or user.pk not in (found.challenger_id, found.challenged_id):
        raise ChallengeError(gettext("There is no such challenge."), status=404)
    status = _status(found)
    if status != Challenge.Status.OPEN:
        raise ChallengeError(
            (gettext("This challenge is %(status)s already.") % {"status": status}), status=409
        )
    return found


@transaction.atomic
def accept(*, user: User, challenge_id) -> Challenge:
    """The challenged side accepts: a table for the two, the game started."""
    found = _held(user, challenge_id)
    if found.challenged_id != user.pk:
        raise ChallengeError(
            gettext("Only the challenged player can accept a challenge."), status=403
        )
    why = may_challenge(found.challenger, found.challenged)  # a setting changed since
    if why:
        raise ChallengeError(why, status=403)
    found.room = _table(found)
    found.status, found.answered = Challenge.Status.ACCEPTED, timezone.now()
    found.save(update_fields=["room", "status", "answered"])
    _tell(found)
    return found


@transaction.atomic
def decline(*, user: User, challenge_id) -> Challenge:
    """The challenged side declines, or the challenger withdraws."""
    found = _held(user, challenge_id)
    withdrawn = found.challenger_id == user.pk
    found.status = Challenge.Status.CANCELLED if withdrawn else Challenge.Status.DECLINED
    found.answered = timezone.now()
    found.save(update_fields=["status", "answered"])
    _tell(found)
    return found


def _table(found: Challenge):
    engine = registry.get(found.kind)
    challenger, challenged = found.challenger, found.challenged
    if found.rated:
        # Seated as the ranked queue seats a table (random seats, the ranked turn timer, a
        # seat that leaves is lost and ranked last), so a rated game is rated one way.
        people = [SimpleNamespace(user=u, user_id=u.pk) for u in (challenger, challenged)]
        room = ranked.seat_table(engine, people, 2)
        transaction.on_commit(lambda: lobby.notify_room(room.code))
        return room
    host = player_key(challenger)
    room = lobby.create_room(player=host, name=challenger.username, user=challenger)
    lobby.join_room(
        code=room.code, player=player_key(challenged), name=challenged.username, user=challenged
    )
    lobby.start_game(room=room, player=host, kind=engine.kind, seats=2)
    return room


def _tell(found: Challenge) -> None:
    message = as_json(found)
    for user_id in (found.challenger_id, found.challenged_id):
        news.tell_after_commit(event_group(user_id), "challenge.update", challenge=message)


def listed(user: User) -> list[Challenge]:
    """The account's open challenges, made and received, newest first."""
    return list(
        Challenge.objects.filter(status=Challenge.Status.OPEN, expires__gt=timezone.now())
        .filter(Q(challenger=user) | Q(challenged=user))
        .select_related("challenger", "challenged", "room")
    )
