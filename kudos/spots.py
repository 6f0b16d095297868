"""Sponsor spots: short in-house showcases a player may choose to watch for a few Kudos.

A spot shows a creature of the deck, a game or a feature of the site; nothing from outside,
nothing tracked. Starting one issues a token signed with the site's secret key that names the
player, the spot, a fresh nonce and the moment it started. The token pays
``rules.SPOT_PAY`` only when it comes back from the same player after the spot's full length
(``rules.SPOT_SECONDS``) and before it expires, once (the ledger key ``spot:<nonce>``), at most
``rules.SPOTS_PER_DAY`` times a UTC day, and only on a UTC day the player has played (a
counted game credited that day: watching is no play, so spots add to a day of play and never
replace it). A forged, altered, someone else's, replayed, expired or early token, or one
claimed on a day without play, pays nothing and says why.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, time

from django.core import signing
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext

from cards import roster
from gameplay.engine import registry

from . import clock, keys, rules, services
from .models import Entry, PlayCredit

SALT = "kudos.spot"
CLOSED = gettext_noop(
    "Sponsor spots open once you have played today: finish a game that counts, then come back."
)


@dataclass(frozen=True)
class Spot:
    slug: str
    title: str
    text: str
    cards: tuple[str, ...] = ()  # drawn with the spot
    link: str = ""  # where it invites the player
    link_text: str = ""


def _creature(card: str) -> Spot:
    return Spot(
        f"card-{card.lower()}",
        gettext("Meet %(name)s") % {"name": roster.figure_name(card)},
        f"{roster.describe(card)}. {roster.figure_line(card)}",
        (card,),
        "/cards/",
        gettext("Who's on which card"),
    )


def _game(kind: str) -> Spot:
    engine = registry.get(kind)
    return Spot(
        f"game-{kind}",
        engine.title,
        f"{engine.blurb} {engine.players_text().capitalize()}.",
        tuple(engine.showcase),
        f"/play/{kind}/" if not engine.solo else f"/rules/{kind}/",
        (gettext("Play %(game)s") if not engine.solo else gettext("How to play %(game)s"))
        % {"game": engine.title},
    )


def catalogue() -> tuple[Spot, ...]:
    features = (
        Spot(
            "feature-challenge",
            gettext("The Daily Challenge"),
            gettext(
                "The same Klondike and Gridcannon deals for everyone, every day: one attempt "
                "each, the fastest on the board."
            ),
            ("KS", "QH"),
            "/kudos/challenge/",
            gettext("Today's challenge"),
        ),
        Spot(
            "feature-fair",
            gettext("Every shuffle can be checked"),
            gettext(
                "Each game is dealt from a secret seed whose fingerprint is shown at the start; "
                "when it ends the seed is published, so anyone can deal it again."
            ),
            ("AS", "??"),
            "/rules/",
            gettext("The rules"),
        ),
        Spot(
            "feature-badges",
            gettext("Badges to collect"),
            gettext(
                "Firsts, streaks, five of a kind, a three-minute Klondike: each badge pays Kudos."
            ),
            ("JH", "9S"),
            "/kudos/",
            gettext("Your Kudos"),
        ),
    )
    creatures = tuple(_creature(card) for card in ("QH", "7S", "JD", "4C", "KB", "9H"))
    return features + creatures + tuple(_game(kind) for kind in registry.kinds())


def _watched_enough() -> str:
    return gettext("You have watched %(most)s spots today, the most that pay: more tomorrow.") % {
        "most": rules.SPOTS_PER_DAY
    }


def find(slug: str) -> Spot | None:
    return next((s for s in catalogue() if s.slug == slug), None)


def _midnight() -> datetime:
    """The start of the UTC day (a day for everyone, whatever the zone)."""
    return datetime.combine(clock.now().astimezone(UTC).date(), time(), UTC)


def watched_today(user) -> int:
    """Spots paid in the UTC day so far."""
    return Entry.objects.filter(
        user_id=user.pk, kind=Entry.Kind.SPOT, created__gte=_midnight()
    ).count()


def open_today(user) -> bool:
    """Whether the player has played today: play credited to them in a counted game whose
    credited time reaches into this UTC day."""
    return PlayCredit.objects.filter(
        user_id=user.pk, seconds__gt=0, ended__gte=_midnight()
    ).exists()


def begin(user) -> tuple[Spot, str]:
    """Start a spot for a signed-in player: the spot and its token."""
    if not open_today(user):
        raise services.Refused(gettext(CLOSED))
    if watched_today(user) >= rules.SPOTS_PER_DAY:
        raise services.Refused(_watched_enough())
    spot = secrets.choice(catalogue())
    token = signing.dumps(
        {"u": user.pk, "s": spot.slug, "n": secrets.token_hex(12), "t": clock.now().isoformat()},
        salt=SALT,
    )
    return spot, token


def claim(user, token: str) -> Entry:
    """Pay a spot whose token came back. Raises ``services.Refused`` with a sentence, paying
    nothing, for a token that is forged, someone else's, early, expired or paid already, or
    past the day's limit, or on a day the player hasn't played (a spot begun before midnight
    and claimed after it)."""
    try:
        data = signing.loads(str(token), salt=SALT)
        started = datetime.fromisoformat(data["t"])
        user_id, nonce, slug = int(data["u"]), str(data["n"]), str(data["s"])
    except (signing.BadSignature, KeyError, TypeError, ValueError) as exc:
        raise services.Refused(
            gettext("That spot token is not one we issued: nothing to pay.")
        ) from exc
    if user_id != user.pk:
        raise services.Refused(gettext("That spot was started by another player: nothing to pay."))
    watched = (clock.now() - started).total_seconds()
    if watched < rules.SPOT_SECONDS:
        left = max(1, round(rules.SPOT_SECONDS - watched))
        raise services.Refused(
            ngettext(
                "The spot is not over yet: %(left)s second to go.",
                "The spot is not over yet: %(left)s seconds to go.",
                left,
            )
            % {"left": left}
        )
    if clock.now() - started > rules.SPOT_TOKEN_LIFETIME:
        raise services.Refused(gettext("That spot token has expired: start a new spot."))
    with translation.override("en"):  # the ledger's memo is kept in English
        spot = find(slug)
        title = spot.title if spot else "a sponsor spot"
    with transaction.atomic():
        services.hold(user.pk)  # the day's count and the payment, one spot at a time
        if Entry.objects.filter(key=keys.spot(nonce)).exists():
            raise services.Refused(gettext("This spot was paid already."))
        if not open_today(user):
            raise services.Refused(gettext(CLOSED))
        if watched_today(user) >= rules.SPOTS_PER_DAY:
            raise services.Refused(_watched_enough())
        entry, _ = services.credit(
            user_id=user.pk,
            amount=rules.SPOT_PAY,
            kind=Entry.Kind.SPOT,
            key=keys.spot(nonce),
            memo=f"Watched a spot: {title}",
        )
    return entry
