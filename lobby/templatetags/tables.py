"""Small helpers for table templates: index a list by seat, and buttons that send actions."""

import json

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def at(container, key):
    """{{ view.pile_counts|at:seat.index }}, {{ seats|at:winner|at:"name" }}"""
    try:
        if isinstance(container, dict):
            return container.get(key, container.get(str(key)))
        return container[int(key)]
    except (IndexError, KeyError, TypeError, ValueError):
        return None


@register.filter
def for_seat(entries, seat):
    """Entries (dicts with a "seat") that belong to one seat."""
    return [e for e in entries or [] if isinstance(e, dict) and e.get("seat") == seat]


@register.simple_tag
def act(action, seq, **fields):
    """Attributes for a button that sends `action` over the table socket (htmx ws-send).
    ``{% act a seq %}`` sends a legal action as it is; ``{% act "play" seq card=c %}`` builds
    one from its type and fields (a card the view marks playable)."""
    if fields:
        action = {"type": action, **fields}
    message = json.dumps({"type": "act", "seq": seq, "action": action}, separators=(",", ":"))
    return format_html("ws-send hx-vals='{}'", message)


@register.filter
def pretty(value):
    return json.dumps(value, indent=1, ensure_ascii=False)


@register.filter
def action_label(action):
    """A button label for an action: its type plus its fields ("play 7H", "bet 10")."""
    if not isinstance(action, dict):
        return str(action)
    extras = [str(v) for k, v in action.items() if k != "type"]
    return " ".join([str(action.get("type", "")).replace("_", " ").capitalize(), *extras])


@register.filter
def fan(count, most):
    """{% for _ in count|fan:8 %}: one face-down card per card a seat holds, at most `most`."""
    try:
        return range(max(0, min(int(count), int(most))))
    except (TypeError, ValueError):
        return range(0)
