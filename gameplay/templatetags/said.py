"""{{ value|said }}: an engine sentence (or a view, hint or result holding some) in the
language of the page (the active language)."""

from django import template
from django.utils import translation

from gameplay.text import all_in_language

register = template.Library()


@register.filter
def said(value):
    return all_in_language(value, translation.get_language() or "en")
