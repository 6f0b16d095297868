"""Leaving the site: everything it holds about a person, as one JSON document, and erasing the
account.

Each app says what it holds (``data_requested``) and erases its own part (``erasing``), so this
module imports none of them. Erasing keeps what others rely on: the Kudos ledger (every entry,
so balances still add up), every game and its log (other players' replays, stats and ratings),
and the person's own stats rows, now under a neutral placeholder. What goes: the name (in the
account, at the tables, in the games' seats, in other players' Kudos history), the email, the
password, every session, the sightings (hashes of the addresses and browsers the account was
used from), and the account's use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.dispatch import Signal
from django.forms.models import model_to_dict
from django.utils import timezone

from gameplay import archive, store
from gameplay.engine import registry
from gameplay.models import Game

from .models import GameRecord, GameStat, Rating, RatingChange, Sighting, User

# Receivers: ``(sender, user, **kw) -> dict`` of sections to add to the export.
data_requested = Signal()
# Receivers erase their app's part, in the erasing transaction: ``(sender, user, old_name)``.
erasing = Signal()

PLACEHOLDER = "Former player"  # what others see where the person's name was
ENCODER = DjangoJSONEncoder


def rows(queryset, *exclude: str) -> list[dict[str, Any]]:
    return [model_to_dict(row, exclude=list(exclude)) for row in queryset]


def games_of(user: User) -> list[Game]:
    """Every game in which the person held a seat."""
    games = Game.objects.order_by("pk")
    if connection.vendor == "postgresql":
        games = games.filter(seats__contains=[{"user_id": user.pk}])
    return [g for g in games if any(s.get("user_id") == user.pk for s in g.seats)]


def export(user: User) -> dict[str, Any]:
    """Everything the site holds about ``user`` (JSON-able with ``ENCODER``)."""
    data: dict[str, Any] = {
        "exported": timezone.now(),
        "account": {
            "id": user.pk,
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
        },
        "settings": {"time_zone": user.time_zone, "speed_play": user.speed_play},
        "stats": rows(GameStat.objects.filter(user=user).order_by("kind"), "user", "id"),
        "game_records": rows(GameRecord.objects.filter(user=user).order_by("ended"), "user"),
        "ratings": rows(Rating.objects.filter(user=user).order_by("kind"), "user", "id"),
        "rating_history": rows(
            RatingChange.objects.filter(user=user).order_by("ended", "game_id"), "user", "id"
        ),
        "games": [_game_from_seat(game, user) for game in games_of(user)],
        # Keyed hashes, as stored: the site keeps no address or device cookie itself.
        "sightings": rows(Sighting.objects.filter(user=user), "user", "id"),
    }
    for _, part in data_requested.send(sender=User, user=user):
        data.update(part or {})
    return data


def _game_from_seat(game: Game, user: User) -> dict[str, Any]:
    """A game as the person may see it from their seat: a finished, published game's whole
    log (what anyone may read then); otherwise their own actions and their seat's view now."""
    seats = [s for s, info in enumerate(game.seats) if info.get("user_id") == user.pk]
    about = {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "ranked": game.ranked,
        "created": game.created,
        "ended": game.ended,
        "your_seats": seats,
        "seed_sha256": game.seed_hash,
    }
    if game.is_over and not game.sealed(timezone.now()):
        return {**about, "log": store.public_log(game)}
    engine = registry.get(game.kind)
    state = store.load_state(game)
    return {
        **about,
        "your_actions": [
            {"seq": e.seq, "seat": e.seat, "action": e.action}
            for e in archive.entries(game)
            if e.seat in seats
        ],
        "your_view": {seat: engine.view(state, seat) for seat in seats},
    }


def erase(user: User) -> None:
    """Erase the person's account (see the module's note). Idempotent."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        old_name = user.username
        erasing.send(sender=User, user=user, old_name=old_name)
        for game in games_of(user):
            seats = [
                {**info, "name": PLACEHOLDER} if info.get("user_id") == user.pk else info
                for info in game.seats
            ]
            Game.objects.filter(pk=game.pk).update(seats=seats)
        Sighting.objects.filter(user=user).delete()
        user.username = f"former-{user.pk}"
        user.first_name = user.last_name = user.email = ""
        user.time_zone = "UTC"
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
        end_sessions(user.pk)


def end_sessions(user_id: int) -> int:
    """Delete every session signed in as this user. Returns how many."""
    ended = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator(2000):
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
            ended.append(session.pk)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in ended:
        store().delete(key)  # its row, and its copy in the cache where sessions are kept there
    return len(ended)
