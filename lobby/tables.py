"""What each connection at a table is sent: its own seat's view, as HTML or as JSON.

Used by the room page (first render) and by the room socket (every update), so both always
show the same thing. Only engine.view(state, seat) reaches a page: never the state."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.middleware.csrf import CSRF_SECRET_LENGTH, _mask_cipher_secret
from django.template.loader import get_template
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext_lazy

from accounts.selectors import bot_accounts
from gameplay import store
from gameplay.engine import MEDIUM, registry
from gameplay.models import SpeedPlay, is_computer_seat, seat_strength
from kudos.selectors import name_tags

from . import chat, ranked, services, viewpoints
from .models import Member, Room, RoomGame
from .words import all_in_language

TURN_TIMERS = [0, 15, 30, 60, 120]
SPEED_PLAY_CHOICES = SpeedPlay.choices  # its labels lazy: said in the reader's language
# A Cardice contract's state, as its seats show it ("short" is said with its count).
CONTRACT_STATES = [
    pgettext_lazy("contract", "bidding"),
    pgettext_lazy("contract", "made"),
    pgettext_lazy("contract", "broken"),
    pgettext_lazy("contract", "nil"),
]
# The computer players' strengths as the tables show them (translated where they are shown).
STRENGTH_NAMES = [
    gettext_noop("Easy"),
    gettext_noop("Medium"),
    gettext_noop("Hard"),
    gettext_noop("Expert"),
    gettext_noop("easy"),
    gettext_noop("medium"),
    gettext_noop("hard"),
    gettext_noop("expert"),
]


def option_fields(engine) -> list[dict[str, Any]]:
    """The engine's rule options as form fields named ``rule_<name>`` (values as JSON), each
    with its label, help and value labels. An option with ``shown_when`` starts hidden (and
    disabled, so it isn't sent) unless the defaults meet it; static/js/options.js follows the
    player's choices."""
    defaults = engine.default_rules()
    fields = []
    for option in engine.options:
        shown = all(defaults.get(k) == v for k, v in option.shown_when.items())
        fields.append(
            {
                "name": f"rule_{option.name}",
                "label": option.label,
                "help": option.help,
                "shown": shown,
                "shown_when": json.dumps(
                    {f"rule_{k}": json.dumps(v) for k, v in option.shown_when.items()}
                )
                if option.shown_when
                else "",
                "choices": [
                    {
                        "value": json.dumps(v),
                        "label": option.value_label(v),
                        "selected": v == option.default and type(v) is type(option.default),
                    }
                    for v in option.values
                ],
            }
        )
    return fields


def strength_fields(engine) -> list[dict[str, Any]]:
    """One select per computer seat a table of this game can have, each posted as
    ``strength`` (in seat order), Medium picked; none for a game with one strength."""
    if len(engine.strengths) < 2:
        return []
    choices = [{"value": s, "label": s.title(), "selected": s == MEDIUM} for s in engine.strengths]
    return [
        {"label": f"Computer player {n}", "choices": choices} for n in range(1, engine.max_players)
    ]


def parse_option(value: str) -> Any:
    """A posted rule value: "3" -> 3, "true" -> True, anything else stays text."""
    try:
        return json.loads(value)
    except ValueError:
        return value


@functools.cache
def table_scripts() -> list[str]:
    """Per-game table scripts, static/js/tables/<kind>.js, loaded once by the room page."""
    folder = Path(settings.BASE_DIR) / "static" / "js" / "tables"
    return sorted(f"js/tables/{p.name}" for p in folder.glob("*.js"))


@functools.cache
def table_styles() -> list[str]:
    """Per-game table styles, static/css/tables/<kind>.css, linked once by the room page."""
    folder = Path(settings.BASE_DIR) / "static" / "css" / "tables"
    return sorted(f"css/tables/{p.name}" for p in folder.glob("*.css"))


def table_games(picked: str = "") -> list[dict[str, Any]]:
    """The games a room can start (solo games start from the home page), with their options;
    ``picked`` (the room's last game, else the first) starts selected."""
    engines = [registry.get(k) for k in registry.kinds()]
    engines = [e for e in engines if not e.solo]
    if picked not in {e.kind for e in engines}:
        picked = engines[0].kind if engines else ""
    return [
        {
            "kind": e.kind,
            "title": e.title,
            "players": e.players_text(),
            "picked": e.kind == picked,
            "options": option_fields(e),
            "strengths": strength_fields(e),
            "min_players": e.min_players,
            "max_players": e.max_players,
        }
        for e in engines
    ]


def table_templates(kind: str) -> tuple[str, str]:
    """The game's own table (tables/<kind>.html), or the generic one that works for any game:
    `{% include %}` takes the first that exists, and only when the HTML is rendered."""
    return (f"tables/{kind}.html", "tables/generic.html")


def room_context(
    room: Room,
    member: Member,
    present: list[Member] | None = None,
    online: set[int] | None = None,
) -> dict[str, Any]:
    """Everything the room page or a socket message needs, for this member only. `present`:
    the room's people in the order they came, and `online`: those with a live socket, if the
    caller has them already."""
    present = list(room.present()) if present is None else present
    online = services.online_ids(room.pk) if online is None else online
    game = room.game
    table = None
    if game is not None:
        seat = _seat_of(member, game)

        def build():
            people = viewpoints.shared(_people_key(room, game), lambda: _people_part(room, game))
            return _table_part(game, seat, store.load_state(game), people)

        table = viewpoints.shared(_seat_key(room, game, seat), build, brief=True)
    return _context(room, member, present, online, table)


def room_context_in_memory(
    room: Room, member: Member, present: list[Member], online: set[int] | None
) -> dict[str, Any] | None:
    """As room_context, from what this process holds alone (the event loop must not wait on the
    database or Redis), after a move: None when that is not enough."""
    game = room.game
    if online is None or game is None:
        return None
    seat = _seat_of(member, game)
    key = _seat_key(room, game, seat)
    table = viewpoints.kept(key)
    if table is None:
        people = viewpoints.kept(_people_key(room, game))
        state = store.kept_state(game)
        if people is None or state is None:
            return None
        table = viewpoints.shared(key, lambda: _table_part(game, seat, state, people), brief=True)
    return _context(room, member, present, online, table)


def _seat_of(member: Member, game) -> int | None:
    return member.seat if member.seat is not None and member.seat < game.players else None


def _seat_key(room: Room, game, seat: int | None) -> tuple:
    return ("seat", room.pk, game.pk, game.seed_hash, game.seq, game.updated, seat)


def _people_key(room: Room, game) -> tuple:
    return ("people", room.pk, game.pk, game.seed_hash, game.status)


def _context(room: Room, member: Member, present, online, table) -> dict[str, Any]:
    for person in present:  # the same for every viewer: it comes from the presence rows
        person.online = person.pk in online
    context: dict[str, Any] = {
        "room": room,
        "member": member,
        "is_host": room.host == member.player,
        "members": present,
        "host_name": next((m.name for m in present if m.player == room.host), ""),
        "game": None,
        "table_scripts": table_scripts(),
        "table_styles": table_styles(),
        "chat_phrases": chat.PHRASES,
    }
    game = room.game
    if game is None:
        context["wins"] = services.room_wins(room)
        if context["is_host"]:
            context["table_games"] = table_games(room.kind)
            context["turn_timers"] = TURN_TIMERS
        return context
    context.update(table)
    # Presence moves without the game row (a socket drops, comes back): it joins each call's
    # own copy of the shared seats.
    people = {m.seat: m for m in present if m.seat is not None}
    context["seats"] = [
        {**s, "presence": _presence(s, people.get(s["index"]), game.is_over)}
        for s in context["seats"]
    ]
    context["turn"] = _turn(context)
    return context


def _table_part(game, seat: int | None, state: dict, people: tuple) -> dict[str, Any]:
    """What the table shows from `seat` (None: a spectator's view) at `state`."""
    wins, seat_wins, tags, home = people
    engine = registry.get(game.kind)
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat) if seat is not None and not game.is_over else []
    over = game.is_over
    return dict(
        wins=wins,
        game=game,
        engine=engine,
        seat=seat,
        view=view,
        legal=legal,
        legal_types=sorted({a["type"] for a in legal}),
        to_act=engine.to_act(state),
        over=over,
        home=home,
        result=engine.result(state) if over else None,
        seats=_seats(game, engine, state, seat, seat_wins, tags),
        seq=game.seq,
        computer_players=any(s["bot"] for s in game.seats),
        speed_play_choices=SPEED_PLAY_CHOICES,
        table_template=table_templates(game.kind),
    )


def _turn(context: dict[str, Any]) -> str:
    """Whose turn it is, in words, for the table's live region."""
    if context["over"]:
        return gettext_lazy("Game over")
    if context["seat"] in context["to_act"]:
        return gettext_lazy("Your turn")
    waiting = [s["name"] for s in context["seats"] if s["to_act"]]
    # lazy: said in the language the fragment is rendered in
    return (
        format_lazy(gettext_lazy("Waiting for {names}"), names=", ".join(waiting))
        if waiting
        else ""
    )


def _people_part(room: Room, game) -> tuple:
    """Who sits at the table, as the room's wins and the players' name tags (level, name
    colour) show them, and where an ended ranked game leads back to (an arena): these change
    when a game ends, not with each move."""
    wins = services.room_wins(room)
    tags = name_tags([s.get("user_id") for s in game.seats])
    for user_id in bot_accounts([s.get("user_id") for s in game.seats]):
        tags.setdefault(user_id, {})["bot_account"] = True
    home = ranked.game_home(game.pk) if room.ranked and game.is_over else None
    return wins, _seat_wins(room, game, wins), tags, home


def _seat_wins(room: Room, game, wins: dict[str, int] | None) -> list[int | None]:
    """Each seat's games won in this room, or None per seat before any game has finished."""
    played = RoomGame.objects.filter(room=room, game=game).values_list("players", flat=True)
    players = next(iter(played), None)
    if wins is None or players is None:
        return [None] * game.players
    return [wins.get(p, 0) for p in players]


def _seats(
    game, engine, state, viewer: int | None, wins: list[int | None], tags: dict
) -> list[dict[str, Any]]:
    """Names (with their tags), computer markers, games won in the room, and each seat's last
    action (its type only: an action can name cards its player holds)."""
    to_act = set(engine.to_act(state))
    return [
        {
            **tags.get(s.get("user_id"), {}),
            "index": i,
            "name": s["name"],
            "bot": s["bot"],
            # A computer player's own seat: how well it plays (None for a person's seat).
            "strength": seat_strength(s) if is_computer_seat(s) else None,
            "strength_shown": is_computer_seat(s) and len(engine.strengths) > 1,
            "you": i == viewer,
            "to_act": i in to_act,
            "last_action": game.last_actions.get(str(i), ""),
            "wins": wins[i],
        }
        for i, s in enumerate(game.seats)
    ]


def _presence(seat: dict[str, Any], person: Member | None, over: bool) -> str | None:
    """ "online"; "reconnecting" (gone, within the grace period); "computer" (a computer
    holds the seat until they come back); None for a computer player's own seat."""
    if person is None or over:
        return None
    if seat["bot"]:
        return "computer"
    return "online" if person.online else "reconnecting"


def state_message(context: dict[str, Any]) -> dict[str, Any]:
    """The JSON form (the program interface, documented in docs/protocol.md)."""
    room = context["room"]
    base = {
        "room": room.code,
        "host": context["is_host"],
        "members": [{"name": m.name, "online": m.online} for m in context["members"]],
    }
    if context.get("notice"):
        base["notice"] = context["notice"]
    game = context["game"]
    if game is None:
        return {"type": "lobby", **base}
    return {
        "type": "state",
        "seq": context["seq"],
        "game": game.kind,
        "game_id": game.pk,
        "seed_sha256": game.seed_hash,
        "seat": context["seat"],
        "view": context["view"],
        "legal": context["legal"],
        "to_act": context["to_act"],
        "over": context["over"],
        "result": context["result"],
        "seats": [
            {
                "name": s["name"],
                "bot": s["bot"],
                "strength": s["strength"],
                "bot_account": s.get("bot_account", False),
                "wins": s["wins"],
                "presence": s["presence"],
            }
            for s in context["seats"]
        ],
        "speed_play": game.speed_play,
        **base,
    }


def in_reader_language(message: dict[str, Any], language: str) -> dict[str, Any]:
    """A state message with the games' sentences in its view and result said in `language`
    (its identifiers never are: docs/protocol.md, Language)."""
    if message.get("type") != "state":
        return message
    view, result = message["view"], message["result"]
    return {
        **message,
        "view": all_in_language(view, language),
        "result": all_in_language(result, language),
    }


def csrf_token_for(cookies: dict[str, str]) -> str:
    """The forms in a pushed fragment (Start game, Leave) need the page's CSRF token: the
    cookie's secret, masked as Django masks it for a page."""
    secret = cookies.get(settings.CSRF_COOKIE_NAME, "")
    if len(secret) == CSRF_SECRET_LENGTH and secret.isalnum():
        return _mask_cipher_secret(secret)
    return ""


def render_fragment(context: dict[str, Any]) -> str:
    """The HTML form: the room's main region, swapped in by the htmx ws extension."""
    return get_template("lobby/_room_main.html").render(context)


def render_watching(count: int) -> str:
    return get_template("lobby/_watching.html").render({"watching": count})


def render_chat(news: dict[str, Any]) -> str:
    """A quick chat phrase, for the page's script to show beside its seat (static/js/chat.js)."""
    return get_template("lobby/_chat_said.html").render(
        {**news, "text": gettext(chat.PHRASES[news["phrase"]])}
    )


def render_error(message: str) -> str:
    return get_template("lobby/_error.html").render({"message": message})


def render_hint(hint: dict[str, Any] | None) -> str:
    return get_template("lobby/_hint.html").render({"hint": hint})
