"""{{ value|said }}: a game's own sentence in the language the page is rendered in. The one
filter for it, on every page that shows one (tables, tiles, profiles, badges, arenas)."""

from django import template
from django.utils import translation

from gameplay.text import all_in_language, in_language

register = template.Library()


@register.filter
def said(value):
    """An engine's sentence (a Said, or plain English such as a title or a badge's name read
    back from the database), or a part of a view that holds some."""
    language = translation.get_language() or "en"
    if isinstance(value, str):
        return in_language(value, language)
    return all_in_language(value, language)
