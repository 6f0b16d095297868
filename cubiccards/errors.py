"""A missing or stale CSRF token gets the form back with a sentence, never a bare 403."""

from django.shortcuts import render

from accounts.forms import SignUpForm

STALE = "This form had expired. Please try again."


def csrf_failure(request, reason=""):
    if request.path.startswith("/accounts/signup"):
        form = SignUpForm(request.POST or None)
        form.add_error(None, STALE)
        return render(request, "registration/signup.html", {"form": form}, status=403)
    if request.path.startswith("/accounts/login"):
        from django.contrib.auth.forms import AuthenticationForm

        form = AuthenticationForm(request, data=None)
        form.add_error(None, STALE)
        return render(request, "registration/login.html", {"form": form}, status=403)
    return render(request, "403_csrf.html", {"message": STALE}, status=403)


def not_found(request, exception=None):
    """The site's own 404: the view's sentence when it raised one ("No such game."), else a
    plain one; never Django's debug page."""
    message = exception.args[0] if exception and exception.args else None
    if not isinstance(message, str):
        message = "There is no page at this address."
    return render(request, "404.html", {"message": message}, status=404)
