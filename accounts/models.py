import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.db import models

TIME_ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})


class User(AbstractUser):
    """A player with an account. Guests play with a name kept in their session instead."""

    username = models.CharField(
        "username",
        max_length=30,
        unique=True,
        help_text="Up to 30 characters: letters, digits and @/./+/-/_ only.",
        validators=[AbstractUser.username_validator],
        error_messages={"unique": "That username is taken. Try another one."},
    )
    email = models.EmailField("email address", blank=True)
    # Checked against zoneinfo by the forms (no choices here: they would change with tzdata).
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text="Your day (for daily streaks) starts at midnight here.",
    )
    # The computer players' pace this person chose last (gameplay.models.SpeedPlay); their
    # next table starts with it.
    speed_play = models.CharField(max_length=10, default="normal")

    def __str__(self) -> str:
        return self.username


class GameStat(models.Model):
    """One player's record at one game: kept up to date as games end."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="stats")
    kind = models.CharField(max_length=20)
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    best_seconds = models.PositiveIntegerField(null=True, blank=True)  # fastest win
    fewest_moves = models.PositiveIntegerField(null=True, blank=True)  # win in fewest actions

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_stat_per_game")]

    def __str__(self) -> str:
        return f"{self.user} at {self.kind}"


class GameRecord(models.Model):
    """A finished game in a player's history, once per (game, user): replays never count twice."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="history")
    game = models.ForeignKey("gameplay.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    score = models.IntegerField(null=True)
    moves = models.PositiveIntegerField()
    seconds = models.PositiveIntegerField()
    ended = models.DateTimeField()

    class Meta:
        ordering = ["-ended"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_record_per_game")]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}"
