"""``{% load arenas %}``: an arena's name as the reader reads it."""

from django import template

from ..models import shown_name

register = template.Library()


@register.filter
def arena_name(name: str) -> str:
    return shown_name(name)
