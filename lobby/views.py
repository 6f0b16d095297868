"""Thin views: parse, call lobby.services, redirect or render."""

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.sightings import sighted
from gameplay.engine import registry
from infra import limits
from infra.cache import require_redis

from . import selectors, services, tables
from .identity import player_key, player_name
from .words import here


def _user(request):
    return request.user if request.user.is_authenticated else None


@require_POST
@sighted
def create_room(request):
    room = services.create_room(
        player=player_key(request), name=player_name(request), user=_user(request)
    )
    return redirect("room", code=room.code)


@require_POST
@sighted
def join_room(request):
    """Joining by code is the only way into someone's room, so codes that lead nowhere are
    counted per session and per address (infra.limits) to stop guessing."""
    player = player_key(request)
    guesser = [
        (limits.ROOM_CODES_PER_SESSION, player),
        (limits.ROOM_CODES_PER_ADDRESS, limits.address(request)),
    ]
    try:
        limits.check(*guesser)
        room = services.join_room(
            code=request.POST.get("code"),
            player=player,
            name=player_name(request),
            user=_user(request),
            listed=request.POST.get("listed") == "1",
        )
    except limits.Limited as exc:
        messages.error(request, here(exc.message))
        return redirect("home")
    except services.RoomError as exc:
        if isinstance(exc, services.NoSuchRoom):
            limits.count(*guesser)
        messages.error(request, here(exc.message))
        return redirect("open-tables" if request.POST.get("listed") == "1" else "home")
    return redirect("room", code=room.code)


def open_tables(request):
    """GET /tables/: public rooms waiting for players, kept current by /ws/tables/."""
    require_redis()
    return render(request, "lobby/open_tables.html", {"tables": selectors.open_tables()})


@require_POST
def public_table(request, code: str):
    """The host lists the room on /tables/ (``public=1`` with the start form's game, seats,
    rule options and turn timer) or makes it private again (``public=0``)."""
    try:
        player = player_key(request)
        room = services.members_room(code, player)
        if request.POST.get("public") == "1":
            services.list_table(
                room=room,
                player=player,
                kind=request.POST.get("game", ""),
                seats=request.POST.get("seats"),
                rules=request.POST.get("rules") or _rules_from_form(request),
                turn_timer=request.POST.get("turn_timer"),
            )
        else:
            services.unlist_table(room=room, player=player)
    except services.RoomError as exc:
        messages.error(request, here(exc.message))
    return redirect("room", code=normalise(code))


def room(request, code: str):
    """A member's table; anyone else gets the same invitation to join, whether a room has
    this code or not (joining tells, within the guessing limits)."""
    require_redis()  # a table that can't connect its socket would only spin
    player = player_key(request)
    try:
        room = services.members_room(code, player)
    except services.NoSuchRoom:
        return render(request, "lobby/join.html", {"code": normalise(code)})
    except services.RoomError as exc:  # not a room code at all
        raise Http404(here(exc.message)) from exc
    context = tables.room_context(room, services.member_of(room, player))
    context["watching"] = services.watching(room.pk)
    if context["is_host"]:
        context["watch_link"] = _watch_link(request, room)
    return render(request, "lobby/room.html", context)


def watch(request, code: str):
    """GET /rooms/<CODE>/watch/: the spectators' view of a public or ranked table, or of any
    other with the host's invitation (?invite=<token>)."""
    require_redis()
    invite = request.GET.get("invite", "")
    try:
        room = services.watchable_room(code, invite)
    except services.RoomError:
        context = {"message": services.WATCH_REFUSED}
        return render(request, "lobby/not_watchable.html", context, status=404)
    context = tables.room_context(room, services.spectator(room))
    socket = f"/ws/rooms/{room.code}/watch/"
    context["socket_url"] = f"{socket}?{urlencode({'invite': invite})}" if invite else socket
    context["watching"] = services.watching(room.pk)
    return render(request, "lobby/room.html", context)


def tv(request, kind: str | None = None):
    """GET /tv/ and /tv/<kind>/: the highest-rated live ranked table (of every game, or of
    one), watched as any spectator watches it; the page asks for the next when it ends."""
    require_redis()
    if kind is not None and kind not in registry.kinds():
        raise Http404("No such game.")
    room = selectors.tv_table(kind)
    channels = [registry.get(k) for k in selectors.tv_kinds()]
    tv = {"kind": kind, "title": registry.get(kind).title if kind else "", "channels": channels}
    if room is None:
        return render(request, "lobby/tv_empty.html", {"tv": tv})
    context = tables.room_context(room, services.spectator(room))
    context.update(
        tv=tv,
        socket_url=f"/ws/rooms/{room.code}/watch/",
        watching=services.watching(room.pk),
    )
    return render(request, "lobby/room.html", context)


def _watch_link(request, room) -> str:
    """The host's link for spectators: a table that is not public or ranked needs the
    invitation in it."""
    path = reverse("watch", args=[room.code])
    if not (room.public or room.ranked):
        path += "?" + urlencode({"invite": services.watch_invitation(room)})
    return request.build_absolute_uri(path)


@require_POST
def start_game(request, code: str):
    try:
        room = services.members_room(code, player_key(request))
        services.start_game(
            room=room,
            player=player_key(request),
            kind=request.POST.get("game", ""),
            seats=request.POST.get("seats"),
            rules=request.POST.get("rules") or _rules_from_form(request),
            turn_timer=request.POST.get("turn_timer"),
            speed_play=services.remembered_speed_play(_user(request), request.session),
            strengths=request.POST.getlist("strength"),
        )
    except services.RoomError as exc:
        messages.error(request, here(exc.message))
    return redirect("room", code=normalise(code))


@require_POST
def back_to_lobby(request, code: str):
    try:
        player = player_key(request)
        services.back_to_lobby(room=services.members_room(code, player), player=player)
    except services.RoomError as exc:
        messages.error(request, here(exc.message))
    return redirect("room", code=normalise(code))


@require_POST
def leave_room(request, code: str):
    try:
        services.leave_room(room=services.open_room(code), player=player_key(request))
    except services.RoomError:
        pass  # leaving a room that is gone is already done
    return redirect("home")


def play_dispatch(request, kind: str):
    return play(request, kind) if request.method == "POST" else play_page(request, kind)


@require_POST
@sighted
def play(request, kind: str):
    """Start a solo game, or a game against computer players, in one click."""
    try:
        room = services.play_solo(
            kind=kind,
            player=player_key(request),
            name=player_name(request),
            user=_user(request),
            seats=request.POST.get("seats"),
            rules=request.POST.get("rules") or _rules_from_form(request),
            speed_play=services.remembered_speed_play(_user(request), request.session),
            strengths=request.POST.getlist("strength"),
        )
    except services.RoomError as exc:
        messages.error(request, here(exc.message))
        return redirect("home")
    return redirect("room", code=room.code)


@require_POST
@sighted
def play_challenge(request, kind: str):
    """Start today's Daily Challenge at a game: one attempt."""
    try:
        room = services.play_challenge(
            kind=kind, player=player_key(request), name=player_name(request), user=_user(request)
        )
    except services.RoomError as exc:
        messages.error(request, here(exc.message))
        return redirect("kudos:challenge")
    return redirect("room", code=room.code)


def play_page(request, kind: str):
    """GET /play/<kind>/: the options for a game against the computer."""
    try:
        engine = registry.get(kind)
    except KeyError as exc:
        raise Http404("No such game.") from exc
    sizes = list(range(engine.min_players, engine.max_players + 1))
    context = {
        "engine": engine,
        "sizes": sizes,
        "options": tables.option_fields(engine),
        "strengths": tables.strength_fields(engine),
    }
    return render(request, "lobby/play.html", context)


def _rules_from_form(request) -> dict | None:
    """Rule options posted as rule_<name> fields (the room's and the play page's forms)."""
    rules = {}
    for key, value in request.POST.items():
        if key.startswith("rule_"):
            rules[key[5:]] = tables.parse_option(value)
    return rules or None


def normalise(code: str) -> str:
    return services.normalise_code(code)
