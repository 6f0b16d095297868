from django.contrib.auth.models import AnonymousUser
from django.utils.functional import LazyObject


def player(request):
    """The header's name slot: the user, or the guest name if this visitor has one.

    ``user`` is the account itself rather than the lazy stand-in the middleware leaves on the
    request (it replaces the one Django's ``auth`` processor gives): every lookup in a
    template through the stand-in takes a failed attribute lookup and a proxy call, a few
    hundred a page."""
    user = getattr(request, "user", None) or AnonymousUser()
    if isinstance(user, LazyObject):
        user.is_authenticated  # noqa: B018 -- read the account now (the header shows it)
        user = user._wrapped
    guest = None
    if not user.is_authenticated and hasattr(request, "session"):
        guest = request.session.get("guest_name")
    return {"user": user, "guest_name": guest}
