"""Friends' controls on another app's page: the profile's buttons."""

from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("social/_actions.html", takes_context=True)
def friend_actions(context, person) -> dict:
    """Add friend / Remove / Block on `person`'s profile, as the viewer stands with them."""
    viewer = context["request"].user
    shown = viewer.is_authenticated and viewer.pk != person.pk
    return {
        "shown": shown,
        "person": person,
        "befriends": shown and viewer.is_person and person.is_person,
        "standing": selectors.standing(viewer, person) if shown else {},
        "csrf_token": context.get("csrf_token"),
        "here": context["request"].path,
    }
