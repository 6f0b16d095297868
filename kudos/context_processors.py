from django.utils.functional import SimpleLazyObject

from . import selectors


def kudos(request):
    """The header's Kudos slot (balance, streak, level, a bonus event), read only if shown, from
    the facts kudos.header keeps. News and badges earned arrive over the header's socket."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"kudos": SimpleLazyObject(lambda: selectors.header(user, request=request))}
