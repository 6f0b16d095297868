from django.conf import settings
from django.db import models


class AccessToken(models.Model):
    """A personal access token: how a program (a bot, a script) acts for its account.

    Only the SHA-256 of the secret is kept: the secret is shown once, when it is made, and a
    leaked table of digests opens nothing. ``prefix`` (the secret's first characters) lets
    its owner tell their tokens apart in the list."""

    PLAY, READ = "play", "read"
    SCOPES = [(PLAY, "Play: join tables, act, challenge"), (READ, "Read: watch and read")]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=60)
    scopes = models.JSONField(default=list)  # a subset of PLAY, READ
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user}'s token {self.name!r} ({self.prefix}…)"

    @property
    def may_play(self) -> bool:
        return self.PLAY in self.scopes


class Challenge(models.Model):
    """One account asks another to a game: a person a bot, or a bot a bot (or a person who
    lets bots challenge them). Accepting seats both at a new table and starts the game."""

    class Status(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"
        EXPIRED = "expired"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    kind = models.CharField(max_length=20)
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    room = models.ForeignKey("lobby.Room", null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField()
    expires = models.DateTimeField()
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["challenged", "status"], name="challenges_to_answer")]

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.challenged} to {self.kind}"
