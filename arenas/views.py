"""The arenas over HTTP: the list (/arenas/), an arena's page, join and pause (POST).

Programs add ?format=json and get the arena's state, or {"ok": true, ...} /
{"ok": false, "message": "..."} with a 4xx status; browsers are redirected with the message
shown on the next page."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from . import points, selectors, services
from .models import Arena


def _json(request) -> bool:
    return request.GET.get("format") == "json"


def _rules() -> dict:
    return {
        "place_points": points.PLACE_POINTS,
        "on_fire_after": points.ON_FIRE_AFTER,
        "fill_after": settings.ARENA_FILL_AFTER,
        "forfeit": settings.RANKED_FORFEIT,
    }


def index(request):
    return render(request, "arenas/index.html", {**selectors.arenas(), "rules": _rules()})


def arena(request, arena_id: int):
    found = Arena.objects.filter(pk=arena_id).first()
    if found is None:
        raise Http404(gettext("There is no such arena."))
    state = selectors.arena_state(found, request.user)
    if _json(request):
        return JsonResponse(state)
    return render(request, "arenas/arena.html", {"arena": found, "a": state, "rules": _rules()})


def _act(request, arena_id: int, action, done: str):
    try:
        entrant = action(user=request.user, arena_id=arena_id)
    except services.ArenaError as exc:
        status = 401 if not request.user.is_authenticated else 409
        if _json(request):
            return JsonResponse({"ok": False, "message": exc.message}, status=status)
        messages.error(request, exc.message)
    else:
        if _json(request):
            return JsonResponse(
                {"ok": True, "paused": entrant.paused, "socket": f"/ws/arenas/{arena_id}/"}
            )
        messages.info(request, done)
    if not Arena.objects.filter(pk=arena_id).exists():
        return redirect("arenas")
    return redirect("arena", arena_id=arena_id)


@require_POST
def join(request, arena_id: int):
    return _act(
        request,
        arena_id,
        services.join,
        gettext_lazy("You're in: you'll be paired as soon as you're free."),
    )


@require_POST
def pause(request, arena_id: int):
    return _act(
        request,
        arena_id,
        services.pause,
        gettext_lazy("Paused: nobody pairs you until you join again."),
    )
