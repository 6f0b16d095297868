import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from gameplay.engine import registry
from infra import limits

from . import charts, computers, privacy, ratings, selectors
from .forms import SettingsForm, SignInForm, SignUpForm
from .models import Rating, User

BOARD_PAGE = 50  # players per leaderboard page
BOARD_TOP = 10  # per game on /leaderboards/


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None, address=limits.address(request))
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="accounts.backends.SignInBackend")
        messages.success(
            request,
            gettext(
                "Welcome to Cubic Cards, %(name)s! Your games now count towards your stats "
                "and earn Kudos: pick a game below to start."
            )
            % {"name": user.username},
        )
        return redirect(_next(request) or "home")
    context = {"form": form, "next": _next(request)}
    return render(request, "registration/signup.html", context, status=_status(form))


class SignInView(LoginView):
    authentication_form = SignInForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=_status(form))


def _status(form) -> int:
    """429 when a limit refused the form, else 200."""
    return 429 if form.is_bound and form.has_error(NON_FIELD_ERRORS, "limited") else 200


def _next(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()})
    return target if target and safe else ""


@require_http_methods(["POST"])
def choose_language(request):
    """The footer's switcher: the language goes in a cookie (guests and people alike) and, for
    a signed-in person, on the account, where it follows them to every device. The same page
    follows, in the new language."""
    chosen = request.POST.get("language", "")
    if chosen not in dict(settings.LANGUAGES):
        return HttpResponse(
            gettext("There is no such language here."), status=400, content_type="text/plain"
        )
    if request.user.is_authenticated and request.user.language != chosen:
        request.user.language = chosen
        request.user.save(update_fields=["language"])
    translation.activate(chosen)
    response = redirect(_next(request) or "home")
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        chosen,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=request.is_secure(),
    )
    return response


def profile(request, username: str):
    person = get_object_or_404(User, username=username, is_active=True)  # erased: gone
    games = selectors.profile_games(person)
    for game in games:
        if game.rating is not None:
            points = selectors.rating_history(person, game.kind)
            game.rating["chart"] = charts.rating_chart(points, game.title) if points else ""
    return render(
        request,
        "accounts/profile.html",
        {
            "person": person,
            "games": games,
            "recent": selectors.recent_games(person),
            "provisional_sigma": ratings.PROVISIONAL_SIGMA,
            "strength": computers.strength_of(person.pk) if person.role == User.COMPUTER else None,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request):
    if request.method != "POST":
        form = SettingsForm(instance=request.user)
        return render(request, "accounts/settings.html", {"form": form})
    form = SettingsForm(request.POST, instance=request.user)
    if form.is_valid():
        form.save()
        # Said in the language just chosen: the next page is in it.
        with translation.override(form.cleaned_data.get("language") or translation.get_language()):
            messages.success(request, gettext("Your settings are saved."))
        return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form})


def leaderboards(request):
    kinds = [k for k in registry.kinds() if registry.get(k).rated]
    sizes = selectors.board_sizes(kinds)
    boards = []
    for kind in kinds:
        top = list(selectors.board(kind)[:BOARD_TOP])
        mine = _my_rating(request, kind)
        boards.append(
            {
                "kind": kind,
                "title": registry.get(kind).title,
                "rows": _rows(top, 1, request),
                "size": sizes.get(kind, 0),
                "me": mine,
            }
        )
    return render(request, "accounts/leaderboards.html", {"boards": boards})


def leaderboard(request, kind: str, role: str = User.PERSON):
    """A game's people's leaderboard, or (``role=User.BOT``) its bots'."""
    try:
        engine = registry.get(kind)
    except KeyError as exc:
        raise Http404(gettext("No such game.")) from exc
    if not engine.rated:
        raise Http404(gettext("%(game)s is not played ranked.") % {"game": engine.title})
    mine = _my_rating(request, kind)
    if mine is not None and request.user.role != role:
        mine = None  # the viewer is listed on the other board
    paginator = Paginator(selectors.board(kind, role=role), BOARD_PAGE)
    page_number = request.GET.get("page")
    if page_number is None and mine and mine["place"]:
        page_number = (mine["place"] - 1) // BOARD_PAGE + 1  # open on the viewer's own page
    page = paginator.get_page(page_number)
    return render(
        request,
        "accounts/leaderboard.html",
        {
            "engine": engine,
            "page": page,
            "rows": _rows(page.object_list, page.start_index(), request),
            "me": mine,
            "per_page": BOARD_PAGE,
            "active_days": selectors.ACTIVE_DAYS,
            "computers": selectors.computer_ratings(engine.kind) if role == User.PERSON else [],
            "bots": role == User.BOT,
        },
    )


def _rows(listed, first_place: int, request) -> list[dict]:
    viewer = request.user.pk if request.user.is_authenticated else None
    return [
        {
            "place": first_place + i,
            "name": r.user.username,
            "shown": ratings.shown(r.mu, r.sigma),
            "games": r.games,
            "you": r.user_id == viewer,
        }
        for i, r in enumerate(listed)
    ]


def _my_rating(request, kind: str) -> dict | None:
    if not request.user.is_authenticated:
        return None
    rating = Rating.objects.filter(user=request.user, kind=kind).first()
    if rating is None:
        return None
    place = selectors.leaderboard_place(rating)
    return {
        "shown": ratings.shown(rating.mu, rating.sigma),
        "provisional": ratings.provisional(rating.sigma),
        "place": place,
        "page": (place - 1) // BOARD_PAGE + 1 if place else None,
    }


WRONG_PASSWORD = gettext_lazy("That is not your password.")


@login_required
@require_http_methods(["GET"])
def your_data(request):
    """Leaving the site: download what it holds about you, or delete your account."""
    return render(request, "accounts/your_data.html")


def _password_given(request) -> bool:
    return request.user.check_password(request.POST.get("password") or "")


@login_required
@require_http_methods(["POST"])
def export_data(request):
    """Everything the site holds about the signed-in person, as one JSON file."""
    if not _password_given(request):
        return render(
            request, "accounts/your_data.html", {"export_error": WRONG_PASSWORD}, status=403
        )
    data = privacy.export(request.user)
    response = HttpResponse(
        json.dumps(data, cls=privacy.ENCODER, indent=1), content_type="application/json"
    )
    name = f"cubiccards-{request.user.username}-{timezone.now():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["POST"])
def delete_account(request):
    """Erase the signed-in person's account (accounts.privacy), confirmed by password."""
    if not _password_given(request):
        return render(
            request, "accounts/your_data.html", {"delete_error": WRONG_PASSWORD}, status=403
        )
    privacy.erase(request.user)
    logout(request)
    messages.success(request, gettext("Your account is deleted. Thank you for playing."))
    return redirect("home")
