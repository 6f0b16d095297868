"""Kudos: an append-only ledger of entries and one balance row per player.

Only ``kudos.services`` writes these tables. Every entry carries a unique idempotency key
derived from what it pays for; the balance row is updated under a row lock in the same
transaction as the entry it reflects, and the database refuses a negative balance and any
change to an entry (a correction is a new entry).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gameplay.engine import registry

from . import rules


class Account(models.Model):
    """A player's Kudos: the balance, and the row every write for that player locks first."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="kudos_account",
    )
    balance = models.BigIntegerField(default=0)
    # On play_day (a UTC date; never goes back): Kudos from play and experience so far, for
    # the daily caps, and seconds of credited play, for the streak day.
    play_day = models.DateField(null=True, blank=True)
    play_today = models.PositiveIntegerField(default=0)
    xp_today = models.PositiveIntegerField(default=0)
    seconds_today = models.PositiveIntegerField(default=0)
    # Experience, from counted play only (kudos.services.pay_for_game).
    xp = models.PositiveIntegerField(default=0)
    # Hundredths of a Kudos and of experience earned but not yet whole: the next game adds on.
    play_owed = models.PositiveIntegerField(default=0)
    xp_owed = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(balance__gte=0), name="kudos_balance_not_negative")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.balance} Kudos"


class PlayCredit(models.Model):
    """What one counted game paid one person (kudos.services.pay_for_game), once: the seconds
    of play credited and the spans of time they cover, so time played at several tables at
    once is credited once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("gameplay.Game", on_delete=models.CASCADE, related_name="+")
    began = models.DateTimeField()  # the first credited span's start
    ended = models.DateTimeField()  # the last one's end
    spans = models.JSONField(default=list)  # [[start, end], ...] in ISO format
    seconds = models.PositiveIntegerField()
    kudos = models.PositiveIntegerField()  # whole Kudos paid for it, bonuses included
    xp = models.PositiveIntegerField()
    created = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_credit_per_game")]
        indexes = [models.Index(fields=["user", "ended"], name="credit_by_time")]

    def __str__(self) -> str:
        return f"{self.seconds} s of play for {self.user_id} in game {self.game_id}"


class Entry(models.Model):
    """One credit (amount > 0) or debit (amount < 0). Never changed, never deleted except
    with its player."""

    class Kind(models.TextChoices):
        STREAK = "streak", _("Daily streak")
        PLAY = "play", _("Play")
        BONUS = "bonus", _("Bonus Kudos")
        WEEKLY = "weekly", _("Weekly leaderboard")
        BADGE = "badge", _("Badge")
        CHALLENGE = "challenge", _("Daily Challenge")
        SPOT = "spot", _("Sponsor spot")
        REFERRAL = "referral", _("Referral")
        SHOP = "shop", _("Spent")
        CORRECTION = "correction", _("Correction")

    # Indexed by kudos_entry_history, which starts with the user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="kudos_entries",
        db_index=False,
    )
    amount = models.IntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=120)  # idempotency: what is paid for (unique)
    memo = models.CharField(max_length=200)  # what the player reads in the history
    reference = models.CharField(max_length=60, blank=True)  # "game:42", "week:2025-W03"
    balance_after = models.BigIntegerField()
    created = models.DateTimeField()

    # Kudos from play, for the weekly leaderboard.
    PLAY_KINDS = (Kind.PLAY, Kind.BONUS)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "entries"
        indexes = [
            models.Index(fields=["user", "-id"], name="kudos_entry_history"),
            models.Index(
                fields=["created", "user", "amount"],
                condition=Q(kind__in=["play", "bonus"]),
                name="kudos_entry_play_by_time",
            ),
        ]
        constraints = [
            # A constraint rather than unique=True: no second, pattern-matching index to write.
            models.UniqueConstraint(fields=["key"], name="kudos_entry_unique_key"),
            models.CheckConstraint(condition=~Q(amount=0), name="kudos_entry_not_zero"),
            models.CheckConstraint(
                condition=Q(balance_after__gte=0), name="kudos_entry_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+} {self.kind} ({self.key})"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("Kudos entries are never changed: post a correction instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Kudos entries are never deleted: post a correction instead.")

    @property
    def game_id(self) -> int | None:
        if self.reference.startswith("game:"):
            return int(self.reference.split(":", 1)[1])
        return None

    @property
    def week(self) -> str | None:
        if self.reference.startswith("week:"):
            return self.reference.split(":", 1)[1]
        return None


class Streak(models.Model):
    """A player's daily streak. Locked after (never before) the player's Account row."""

    account = models.OneToOneField(
        Account, on_delete=models.CASCADE, primary_key=True, related_name="streak"
    )
    current = models.PositiveIntegerField(default=0)  # days in a row; 0: no streak running
    best = models.PositiveIntegerField(default=0)
    # The last UTC date paid or covered (grace, freeze); streak days follow it.
    last_day = models.DateField(null=True, blank=True)
    last_paid = models.DateTimeField(null=True, blank=True)  # when the last day was paid
    freezes = models.PositiveSmallIntegerField(default=0)
    grace_week = models.CharField(max_length=8, blank=True)  # ISO week whose grace day was used

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(freezes__lte=rules.MAX_FREEZES), name="kudos_streak_freezes_max"
            )
        ]

    def __str__(self) -> str:
        return f"{self.account_id}: {self.current} days"


class StreakDay(models.Model):
    """What happened to one local day of a player's streak: paid, covered, or where it ended."""

    class Outcome(models.TextChoices):
        PAID = "paid", _("Paid")
        # A streak day whose Kudos went to another account seen with this one that day.
        SHARED = "shared", _("Paid to an account seen with yours")
        GRACE = "grace", _("Grace day")
        FREEZE = "freeze", _("Streak freeze")
        ENDED = "ended", _("Streak ended")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="streak_days"
    )
    day = models.DateField()
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    streak = models.PositiveIntegerField(default=0)  # the streak's length after this day
    created = models.DateTimeField()

    class Meta:
        ordering = ["-day"]
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="kudos_one_outcome_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.day}: {self.outcome}"


class BonusEvent(models.Model):
    """Staff-scheduled Bonus Kudos: games that end inside the window pay ``multiplier`` times
    their Kudos from play (one game's, or every game's when ``kind`` is blank)."""

    name = models.CharField(
        max_length=60, help_text='Shown to players, e.g. "Double Kudos weekend".'
    )
    multiplier = models.DecimalField(
        max_digits=3, decimal_places=2, help_text="From 1.1 to 5, e.g. 2 for double Kudos."
    )
    kind = models.CharField(
        "game", max_length=20, blank=True, help_text="Leave blank for every game."
    )
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    # 0: not announced yet, 1: its start announced, 2: its end announced (headers refreshed).
    announced = models.PositiveSmallIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-starts"]
        indexes = [models.Index(fields=["ends", "starts"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends__gt=models.F("starts")), name="kudos_event_window"
            ),
            models.CheckConstraint(
                condition=Q(
                    multiplier__gte=rules.BONUS_MULTIPLIER_MIN,
                    multiplier__lte=rules.BONUS_MULTIPLIER_MAX,
                ),
                name="kudos_event_multiplier_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ×{self.multiplier.normalize()}"

    @property
    def game_title(self) -> str:
        """The one game it multiplies, by its title; "" for every game."""
        if not self.kind:
            return ""
        try:
            return registry.get(self.kind).title
        except KeyError:
            return self.kind

    @property
    def times(self) -> str:
        """The multiplier as players read it: "×2", "×1.5"."""
        return f"×{self.multiplier.normalize():f}"


class WeekClose(models.Model):
    """A closed ISO week of the leaderboard: its standings are frozen and its prizes paid."""

    week = models.CharField(max_length=8, unique=True)  # "2025-W03"
    starts = models.DateTimeField(unique=True)  # Monday 00:00 UTC
    closed = models.DateTimeField()
    players = models.PositiveIntegerField(default=0)  # how many earned Kudos from play

    class Meta:
        ordering = ["-starts"]

    def __str__(self) -> str:
        return self.week


class WeekPlace(models.Model):
    """One frozen place of a closed week."""

    close = models.ForeignKey(WeekClose, on_delete=models.CASCADE, related_name="places")
    place = models.PositiveIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    name = models.CharField(max_length=150)  # as it was that week
    earned = models.PositiveIntegerField()
    prize = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["close", "place"]
        constraints = [
            models.UniqueConstraint(fields=["close", "place"], name="kudos_one_player_per_place")
        ]

    def __str__(self) -> str:
        return f"{self.close.week} #{self.place}"


class BadgeEarned(models.Model):
    """A badge of the catalogue (kudos/badges.py) a player has earned: once each."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="badges_earned"
    )
    badge = models.CharField(max_length=40)  # the catalogue's slug
    earned = models.DateTimeField()

    class Meta:
        ordering = ["-earned", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "badge"], name="kudos_badge_once")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.badge}"


class Challenge(models.Model):
    """One UTC day's deal of one game, the same for everyone (kudos/challenges.py). The seed
    is secret until the day is over; its SHA-256 is public from the start."""

    day = models.DateField()
    kind = models.CharField(max_length=20)
    rules = models.JSONField(default=dict)
    seed = models.CharField(max_length=120)
    seed_hash = models.CharField(max_length=64)
    chosen = models.DateTimeField()
    closed = models.DateTimeField(null=True, blank=True)  # results frozen, top times paid

    class Meta:
        ordering = ["-day", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["day", "kind"], name="kudos_one_challenge_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.kind} challenge of {self.day}"


class Attempt(models.Model):
    """A player's one attempt at a challenge, and how it went."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_attempts"
    )
    game = models.OneToOneField(
        "gameplay.Game", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    started = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)  # the game ended within the day
    won = models.BooleanField(default=False)
    seconds = models.PositiveIntegerField(null=True, blank=True)
    moves = models.PositiveIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)  # the game's own score for the seat

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="kudos_one_attempt")
        ]
        indexes = [models.Index(fields=["challenge", "-won", "seconds", "moves"])]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.challenge}"


class Referral(models.Model):
    """A player who signed up through another's invite link. Both are paid once, when the new
    player qualifies, unless it is held for review (kudos/referrals.py)."""

    invitee = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referral"
    )
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referrals"
    )
    joined = models.DateTimeField()
    qualified = models.DateTimeField(null=True, blank=True)
    inviter_paid = models.BooleanField(default=False)  # False past the monthly cap
    # Qualified, but the invitee was seen where the inviter was: unpaid until staff release it
    # (then qualified and paid) or decline it (never paid). Evidence: what matched, and when.
    held = models.BooleanField(default=False)
    evidence = models.TextField(blank=True)
    declined = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-joined"]
        indexes = [models.Index(fields=["inviter", "qualified"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(invitee=models.F("inviter")), name="kudos_no_self_referral"
            )
        ]

    def __str__(self) -> str:
        return f"{self.inviter_id} invited {self.invitee_id}"


class Owned(models.Model):
    """A shop item a player owns (card backs, table felts, name colours; kudos/shop.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="kudos_owned"
    )
    item = models.CharField(max_length=40)
    bought = models.DateTimeField()

    class Meta:
        ordering = ["bought", "id"]
        constraints = [models.UniqueConstraint(fields=["user", "item"], name="kudos_own_once")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.item}"


class Look(models.Model):
    """What a player wears of what they own: a card back and a table felt (their own view of
    every table) and a name colour (everyone sees it). Blank: the free default."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="kudos_look",
    )
    back = models.CharField(max_length=20, blank=True)
    felt = models.CharField(max_length=20, blank=True)
    colour = models.CharField(max_length=20, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.back or '-'} / {self.felt or '-'} / {self.colour or '-'}"
