"""Pages for what went wrong outside a view's own control, each a sentence rather than a
bare error: a missing or stale CSRF token, Redis unreachable."""

import logging

from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from accounts.forms import SignUpForm

log = logging.getLogger(__name__)
STALE = gettext_lazy("This form had expired. Please try again.")
RETRY_AFTER = 10  # seconds before the "tables unavailable" page asks again by itself
FORMS = {  # path prefix: (form, template)
    "/accounts/signup": (SignUpForm, "registration/signup.html"),
    "/accounts/login": (AuthenticationForm, "registration/login.html"),
}


def csrf_failure(request, reason=""):
    for prefix, (form_class, template) in FORMS.items():
        if request.path.startswith(prefix):
            # Unbound: nothing is validated and no password is tried; the name is kept.
            form = form_class(initial={"username": request.POST.get("username", "")[:150]})
            form.cleaned_data = {}  # add_error() expects a form that has been cleaned
            form.add_error(None, STALE)
            return render(request, template, {"form": form}, status=403)
    return render(request, "403_csrf.html", {"message": STALE}, status=403)


class RedisUnavailable:
    """The live tables (their states, the channel layer, Celery's broker) need Redis. While
    it can't be reached a page that needs it answers 503 with a page that says so and tries
    again by itself, instead of a 500; the tables come back as they were when Redis does (the
    game log is in the database)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        # OperationalError: publishing a Celery task to the broker (Redis) failed.
        if not isinstance(exception, RedisError | OperationalError):
            return None
        log.warning("Redis unavailable for %s: %s", request.path, exception)
        response = render(
            request,
            "unavailable.html",
            {"retry_after": RETRY_AFTER, "path": request.path},
            status=503,
        )
        response["Retry-After"] = str(RETRY_AFTER)
        return response


def not_found(request, exception=None):
    """The site's own 404: the view's sentence when it raised one ("No such game."), else a
    plain one; never Django's debug page."""
    message = exception.args[0] if exception and exception.args else None
    if not isinstance(message, str):
        message = gettext("There is no page at this address.")
    return render(request, "404.html", {"message": message}, status=404)
