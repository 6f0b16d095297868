"""Arenas: tournaments on a clock. A schedule (data, edited in the admin) brings arenas; people
join any time before the end and are paired game after game; each arena game is a ranked
game and scores its players points by finishing place (arenas/points.py)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_noop

from gameplay.engine import IllegalAction, registry

# The names of the schedules the site starts with (migrations/0002_seed_schedules.py), so that
# the catalogues hold them.
SCHEDULE_NAMES = (
    gettext_noop("Hourly Crazy 8"),
    gettext_noop("Daily Gin"),
    gettext_noop("Weekly Cardice"),
)


def shown_name(name: str) -> str:
    """An arena's name in the reader's language: the site's own schedules' names are
    translated (SCHEDULE_NAMES), a name staff typed is shown as typed."""
    return gettext(name) if name in SCHEDULE_NAMES else name


class ArenaSchedule(models.Model):
    """When arenas of one kind happen: hourly at a minute, daily at a time, or weekly on a day
    at a time (UTC). Beat creates each one ahead of its start (arenas.services.advance)."""

    class Every(models.TextChoices):
        HOURLY = "hourly", "hourly"
        DAILY = "daily", "daily"
        WEEKLY = "weekly", "weekly"

    name = models.CharField(max_length=60)  # "Hourly Crazy 8"
    kind = models.CharField(max_length=20, help_text="The game (an engine's kind, rated).")
    rules = models.JSONField(
        default=dict, blank=True, help_text="The game's options; {}: its defaults."
    )
    minutes = models.PositiveIntegerField(help_text="How long each arena lasts.")
    every = models.CharField(max_length=10, choices=Every.choices)
    at = models.TimeField(help_text="UTC. Hourly arenas use only its minute.")
    weekday = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        choices=[(i, d) for i, d in enumerate(("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"))],
        help_text="Weekly arenas only.",
    )  # fmt: skip
    prizes = models.JSONField(default=list, blank=True, help_text="Kudos for 1st, 2nd, 3rd…")
    min_games = models.PositiveSmallIntegerField(
        default=3, help_text="Games a player must finish to take a prize."
    )
    capacity = models.PositiveIntegerField(default=500, help_text="Most players in one arena.")
    active = models.BooleanField(default=True)

    def __str__(self) -> str:
        return self.name

    def clean(self):
        errors = {}
        try:
            engine = registry.get(self.kind)
        except KeyError:
            errors["kind"] = f"There is no game called “{self.kind}”."
        else:
            if not engine.rated or engine.max_players < 2:
                errors["kind"] = f"{engine.title} is not played ranked."
            else:
                try:
                    engine.check_rules(self.rules or None, min(4, engine.max_players))
                except IllegalAction as exc:
                    errors["rules"] = str(exc)
        prizes = self.prizes
        if not isinstance(prizes, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in prizes
        ):
            errors["prizes"] = "Prizes are a list of whole Kudos, e.g. [150, 90, 60]."
        if self.every == self.Every.WEEKLY and self.weekday is None:
            errors["weekday"] = "A weekly arena needs its day."
        if not self.minutes:
            errors["minutes"] = "An arena lasts at least a minute."
        if errors:
            raise ValidationError(errors)


class Arena(models.Model):
    """One arena: upcoming, live (pairing), closing (time is up: the games in play finish and
    count) and finished (the table frozen, prizes paid)."""

    class Status(models.TextChoices):
        UPCOMING = "upcoming", "upcoming"
        LIVE = "live", "live"
        CLOSING = "closing", "finishing its last games"
        FINISHED = "finished", "finished"

    schedule = models.ForeignKey(
        ArenaSchedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="arenas"
    )
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=20)
    rules = models.JSONField(default=dict, blank=True)
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    prizes = models.JSONField(default=list, blank=True)
    min_games = models.PositiveSmallIntegerField(default=3)
    capacity = models.PositiveIntegerField(default=500)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING)
    finished = models.DateTimeField(null=True, blank=True)  # when the prizes were paid

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["schedule", "starts"], name="one_arena_per_start")
        ]
        indexes = [models.Index(fields=["status", "starts"], name="arena_status_starts")]

    def __str__(self) -> str:
        return f"{self.name} at {self.starts:%Y-%m-%d %H:%M}"

    @property
    def title(self) -> str:
        return registry.get(self.kind).title

    @property
    def shown_name(self) -> str:
        return shown_name(self.name)


class Entrant(models.Model):
    """A person in an arena: their points, and whether they are waiting for a table, at one,
    or paused."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    points = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)  # wins in a row now: 2 or more is on fire
    skill = models.IntegerField(default=0)  # rating estimate (shown points), for pairing
    paused = models.BooleanField(default=False)
    # Waiting for a table since (None: at a table, paused, or the arena is over).
    free_since = models.DateTimeField(null=True, blank=True)
    table = models.ForeignKey(
        "ArenaGame", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )  # the arena game in play they sit at
    last_table = models.JSONField(default=list)  # the people of their last game: no rematch
    last_scored = models.DateTimeField(null=True, blank=True)  # breaks ties: reached it first
    place = models.PositiveIntegerField(null=True, blank=True)  # frozen when the arena ends
    prize = models.PositiveIntegerField(default=0)
    joined = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="one_entry_per_arena")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.arena}"

    @property
    def on_fire(self) -> bool:
        from .points import ON_FIRE_AFTER

        return self.streak >= ON_FIRE_AFTER


class ArenaGame(models.Model):
    """A ranked game an arena seated; scored once when it ends."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("gameplay.Game", on_delete=models.CASCADE, related_name="+")
    room = models.ForeignKey("lobby.Room", null=True, blank=True, on_delete=models.SET_NULL)
    people = models.JSONField(default=list)  # user ids at the table
    computers = models.BooleanField(default=False)  # computer players sat at it
    scored = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.arena}: game {self.game_id}"


class Result(models.Model):
    """What one arena game scored one player."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="results")
    arena_game = models.ForeignKey(ArenaGame, on_delete=models.CASCADE, related_name="results")
    place = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    doubled = models.BooleanField(default=False)  # on fire: two wins in a row before it
    abandoned = models.BooleanField(default=False)  # left mid-game: 0, and paused
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entrant", "arena_game"], name="one_result_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.points}"
