from django.contrib.auth import login
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from gameplay.engine import registry

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


def title(kind: str) -> str:
    """A game's title from its engine; a kind no longer registered shows as it is."""
    try:
        return registry.get(kind).title
    except KeyError:
        return kind


def profile(request, username: str):
    person = get_object_or_404(User, username=username)
    stats = [{"title": title(s.kind), "stat": s} for s in person.stats.order_by("-played")]
    history = [{"title": title(g.kind), "game": g} for g in person.history.all()[:15]]
    return render(
        request, "accounts/profile.html", {"person": person, "stats": stats, "history": history}
    )
