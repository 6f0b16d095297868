"""Thin views for programs as players: tokens."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_http_methods, require_POST

from . import services, tokens
from .models import AccessToken


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
        messages.success(request, f"The token {token.name!r} is revoked: it opens nothing now.")
    except tokens.TokenError as exc:
        messages.error(request, exc.message)
    return redirect("access-tokens")


def index(request):
    """The protocol for programs: what there is and where its machine-readable forms are."""
    return render(request, "api/index.html")


@login_required
@require_http_methods(["GET", "POST"])
def become_bot(request):
    """Turn this account into a bot account, once and for good, after a confirmation."""
    error = ""
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            error = "Tick the box to confirm: a bot account can never become a person's again."
        else:
            try:
                services.become_bot(user=request.user)
            except services.BotError as exc:
                error = exc.message
            else:
                messages.success(request, "This account is a bot account now.")
                return redirect("profile", request.user.username)
    status = 400 if error else 200
    return render(request, "api/become_bot.html", {"error": error}, status=status)
