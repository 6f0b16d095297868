"""The Daily Challenge: each UTC day, the same deal of each game below for everyone.

Beat chooses the deals ahead of time (today's and tomorrow's, ``choose``); Klondike's is one
the solver proves winnable. A signed-in player gets one attempt at each: ``begin`` records it
before the game exists (unique per player and challenge, so a second start, in parallel or
later, is refused), the lobby starts the game with the day's seed in the same transaction, and
``attach`` ties the two and seals the game's seed, log and replay until the day is over, when
the seed is published for all. The game plays like any other solo game; starting another game
deals a fresh random deal, never the challenge's.

When the attempt's game ends (the end-of-game hook's "challenge" receiver) its time (start to
end), moves and result are recorded if it ended within the day, and it pays
``rules.CHALLENGE_FINISHED`` or ``rules.CHALLENGE_WON``. A few minutes after the day ends,
beat closes it (``close_days``): the ``rules.CHALLENGE_TOP`` fastest wins (then fewest moves)
each get ``rules.CHALLENGE_TOP_BONUS``. The board is live through the day and stays visible
after it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from gameplay import play, store
from gameplay import services as gameplay
from gameplay.engine import registry
from gameplay.models import Game

from . import awards, badges, clock, keys, rules, services
from .models import Attempt, Challenge, Entry

log = logging.getLogger(__name__)

ONE_DAY = timedelta(days=1)


@dataclass(frozen=True)
class Daily:
    kind: str
    rules: dict  # what the game is played with
    deal: Callable[[str], str | None]  # a random base seed -> the day's seed (None: try again)
    note: str = ""  # what the page says about the deal


# The games with a Daily Challenge, as each declares it (Engine.daily).
DAILY = tuple(
    Daily(kind, engine.daily.rules, engine.daily_seed, engine.daily.note)
    for kind in registry.kinds()
    if (engine := registry.get(kind)).daily is not None
)
KINDS = tuple(d.kind for d in DAILY)


def today() -> date:
    return clock.now().astimezone(UTC).date()


def day_end(day: date) -> datetime:
    return datetime.combine(day + ONE_DAY, time(), UTC)


# ---- choosing the deals (beat) ----------------------------------------------------------------


def choose(days: int = rules.CHALLENGE_AHEAD) -> list[Challenge]:
    """Make sure today's and the next days' deals are chosen. Idempotent: a day chosen
    (by another worker too) stays as it is. Returns the challenges it chose."""
    chosen = []
    first = today()
    for offset in range(days):
        day = first + timedelta(days=offset)
        for daily in DAILY:
            if Challenge.objects.filter(day=day, kind=daily.kind).exists():
                continue
            made = _choose(day, daily)
            if made is not None:
                chosen.append(made)
    return chosen


def _choose(day: date, daily: Daily) -> Challenge | None:
    engine = registry.get(daily.kind)
    game_rules = engine.check_rules(daily.rules)
    seed = None
    for _ in range(5):
        seed = daily.deal(secrets.token_hex(16))
        if seed is not None:
            break
    else:
        log.warning("No %s deal found for %s: beat tries again", daily.kind, day)
        return None
    try:
        with transaction.atomic():
            return Challenge.objects.create(
                day=day,
                kind=daily.kind,
                rules=game_rules,
                seed=seed,
                seed_hash=store.seed_hash(seed),
                chosen=clock.now(),
            )
    except IntegrityError:  # another worker chose it first
        return None


def of_day(day: date) -> list[Challenge]:
    """The day's challenges in the order of ``DAILY``."""
    found = {c.kind: c for c in Challenge.objects.filter(day=day)}
    return [found[k] for k in KINDS if k in found]


def todays() -> list[Challenge]:
    """Today's challenges; chosen now if beat has not (an embedded run has no beat)."""
    found = of_day(today())
    if len(found) < len(DAILY):
        choose(days=1)
        found = of_day(today())
    return found


# ---- playing ------------------------------------------------------------------------------------


def begin(*, user, kind: str) -> Attempt:
    """Record a signed-in player's one attempt at today's challenge of ``kind`` (call it in
    the transaction that starts the game). Raises ``services.Refused`` with a sentence."""
    if user is None or not user.is_authenticated:
        raise services.Refused(gettext("Sign in to play the Daily Challenge: it keeps your time."))
    daily = next((c for c in todays() if c.kind == kind), None)
    if daily is None:
        raise services.Refused(gettext("There is no Daily Challenge for that game."))
    title = registry.get(kind).title
    try:
        with transaction.atomic():
            return Attempt.objects.create(challenge=daily, user=user, started=clock.now())
    except IntegrityError as exc:
        raise services.Refused(
            gettext(
                "You have played today's %(game)s challenge: one attempt each. A new deal "
                "comes at midnight UTC."
            )
            % {"game": title}
        ) from exc


def attach(attempt: Attempt, game: Game) -> None:
    """The attempt's game: sealed until the day is over."""
    attempt.game = game
    attempt.save(update_fields=["game"])
    gameplay.seal(game_id=game.pk, until=day_end(attempt.challenge.day))


def record(game: Game) -> Attempt | None:
    """A challenge game ended (the "challenge" receiver): keep its time and pay, if it was
    finished within its day. An abandoned game keeps the attempt, unfinished."""
    if game.sealed_until is None:
        return None  # not a challenge game (every attempt's game is sealed): nothing to read
    attempt = (
        Attempt.objects.select_for_update()
        .select_related("challenge")
        .filter(game=game, finished__isnull=True)
        .first()
    )
    if attempt is None or game.status != Game.Status.OVER or not game.result:
        return None
    if not play.of_game(game)[0].counted:
        return None  # resigned at once, or played faster than anyone plays: no finish
    challenge = attempt.challenge
    if game.ended >= day_end(challenge.day):
        return None  # too late: the day's board is closed
    attempt.finished = game.ended
    attempt.won = 0 in (game.result.get("winners") or [])
    attempt.seconds = max(int((game.ended - game.created).total_seconds()), 0)
    attempt.moves = game.seq
    scores = game.result.get("scores") or []
    attempt.score = scores[0] if scores and isinstance(scores[0], int) else None
    attempt.save()
    title = registry.get(challenge.kind).title
    amount = rules.CHALLENGE_WON if attempt.won else rules.CHALLENGE_FINISHED
    what = "Won" if attempt.won else "Finished"
    services.credit(
        user_id=attempt.user_id,
        amount=amount,
        kind=Entry.Kind.CHALLENGE,
        key=keys.challenge(challenge.pk, attempt.user_id),
        memo=f"{what} the {title} Daily Challenge of {challenge.day:%-d %B} "
        f"in {clock_time(attempt.seconds)}",
        reference=f"game:{game.pk}",
    )
    awards.award_due(attempt.user_id, {badges.CHALLENGE})
    return attempt


# ---- closing a day (beat) ---------------------------------------------------------------------


def close_days() -> list[Challenge]:
    """Close every challenge whose day ended (``rules.CHALLENGE_CLOSES_AFTER`` ago): pay the
    top times' bonus. Run twice, or by two workers, it pays once."""
    now = clock.now()
    closed = []
    due = Challenge.objects.filter(
        closed__isnull=True, day__lt=(now - rules.CHALLENGE_CLOSES_AFTER).astimezone(UTC).date()
    )
    for challenge in due:
        with transaction.atomic():
            if not Challenge.objects.filter(pk=challenge.pk, closed__isnull=True).update(
                closed=now
            ):
                continue  # another worker closed it
            title = registry.get(challenge.kind).title
            for place, attempt in enumerate(standings(challenge)[: rules.CHALLENGE_TOP], 1):
                if not attempt.won:
                    break
                services.credit(
                    user_id=attempt.user_id,
                    amount=rules.CHALLENGE_TOP_BONUS,
                    kind=Entry.Kind.CHALLENGE,
                    key=keys.challenge_top(challenge.pk, attempt.user_id),
                    memo=f"{services.ordinal(place)} fastest in the {title} Daily Challenge "
                    f"of {challenge.day:%-d %B}",
                )
            closed.append(challenge)
    return closed


# ---- reading ------------------------------------------------------------------------------------


def standings(challenge: Challenge) -> list[Attempt]:
    """The day's board: wins by time, then moves, then who finished first; then the games
    finished without a win, best score first."""
    finished = challenge.attempts.filter(finished__isnull=False).select_related("user")
    return list(finished.filter(won=True).order_by("seconds", "moves", "finished", "pk")) + list(
        finished.filter(won=False).order_by("-score", "seconds", "finished", "pk")
    )


def board(challenge: Challenge, user=None, now: datetime | None = None) -> dict:
    """A challenge for the page: its board, the viewer's attempt, and the seed once the day
    is over."""
    now = now or clock.now()
    over = now >= day_end(challenge.day)
    mine = None
    if user is not None and user.is_authenticated:
        mine = challenge.attempts.filter(user=user).first()
    rows = standings(challenge)
    return {
        "challenge": challenge,
        "engine": registry.get(challenge.kind),
        "note": next((d.note for d in DAILY if d.kind == challenge.kind), ""),
        "rows": rows,
        "mine": mine,
        "place": next((i for i, a in enumerate(rows, 1) if mine and a.pk == mine.pk), None),
        "over": over,
        "seed": challenge.seed if over else None,
        "ends": day_end(challenge.day),
    }


def clock_time(seconds: int | None) -> str:
    """ "2:31", "1:02:03"."""
    if seconds is None:
        return "–"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
