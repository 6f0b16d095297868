import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

TIME_ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})


class User(AbstractUser):
    """A player with an account. Guests play with a name kept in their session instead."""

    # Who plays from this account: a person, one of the site's computer players (one account
    # per strength), or a program its owner plays through the published protocol. Only people
    # earn Kudos or appear on the people's leaderboards.
    PERSON, COMPUTER, BOT = "person", "computer", "bot"
    ROLES = [(PERSON, _("Person")), (COMPUTER, _("Computer player")), (BOT, _("Bot"))]

    username = models.CharField(
        _("username"),
        max_length=30,
        unique=True,
        help_text=_("Up to 30 characters: letters, digits and @/./+/-/_ only."),
        validators=[AbstractUser.username_validator],
        error_messages={"unique": _("That username is taken. Try another one.")},
    )
    email = models.EmailField(_("email address"), blank=True)
    # Checked against zoneinfo by the forms (no choices here: they would change with tzdata).
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text=_("Times on the site are shown in this zone."),
    )
    # The language the site speaks to this person ("" = the browser's): settings.LANGUAGES.
    language = models.CharField(max_length=10, blank=True, default="")
    # The computer players' pace this person chose last (gameplay.models.SpeedPlay); their
    # next table starts with it.
    speed_play = models.CharField(max_length=10, default="normal")
    # The username's skeleton (accounts.names): a new name may not share an existing one's.
    name_key = models.CharField(max_length=150, db_index=True, editable=False, default="")
    role = models.CharField(max_length=10, choices=ROLES, default=PERSON, db_index=True)
    # Whether bot accounts may challenge this person to a game (api.challenges); people
    # always may challenge a bot.
    bots_may_challenge = models.BooleanField(
        _("Bots may challenge me"),
        default=False,
        help_text=_("Bot accounts may then challenge you to a game; you accept or decline."),
    )

    @property
    def is_person(self) -> bool:
        return self.role == self.PERSON

    def __str__(self) -> str:
        return self.username

    def get_session_auth_hash(self) -> str:
        # A row read from the cache (accounts.backends) carries the session's proof of the
        # password in place of the password hash, which the cache never holds.
        if "password" not in self.__dict__ and "session_auth_hash" in self.__dict__:
            return self.session_auth_hash
        return super().get_session_auth_hash()

    def save(self, *args, **kwargs):
        from .names import skeleton

        self.name_key = skeleton(self.username)
        fields = kwargs.get("update_fields")
        if fields is not None and "username" in fields:
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)


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
    """A counted game (gameplay.play) in a player's history, once per (game, user): replays
    never count twice. Games that didn't count as play (a resign at once) have none."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="history")
    game = models.ForeignKey("gameplay.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    score = models.IntegerField(null=True)
    moves = models.PositiveIntegerField()
    seconds = models.PositiveIntegerField()
    ended = models.DateTimeField()
    # This seat's facts from the finished game (Game.facts): the profile's records.
    facts = models.JSONField(default=dict)
    # What made it count as play (gameplay.play): the player's own decisions, and the seconds
    # of play they were credited.
    decisions = models.PositiveIntegerField(default=0)
    play_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-ended"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_record_per_game")]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}"


class Rating(models.Model):
    """One player's skill at one rated game (openskill's Plackett-Luce: mu and sigma).

    ``ordinal`` (mu - 3 sigma, a conservative estimate) is kept beside them so leaderboards
    can sort on an index; accounts.ratings says how it is shown."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)  # rated games played
    updated = models.DateTimeField()  # when the last rated game ended

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["kind", "-ordinal"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user} at {self.kind}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the history a profile charts, and
    what lets the ratings be recomputed in the order the games ended."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("gameplay.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    ended = models.DateTimeField()  # the game's end: rated games are applied in this order
    place = models.PositiveSmallIntegerField()  # 1 = first; tied seats share a place
    left = models.BooleanField(default=False)  # left the table before the end
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["ended", "game_id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_change_per_game")]
        indexes = [
            models.Index(fields=["kind", "ended", "game"], name="rating_change_order"),
            models.Index(fields=["user", "kind", "ended"], name="rating_change_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}"


class Sighting(models.Model):
    """Where an account signed up, signed in or sat down at a table from: a keyed hash of the
    address and of the browser's device cookie, never either itself (accounts/sightings.py).
    Referrals compare an invitee's with the inviter's; kept 30 days after the last use."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="sightings")
    address = models.CharField(max_length=64)
    device = models.CharField(max_length=64)
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        ordering = ["first_seen", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "address", "device"], name="one_sighting")
        ]
        indexes = [
            models.Index(fields=["address"], name="sighting_address"),
            models.Index(fields=["device"], name="sighting_device"),
            models.Index(fields=["last_seen"], name="sighting_last_seen"),
        ]

    def __str__(self) -> str:
        return f"{self.user} from {self.address[:8]}/{self.device[:8]}"
