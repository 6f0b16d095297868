"""``{% load profile %}``: how a profile writes times and names a computer's strength."""

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()
STRENGTH_NAMES = {
    "easy": _("Easy"),
    "medium": _("Medium"),
    "hard": _("Hard"),
    "expert": _("Expert"),
}


@register.filter
def strength_name(strength: str) -> str:
    """ "hard" -> "Hard" (in French "Difficile")."""
    return STRENGTH_NAMES.get(strength) or str(strength).title()


@register.filter
def duration(seconds):
    """125 -> "2:05"; 3725 -> "1:02:05"."""
    try:
        seconds = int(seconds)
    except (TypeError, ValueError):
        return ""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
