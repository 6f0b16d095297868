"""The ranked queue over HTTP: join (POST /ranked/<kind>/), the waiting page (GET), leave
(POST /ranked/<kind>/leave/), and a ranked game's rating change for the table's result.

Programs add ?format=json and get {"ok": true, ...} or {"ok": false, "message": "..."} with a
4xx status; browsers are redirected with the message shown on the next page."""

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import ratings
from accounts.models import RatingChange
from accounts.sightings import sighted
from gameplay.engine import registry
from gameplay.models import Game

from . import ranked, services
from .identity import player_key
from .words import here, say

SIGN_UP_FIRST = say("Sign up or sign in to play ranked: ratings belong to an account.")


def _json(request) -> bool:
    return request.GET.get("format") == "json"


def queue(request, kind: str):
    return join(request, kind) if request.method == "POST" else waiting_page(request, kind)


@require_POST
@sighted
def join(request, kind: str):
    if not request.user.is_authenticated:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(SIGN_UP_FIRST)}, status=401)
        messages.info(request, here(SIGN_UP_FIRST))
        return redirect(f"{reverse('signup')}?next=/ranked/{kind}/")
    try:
        entry = ranked.enqueue(
            user=request.user, kind=kind, leave_table=request.POST.get("leave_table", "")
        )
    except ranked.SeatElsewhere as exc:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(exc.message)}, status=409)
        return redirect("ranked-queue", kind=kind)  # it says where, and offers the way on
    except ranked.QueueError as exc:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(exc.message)}, status=409)
        messages.error(request, here(exc.message))
        already = ranked.current_entry(request.user, kind)
        if already is not None and already.status == already.Status.WAITING:
            return redirect("ranked-queue", kind=kind)
        return redirect("home")
    if _json(request):
        return JsonResponse(
            {"ok": True, "game": entry.kind, "status": entry.status, "socket": f"/ws/queue/{kind}/"}
        )
    return redirect("ranked-queue", kind=entry.kind)


def waiting_page(request, kind: str):
    try:
        engine = ranked.rated_engine(kind)
    except ranked.QueueError as exc:
        raise Http404(here(exc.message)) from exc
    return render(
        request,
        "lobby/queue.html",
        {"engine": engine, "q": ranked.queue_state(request.user, engine)},
    )


@require_POST
def leave(request, kind: str):
    if not request.user.is_authenticated:
        message = say("You are not in a queue.")
        if _json(request):
            return JsonResponse({"ok": False, "message": message}, status=401)
        messages.error(request, here(message))
        return redirect("home")
    try:
        ranked.leave(user=request.user, kind=kind)
    except ranked.QueueError as exc:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(exc.message)}, status=409)
        messages.error(request, here(exc.message))
        table = services.current_room(player_key(request))  # a matched person: their table
        return redirect("room", code=table.code) if table else redirect("home")
    if _json(request):
        return JsonResponse({"ok": True, "status": "left"})
    messages.info(request, here(say("You left the queue.")))
    return redirect("home")


def rating_change(request, game_id: int):
    """The viewer's rating change for a ranked game, polled by the table's result until the
    end-of-game hook has rated it (htmx stops polling on status 286)."""
    game = Game.objects.filter(pk=game_id, ranked=True).first()
    user = request.user
    if game is None or not user.is_authenticated or user.pk not in _people(game):
        return HttpResponse("", status=286)  # nothing of the viewer's to show
    change = RatingChange.objects.filter(game_id=game_id, user=user).first()
    if change is None:
        return render(request, "lobby/_rating_change.html", {"pending": True})
    before = ratings.shown(change.mu_before, change.sigma_before)
    after = ratings.shown(change.mu, change.sigma)
    response = render(
        request,
        "lobby/_rating_change.html",
        {
            "change": change,
            "title": registry.get(change.kind).title,
            "before": before,
            "after": after,
            "delta": after - before,
            "provisional": ratings.provisional(change.sigma),
        },
    )
    return HttpResponse(response.content, status=286)


def _people(game: Game) -> set[int]:
    return {seat.get("user_id") for seat in game.seats}


# ---- quick play: the same queue, casual tables ---------------------------------------------------

SIGN_IN_FOR_QUICK = say("Sign up or sign in to find players: a table seats accounts together.")


def quick(request, kind: str):
    return quick_join(request, kind) if request.method == "POST" else quick_page(request, kind)


def quick_page(request, kind: str):
    try:
        engine = ranked.casual_engine(kind)
    except ranked.QueueError as exc:
        raise Http404(here(exc.message)) from exc
    state = ranked.queue_state(request.user, engine, casual=True)
    return render(request, "lobby/quick.html", {"engine": engine, "q": state})


@require_POST
def quick_join(request, kind: str):
    if not request.user.is_authenticated:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(SIGN_IN_FOR_QUICK)}, status=401)
        messages.info(request, here(SIGN_IN_FOR_QUICK))
        return redirect(f"{reverse('signup')}?next=/quick/{kind}/")
    try:
        entry = ranked.enqueue(user=request.user, kind=kind, casual=True)
    except ranked.QueueError as exc:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(exc.message)}, status=409)
        messages.error(request, here(exc.message))
        already = ranked.current_entry(request.user, kind, casual=True)
        if already is not None and already.status == already.Status.WAITING:
            return redirect("quick", kind=kind)
        return redirect("home")
    if _json(request):
        return JsonResponse(
            {"ok": True, "game": entry.kind, "status": entry.status, "socket": f"/ws/quick/{kind}/"}
        )
    return redirect("quick", kind=entry.kind)


@require_POST
def quick_now(request, kind: str):
    """ "Play now with computers": seated at once, computer players in the empty seats."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next=/quick/{kind}/")
    try:
        room = ranked.play_now(user=request.user, kind=kind)
    except ranked.QueueError as exc:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(exc.message)}, status=409)
        messages.error(request, here(exc.message))
        return redirect("quick", kind=kind) if kind in registry.kinds() else redirect("home")
    if _json(request):
        return JsonResponse({"ok": True, "room": room.code, "url": f"/rooms/{room.code}/"})
    return redirect("room", code=room.code)


@require_POST
def quick_leave(request, kind: str):
    if not request.user.is_authenticated:
        return redirect("home")
    try:
        ranked.leave(user=request.user, kind=kind, casual=True)
    except ranked.QueueError as exc:
        if _json(request):
            return JsonResponse({"ok": False, "message": here(exc.message)}, status=409)
        messages.error(request, here(exc.message))
        table = services.current_room(player_key(request))
        return redirect("room", code=table.code) if table else redirect("home")
    if _json(request):
        return JsonResponse({"ok": True, "status": "left"})
    messages.info(request, here(say("You stopped waiting.")))
    return redirect("home")
