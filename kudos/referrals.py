"""Referrals: each player's invite link, and paying both players when the new one settles in.

Opening ``/invite/<username>/`` while signed out keeps the inviter in the session; an account
created in that session afterwards (signing in to an older account does not count) becomes
their referral. Inviting yourself pays nothing: not from your own account, and not from a
browser where the inviter has been signed in (a signed cookie lists the accounts signed in on
this browser, kept across sign-outs, used for nothing else).

When the new player has finished ``rules.REFERRAL_GAMES`` games on at least
``rules.REFERRAL_DAYS`` different days of the site's calendar (UTC; checked by the end-of-game
hook's "referrals" receiver), both are paid, once: the new player ``rules.REFERRAL_INVITEE`` and
the inviter ``rules.REFERRAL_INVITER``, the inviter at most ``rules.REFERRAL_MONTHLY_CAP`` times a
calendar month (UTC; counted while holding the inviter's Account lock, so parallel
qualifications can't pass the cap).

Unless the new player signed up, signed in or sat down at a table from an address or a browser
(``accounts.sightings``) the inviter used within 30 days of it: then the referral is held for
review instead, unpaid, with the evidence (which address or device hash, and when each was
there). Staff release it (paid, once, as above) or decline it (never paid) in the admin. What
matched at sign-up is noted then, since sightings are kept only 30 days.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts import sightings
from accounts.models import GameRecord
from gameplay.models import Game

from . import clock, keys, rules, services
from .models import Entry, Referral

INVITE = "kudos_invite"  # session: {"by": inviter id, "at": when the link was opened}
SEEN_COOKIE = "cc_accounts"  # signed: ids of the accounts signed in on this browser
SEEN_SALT = "kudos.accounts"
SEEN_KEEP = 10
SEEN_AGE = 60 * 60 * 24 * 365
# The memos name nobody: a ledger entry can't be rewritten, and an erased person's name must
# not stay in another player's history (accounts/privacy.py).
WELCOME_MEMO = "Welcome: you joined through a friend's invite"
INVITED_MEMO = "Referral: a friend you invited played three days"


def open_invite(request, inviter) -> str | None:
    """A visitor opened ``inviter``'s link. Returns why it doesn't count (a sentence), or None
    when a sign-up from this session will count as their referral."""
    if request.user.is_authenticated:
        if request.user.pk == inviter.pk:
            return gettext(
                "This is your own invite link: send it to a friend who hasn't joined yet."
            )
        return gettext("You have an account already: invite links are for new players.")
    # The account's own clock (date_joined), not Kudos' clock: sign-ups are compared with it.
    request.session[INVITE] = {"by": inviter.pk, "at": timezone.now().isoformat()}
    return None


def seen_accounts(request) -> list[int]:
    try:
        raw = request.get_signed_cookie(SEEN_COOKIE, salt=SEEN_SALT, default="")
    except signing.BadSignature:
        return []
    return [int(part) for part in raw.split(",") if part.isdigit()]


def remember_account(request, response) -> None:
    """Note on this browser that the signed-in player uses it (the self-invite check)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return
    seen = seen_accounts(request)
    if user.pk in seen:
        return
    seen = (seen + [user.pk])[-SEEN_KEEP:]
    response.set_signed_cookie(
        SEEN_COOKIE,
        ",".join(map(str, seen)),
        salt=SEEN_SALT,
        max_age=SEEN_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


def signed_in(request, user) -> Referral | None:
    """Someone signed in: if they just created their account in a session that opened an
    invite link, they are that inviter's referral (unless it is the inviter's own browser)."""
    invite = request.session.pop(INVITE, None)
    if not isinstance(invite, dict):
        return None
    try:
        inviter_id, opened = int(invite["by"]), datetime.fromisoformat(invite["at"])
    except (KeyError, TypeError, ValueError):
        return None
    if user.date_joined < opened or inviter_id == user.pk:
        return None  # an older account signing in, or the inviter themselves
    if inviter_id in seen_accounts(request):
        return None  # signed up from a browser the inviter uses
    if not get_user_model().objects.filter(pk=inviter_id).exists():
        return None
    # Kept now: the inviter's sighting here may be pruned before the invitee qualifies.
    evidence = "\n".join(
        _seen_line(m, "Signed up") for m in sightings.matching_request(request, inviter_id)
    )
    referral, _ = Referral.objects.get_or_create(
        invitee=user,
        defaults={"inviter_id": inviter_id, "joined": clock.now(), "evidence": evidence},
    )
    return referral


# ---- qualifying (the end-of-game hook) ----------------------------------------------------------


def qualify_players(game: Game) -> list[Referral]:
    """Check the game's signed-in players that are someone's unqualified referral."""
    if game.status != Game.Status.OVER:
        return []
    people = {s.get("user_id") for s in game.seats if s.get("user_id")}
    with transaction.atomic(savepoint=False):  # all or nothing with its caller's, if any
        # Locks in the global order (referral rows, then accounts, each by key) before any
        # payment: hooks of games sharing players run at once.
        waiting = list(
            Referral.objects.select_for_update()
            .filter(undecided(), invitee_id__in=people)
            .order_by("pk")
            .values_list("invitee_id", "inviter_id")
        )
        services.hold_all({u for pair in waiting for u in pair})
        return [r for r in (qualify(invitee) for invitee, _ in waiting) if r]


def progress(user) -> dict:
    """How far a new player is: finished games and the different UTC days they fell on (the
    site's days, not the player's: a zone of their choosing can't make minutes into days)."""
    ended = GameRecord.objects.filter(user=user).values_list("ended", flat=True)
    return {
        "games": len(ended),
        "days": len({moment.astimezone(UTC).date() for moment in ended}),
    }


def qualify(invitee_id: int) -> Referral | None:
    """Pay both players if the referral's condition is met now, unless the invitee was seen
    where the inviter was (then it is held for review, unpaid). Once: the referral row is
    locked and marked qualified (or held) in the transaction that pays (keys
    ``referral:<invitee>:...``). Returns the referral if this call qualified it."""
    with transaction.atomic():
        referral = (
            Referral.objects.select_for_update()
            .select_related("invitee")
            .filter(undecided(), invitee_id=invitee_id)
            .first()
        )
        if referral is None:
            return None
        done = progress(referral.invitee)
        if done["games"] < rules.REFERRAL_GAMES or done["days"] < rules.REFERRAL_DAYS:
            return None
        seen = "\n".join(
            line for line in [referral.evidence, *map(_seen_line, shared_places(referral))] if line
        )
        if seen:
            referral.held, referral.evidence = True, seen
            referral.save(update_fields=["held", "evidence"])
            return None
        _pay(referral)
    return referral


def undecided() -> Q:
    """Referrals not yet decided: not qualified, held or declined."""
    return Q(qualified__isnull=True, held=False, declined__isnull=True)


def _pay(referral: Referral) -> None:
    """Qualify a locked referral and pay both (the inviter within the month's cap)."""
    now = clock.now()
    # Count the month's paid referrals under the inviter's lock; both accounts in key order.
    services.hold_all({referral.inviter_id, referral.invitee_id})
    month = datetime(now.year, now.month, 1, tzinfo=UTC)
    paid = Referral.objects.filter(
        inviter_id=referral.inviter_id, inviter_paid=True, qualified__gte=month
    ).count()
    referral.qualified = now
    referral.held = False
    referral.inviter_paid = paid < rules.REFERRAL_MONTHLY_CAP
    referral.save(update_fields=["qualified", "held", "inviter_paid"])
    services.credit(
        user_id=referral.invitee_id,
        amount=rules.REFERRAL_INVITEE,
        kind=Entry.Kind.REFERRAL,
        key=keys.referral(referral.invitee_id, "joined"),
        memo=WELCOME_MEMO,
    )
    if referral.inviter_paid:
        services.credit(
            user_id=referral.inviter_id,
            amount=rules.REFERRAL_INVITER,
            kind=Entry.Kind.REFERRAL,
            key=keys.referral(referral.invitee_id, "invited"),
            memo=INVITED_MEMO,
        )


# ---- held for review (the admin) -----------------------------------------------------------------


def shared_places(referral: Referral) -> list[sightings.Match]:
    """Addresses and devices both the invitee and the inviter were seen from, within 30 days
    of each other."""
    return sightings.shared(referral.invitee_id, referral.inviter_id)


def _seen_line(match: sightings.Match, how: str = "Seen") -> str:
    """One line of evidence: which address or device (its hash: the site keeps no address),
    and when each of them was there."""
    return (
        f"{how} from the inviter's {match.what} ({match.what} hash {match.value[:12]}): "
        f"the invitee {match.one.astimezone(UTC):%Y-%m-%d %H:%M} UTC, "
        f"the inviter {match.other.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    )


def release(referral_id: int) -> Referral | None:
    """Staff looked and found it fair: qualify and pay a held referral, once. Returns it, or
    None if it wasn't held (already released or declined)."""
    with transaction.atomic():
        referral = Referral.objects.select_for_update().filter(pk=referral_id, held=True).first()
        if referral is None:
            return None
        _pay(referral)
    return referral


def decline(referral_id: int) -> Referral | None:
    """Staff found it to be one person, or a ring: a held referral is never paid. Returns it,
    or None if it wasn't held."""
    with transaction.atomic():
        referral = Referral.objects.select_for_update().filter(pk=referral_id, held=True).first()
        if referral is None:
            return None
        referral.held, referral.declined = False, clock.now()
        referral.save(update_fields=["held", "declined"])
    return referral


def invited(inviter) -> list[dict]:
    """Who joined through the player's link, and who qualified (for the Kudos page)."""
    rows = []
    for referral in Referral.objects.filter(inviter=inviter).select_related("invitee"):
        row = {"referral": referral, "name": referral.invitee.username}
        if referral.qualified is None and not referral.held and referral.declined is None:
            row.update(progress(referral.invitee))
        rows.append(row)
    return rows
