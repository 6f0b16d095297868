from django import template

from gameplay.engine import registry

register = template.Library()


@register.simple_tag
def challenge_games() -> list[dict]:
    """The games two can play, for the profile's challenge form."""
    games = [registry.get(kind) for kind in registry.kinds()]
    return [
        {"kind": g.kind, "title": g.title, "rated": g.rated}
        for g in games
        if g.min_players <= 2 <= g.max_players
    ]
