from django.utils.functional import SimpleLazyObject

from . import selectors


def kudos(request):
    """The header's Kudos slot (balance, streak, level, a bonus event, news), read only if
    shown, and the badges this request earned (a streak day's)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    news = getattr(request, "kudos_news", None)
    return {
        "kudos": SimpleLazyObject(lambda: selectors.header(user, news)),
        "kudos_badges": getattr(request, "kudos_badges", []),
    }
