from django.db import models
from django.utils.translation import gettext_lazy as _

from .engine import MEDIUM


def seat_strength(seat: dict) -> str:
    """The strength a seat's computer plays at: a computer player's own seat records it; a
    person's seat the computer holds for them, and games from before strengths, play Medium."""
    return seat.get("strength") or MEDIUM


def is_computer_seat(seat: dict) -> bool:
    """A computer player's own seat (not a person's seat the computer holds for them)."""
    return bool(seat.get("bot")) and not seat.get("user_id")


class SpeedPlay(models.TextChoices):
    """How fast the computer players at a table move (BOT_DELAY is Normal's pause)."""

    NORMAL = "normal", _("Normal")
    FAST = "fast", _("Fast")
    INSTANT = "instant", _("Instant")


class Game(models.Model):
    """One game: its seed, rules and seats. Its actions are the GameEvent log."""

    class Status(models.TextChoices):
        ACTIVE = "active", "in play"
        OVER = "over", "over"
        ABANDONED = "abandoned", "abandoned"

    kind = models.CharField(max_length=20)
    rules = models.JSONField(default=dict)
    # Per seat: {"name": str, "user_id": int | None, "bot": bool}, and a computer player's own
    # seat its "strength" (seat_strength). "bot" is who plays the seat now: a computer player
    # takes a seat whose person left, and gives it back.
    seats = models.JSONField(default=list)
    seed = models.CharField(max_length=64)  # secret until the game is over
    seed_hash = models.CharField(max_length=64)  # SHA-256 of the seed, public from the start
    engine_version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    seq = models.PositiveIntegerField(default=0)  # actions applied so far (the last event's seq)
    to_act = models.JSONField(default=list)  # seats awaited now (kept for the stall sweep)
    # Each seat's last action type, {"0": "flip", ...}: the table's seat labels, kept with
    # the row every action writes anyway, so a view needs no trip through the log.
    last_actions = models.JSONField(default=dict)
    turn_timer = models.PositiveIntegerField(default=0)  # seconds a person has to act; 0 = off
    # A ranked table's game: rated when it ends. A ranked seat whose person left for good has
    # "left": true in its seat (ranked last; the computer finishes the game for them).
    ranked = models.BooleanField(default=False)
    speed_play = models.CharField(
        max_length=10, choices=SpeedPlay.choices, default=SpeedPlay.NORMAL
    )
    result = models.JSONField(null=True, blank=True)
    # Per seat, what the finished game says about it (the engine's facts): records, badges.
    facts = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    ended = models.DateTimeField(null=True, blank=True)
    # The seed, the log and the replay stay secret until then, even after the game ends: a deal
    # dealt to many players (a Daily Challenge) is published when they have all played it.
    sealed_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "updated"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.ACTIVE

    def sealed(self, now) -> bool:
        return self.sealed_until is not None and now < self.sealed_until

    @property
    def unattended(self) -> bool:
        """Every person left for good (a ranked game, see ``ranked``): the computer plays
        every seat, and nobody is watching it think."""
        return any(s.get("left") for s in self.seats) and all(
            s.get("left") or not s.get("user_id") for s in self.seats
        )

    def bot_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.get("bot")]

    def strength(self, seat: int) -> str:
        return seat_strength(self.seats[seat])


class GameEvent(models.Model):
    """One applied action and the events it caused. Written only by gameplay.store's statements (and a play-out, gameplay.services)."""

    # No index of its own: unique_game_seq (game, seq) serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list)
    by_bot = models.BooleanField(default=False)
    # The id the client gave this action ("" if none): a retry with the same id is answered
    # from here and never applied twice.
    action_id = models.CharField(max_length=64, blank=True, default="")
    # When the seat was asked for this action (the row's last write before it): what a
    # decision's thinking time is measured from (gameplay.play). None in logs from before.
    to_act = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_game_seq"),
            models.UniqueConstraint(
                fields=["game", "seat", "action_id"],
                condition=~models.Q(action_id=""),
                name="one_action_per_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}"


class GameEndReceipt(models.Model):
    """One end-of-game receiver ran for one game (gameplay.hooks): never twice."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="receipts")
    receiver = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "receiver"], name="one_receipt_per_receiver")
        ]

    def __str__(self) -> str:
        return f"{self.receiver} for game {self.game_id}"


class ArchivedLog(models.Model):
    """A finished game's whole log, moved out of GameEvent into one compressed row
    (gameplay.archive): the replay, log.json and verify_game read it as they read the log."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True)
    # zlib-compressed JSON: [[seq, seat, action, events, by_bot, action_id, created], ...]
    data = models.BinaryField()
    actions = models.PositiveIntegerField()
    archived = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"archived log of game {self.game_id}"
