"""A missing or stale CSRF token gets the form back with a sentence, never a bare 403."""

from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render

from accounts.forms import SignUpForm

STALE = "This form had expired. Please try again."
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
