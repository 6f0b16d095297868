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
