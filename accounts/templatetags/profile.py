"""``{% load profile %}``: how a profile writes times."""

from django import template

register = template.Library()


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
