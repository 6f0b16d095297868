from django.contrib.auth import login
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from lobby.catalog import GAMES

from .forms import SignUpForm
from .models import User


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


def profile(request, username: str):
    person = get_object_or_404(User, username=username)
    titles = {g.kind: g.title for g in GAMES}
    stats = [
        {"title": titles.get(s.kind, s.kind), "stat": s} for s in person.stats.order_by("-played")
    ]
    history = person.history.select_related(None)[:15]
    return render(
        request,
        "accounts/profile.html",
        {"person": person, "stats": stats, "history": history, "titles": titles},
    )
