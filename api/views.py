"""Thin views for programs as players: tokens, bot accounts, challenges, the protocol."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext, gettext_lazy, gettext_noop
from django.views.decorators.http import require_http_methods, require_POST

from . import challenges, schema, services, tokens
from .models import AccessToken, Challenge


@login_required
@require_http_methods(["GET", "POST"])
def access_tokens(request):
    """The account's tokens: make one (its secret shown on this answer only), list, revoke."""
    made = secret = None
    error = ""
    if request.method == "POST":
        try:
            made, secret = tokens.create_token(
                user=request.user,
                name=request.POST.get("name", ""),
                scopes=request.POST.getlist("scopes"),
            )
        except tokens.TokenError as exc:
            error = exc.message
    listed = AccessToken.objects.filter(user=request.user, revoked__isnull=True)
    context = {"tokens": listed, "made": made, "secret": secret, "error": error}
    response = render(request, "api/tokens.html", context, status=400 if error else 200)
    add_never_cache_headers(response)  # the page holding a secret is kept by no cache
    return response


@login_required
@require_POST
def revoke(request, token_id: int):
    try:
        token = tokens.revoke_token(user=request.user, token_id=token_id)
        messages.success(
            request,
            (
                gettext("The token %(name)s is revoked: it opens nothing now.")
                % {"name": repr(token.name)}
            ),
        )
    except tokens.TokenError as exc:
        messages.error(request, exc.message)
    return redirect("access-tokens")


def me(request):
    """Who this token (or session) is: a program's first question."""
    user = request.user
    if not user.is_authenticated:
        return JsonResponse({"ok": False, "message": SIGN_IN}, status=401)
    token = getattr(request, "access_token", None)
    return JsonResponse(
        {
            "ok": True,
            "username": user.username,
            "role": user.role,
            "scopes": token.scopes if token else ["play", "read"],
        }
    )


# The documents' titles (api/schema.py), as the index lists them in the page's language; the
# documents themselves stay in English.
DOCUMENT_TITLES = (
    gettext_noop("What the table socket sends"),
    gettext_noop("What the table socket accepts"),
    gettext_noop("What the queue socket sends"),
    gettext_noop("What the queue socket accepts"),
    gettext_noop("What the bot event socket sends"),
    gettext_noop("What the bot event socket accepts"),
    gettext_noop("Cubic Cards for programs"),
)


def index(request):
    """The protocol for programs: what there is and where its machine-readable forms are."""
    documents = [
        {"name": name, "title": gettext(doc.get("title") or doc["info"]["title"])}
        for name, doc in schema.documents().items()
    ]
    return render(request, "api/index.html", {"documents": documents})


@login_required
@require_http_methods(["GET", "POST"])
def become_bot(request):
    """Turn this account into a bot account, once and for good, after a confirmation."""
    error = ""
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            error = gettext(
                "Tick the box to confirm: a bot account can never become a person's again."
            )
        else:
            try:
                services.become_bot(user=request.user)
            except services.BotError as exc:
                error = exc.message
            else:
                messages.success(request, gettext("This account is a bot account now."))
                return redirect("profile", request.user.username)
    status = 400 if error else 200
    return render(request, "api/become_bot.html", {"error": error}, status=status)


# ---- challenges ----------------------------------------------------------------------------


def _wants_json(request) -> bool:
    """A program (a token, ?format=json, or asking for JSON) gets JSON; a page, redirects."""
    return (
        getattr(request, "access_token", None) is not None
        or request.GET.get("format") == "json"
        or "application/json" in request.headers.get("Accept", "")
    )


def _fields(request) -> dict:
    """A POST's fields, sent as a form or as a JSON object."""
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
    return request.POST.dict()


def _refused(request, exc: challenges.ChallengeError, back: str):
    if _wants_json(request):
        return JsonResponse({"ok": False, "message": exc.message}, status=exc.status)
    messages.error(request, exc.message)
    return redirect(back)


def _signed_in(view):
    """Challenges are between accounts: a guest is told so (401), in JSON or on a page."""

    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            if _wants_json(request):
                return JsonResponse({"ok": False, "message": SIGN_IN}, status=401)
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped


SIGN_IN = gettext_lazy("Sign in (or send an access token) to challenge.")


@_signed_in
@require_http_methods(["GET", "POST"])
def challenge_list(request):
    """GET: the account's open challenges, made and received; POST: challenge someone
    (``opponent``, ``game``, ``rated``)."""
    if request.method == "POST":
        fields = _fields(request)
        try:
            made = challenges.challenge(
                challenger=request.user,
                opponent=fields.get("opponent", ""),
                kind=fields.get("game", ""),
                rated=fields.get("rated", False),
            )
        except challenges.ChallengeError as exc:
            back = f"/u/{fields.get('opponent', '')}/" if fields.get("opponent") else "home"
            return _refused(request, exc, back)
        if _wants_json(request):
            return JsonResponse({"ok": True, "challenge": challenges.as_json(made)}, status=201)
        return redirect("challenge", made.pk)
    listed = challenges.listed(request.user)
    if _wants_json(request):
        return JsonResponse({"ok": True, "challenges": [challenges.as_json(c) for c in listed]})
    received = [c for c in listed if c.challenged_id == request.user.pk]
    made = [c for c in listed if c.challenger_id == request.user.pk]
    return render(request, "api/challenges.html", {"received": received, "made": made})


@_signed_in
def challenge_page(request, challenge_id: int):
    """One challenge: JSON, or a page that waits for the answer and then opens the table."""
    found = (
        Challenge.objects.select_related("challenger", "challenged", "room")
        .filter(pk=challenge_id)
        .filter(Q(challenger=request.user) | Q(challenged=request.user))
        .first()
    )
    if found is None:
        raise Http404(gettext("There is no such challenge."))
    shown = challenges.as_json(found)
    if _wants_json(request):
        return JsonResponse({"ok": True, "challenge": shown})
    if shown["status"] == Challenge.Status.ACCEPTED and shown["room"]:
        return redirect("room", code=shown["room"])
    return render(request, "api/challenge.html", {"challenge": found, "shown": shown})


@_signed_in
@require_POST
def answer_challenge(request, challenge_id: int, answer: str):
    act = challenges.accept if answer == "accept" else challenges.decline
    try:
        found = act(user=request.user, challenge_id=challenge_id)
    except challenges.ChallengeError as exc:
        return _refused(request, exc, "challenges")
    if _wants_json(request):
        return JsonResponse({"ok": True, "challenge": challenges.as_json(found)})
    if found.room is not None:
        return redirect("room", code=found.room.code)
    return redirect("challenges")


def schema_document(request, name: str):
    """One of the protocol's machine-readable documents (api.schema)."""
    found = schema.documents().get(name)
    if found is None:
        raise Http404(gettext("There is no such document."))
    return JsonResponse(found, json_dumps_params={"indent": 1})
