"""``{% load kudos %}``: what profiles show of a player's Kudos side, and small formats."""

from django import template
from django.utils.safestring import mark_safe

from .. import badges, challenges, selectors, slot, words

register = template.Library()


@register.simple_tag(takes_context=True)
def kudos_slot(context) -> str:
    """The header's Kudos slot for the page's reader (``kudos`` in the context)."""
    return mark_safe(slot.drawn(context["kudos"], bool(context.get("live"))))


@register.simple_tag
def kudos_profile(person) -> dict:
    """A profile's level, name colour and badges (every badge: earned or not, with progress)."""
    shown = badges.progress(person.pk)
    return {
        "level": selectors.level(person.pk),
        "colour": selectors.name_colour(person.pk),
        "badges": shown,
        "earned": sum(1 for row in shown if row["earned"]),
    }


@register.filter
def clock_time(seconds) -> str:
    """Seconds as a clock reads: "2:31", "1:02:03"."""
    return challenges.clock_time(seconds)


@register.filter
def memo(text: str) -> str:
    """A ledger memo (kept in English) in the reader's language."""
    return words.memo(text)
