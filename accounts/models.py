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

    def __str__(self) -> str:
        return self.username
