"""What goes over the wire hides what it must, and is what the protocol publishes: for every
multi-player game, one JSON client per seat plus spectators play a whole game through daphne;
afterwards the published log.json is replayed to know where every card was at each step, and
every state message is checked against what its receiver could see then (the engine's
visible_cards). The spectators: a member of the room without a seat, and two sockets of the
watcher link (JSON, and the HTML the watch page is sent, where a card shows as its image, its
code in an attribute, its label "Q♥" or its name "Queen of Hearts"). Every JSON message sent
and received is checked against the published JSON Schema (api.schema, as
/api/schema/table-*.json serves it)."""

from __future__ import annotations

import contextlib
import html
import itertools
import json
import random
import re
import time
from collections import Counter

import jsonschema
import pytest

from api import schema
from gameplay.engine import cards as c
from gameplay.engine import registry
from lobby.models import Room
from tests.engine.conformance import cards_in

from .client import SiteClient

pytestmark = pytest.mark.django_db(transaction=True)

KINDS = [k for k in registry.kinds() if registry.get(k).max_players > 1]
MAX_ACTIONS = 3000  # a whole game of every kind here takes far fewer
FIGURES: dict[str, int] = {"games": 0, "messages": 0, "leaks": 0, "off_schema": 0}
SEEN_TYPES: set[str] = set()
SHORT = {"war": {"rule_rounds": "50"}}  # a whole game either way; the long one adds only time


@pytest.fixture
def daphne_env():
    return {"SOCKET_RATE": "100000", "SOCKET_BURST": "100000"}


class Player:
    """A program at one seat: it plays the computer's choice from its own view and legal
    actions, and keeps every message it was sent."""

    def __init__(self, ws, engine, seat: int | None):
        self.ws, self.engine, self.seat = ws, engine, seat
        self.rng = random.Random(f"wire-{seat}")
        self.state: dict | None = None
        self.received: list[dict] = []
        self.sent: list[dict] = []
        self.acted_at = -1
        self.ids = itertools.count()

    def read(self, timeout: float) -> bool:
        try:
            message = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return False
        self.received.append(message)
        if message["type"] == "state" and (
            self.state is None or message["seq"] >= self.state["seq"]
        ):
            self.state = message
        return True

    def maybe_act(self) -> bool:
        state = self.state
        if self.seat is None:  # a spectator only watches
            return False
        if state is None or state["over"] or not state["legal"] or self.acted_at == state["seq"]:
            return False
        action = self.engine.bot(state["view"], state["legal"], self.rng)
        self.acted_at = state["seq"]
        message = {"type": "act", "action": action, "seq": state["seq"], "id": str(next(self.ids))}
        self.sent.append(message)
        self.ws.send(json.dumps(message))
        return True


class HtmlWatcher(Player):
    """The watch page's socket: HTML fragments, kept as they came; it never acts."""

    def read(self, timeout: float) -> bool:
        try:
            fragment = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return False
        seq = re.search(r'id="room-main" data-seq="(\d*)"', fragment)
        if seq is None:  # the watching count, an error: no table in it
            return True
        over = 'data-over="1"' in fragment
        self.received.append({"type": "html", "seq": int(seq[1]), "html": fragment})
        if self.state is None or int(seq[1]) >= self.state["seq"]:
            self.state = {"seq": int(seq[1]), "over": over, "legal": []}
        return True


def _watcher_invite(host: SiteClient, code: str) -> str:
    page = host.get(f"/rooms/{code}/").read().decode()
    return html.unescape(re.search(r'data-copy="[^"]*/watch/\?invite=([^"]+)"', page)[1])


def _play(base: str, kind: str) -> tuple[int, list[Player]]:
    engine = registry.get(kind)
    seats = max(engine.min_players, 2)
    people = [SiteClient(base) for _ in range(seats + 1)]  # the last one watches
    code = people[0].create_room()
    for guest in people[1:]:
        guest.post("/rooms/join/", {"code": code})
    people[0].post(
        f"/rooms/{code}/start/", {"game": kind, "seats": str(seats), **SHORT.get(kind, {})}
    )
    game_id = Room.objects.get(code=code, is_open=True).game_id
    invite = _watcher_invite(people[0], code)
    watch = f"/ws/rooms/{code}/watch/?invite={invite}"
    stranger = SiteClient(base)
    with contextlib.ExitStack() as stack:
        players = [
            Player(stack.enter_context(client.socket(code)), engine, seat if seat < seats else None)
            for seat, client in enumerate(people)
        ]
        players.append(
            Player(stack.enter_context(stranger.socket_at(watch + "&format=json")), engine, None)
        )
        players.append(HtmlWatcher(stack.enter_context(stranger.socket_at(watch)), engine, None))
        deadline = time.monotonic() + 240
        while not all(p.state and p.state["over"] for p in players):
            assert time.monotonic() < deadline, (
                f"{kind}: the game did not end in time: "
                + str([(p.seat, p.state and (p.state["seq"], p.state["over"])) for p in players])
                + "\nlast messages: "
                + str(
                    [
                        [(m["type"], m.get("seq"), m.get("message")) for m in p.received[-4:]]
                        for p in players
                    ]
                )
            )
            for player in players:
                while player.read(timeout=0.01):
                    pass
                player.maybe_act()
            if max(p.state["seq"] if p.state else 0 for p in players) > MAX_ACTIONS:
                pytest.fail(f"{kind}: no end after {MAX_ACTIONS} actions")
    return game_id, players


def _leaks(log: dict, engine, players: list[Player]) -> list[str]:
    """Replay the log; check every state message against what its seat could see then."""
    state = engine.new_game(players=log["players"], seed=log["seed"], rules=log["rules"])
    states = [json.loads(json.dumps(state))]
    for entry in log["actions"]:
        engine.apply(state, entry["seat"], entry["action"])
        states.append(json.loads(json.dumps(state)))
    found = []
    for player in players:
        for message in player.received:
            if message["type"] == "html":
                allowed = set(engine.visible_cards(states[message["seq"]], None))
                extra = cards_in_html(message["html"]) - allowed
                if extra:
                    found.append(f"HTML spectator at seq {message['seq']} saw {sorted(extra)}")
                continue
            if message["type"] != "state":
                continue
            allowed = engine.visible_cards(states[message["seq"]], player.seat)
            # `legal` names the seat's own cards once per action that uses them.
            shown = cards_in({k: v for k, v in message.items() if k != "legal"})
            extra = (shown - allowed) + Counter(set(cards_in(message["legal"])) - set(allowed))
            if extra:
                found.append(f"seat {player.seat} at seq {message['seq']} saw {dict(extra)}")
    return found


EVERY_CARD = c.deck("SHDCB", jokers=2)
CODE_IN_HTML = re.compile(
    r"""/cards/([0-9A-Z]+)\.svg|["'](10[SHDCB]|[2-9AJQK][SHDCB]|JK[12])["']"""
)
# A card as a person reads it: "Q♥" or "Queen of Hearts" (a joker is named only by its code:
# "Joker" is in rules text).
CARD_WORDS = {
    word: card
    for card in EVERY_CARD
    if not c.is_joker(card)
    for word in (c.label(card), c.card_name(card))
}
WORD_IN_HTML = re.compile(
    r"(?<![0-9A-Za-z])(" + "|".join(re.escape(w) for w in sorted(CARD_WORDS, key=len)[::-1]) + ")"
)


def cards_in_html(fragment: str) -> set[str]:
    """Every card a fragment shows or names, however it does."""
    text = html.unescape(fragment)
    found = {code for match in CODE_IN_HTML.finditer(text) for code in match.groups() if code}
    found |= {CARD_WORDS[word] for word in WORD_IN_HTML.findall(text)}
    return {card for card in found if c.is_card(card)}


@pytest.mark.parametrize("kind", KINDS)
def test_a_whole_game_on_the_wire_shows_no_card_early(daphne_server, kind):
    engine = registry.get(kind)
    game_id, players = _play(daphne_server, kind)
    log = json.loads(SiteClient(daphne_server).get(f"/games/{game_id}/log.json").read())
    seqs = [m["seq"] for p in players for m in p.received if m["type"] == "state"]
    assert max(seqs) == len(log["actions"])  # everyone saw the end, and the log is whole
    watcher = players[-1]
    assert watcher.state["over"] and watcher.state["seq"] == len(log["actions"])
    # The HTML is read for cards at all: a spectator sees some card in every game.
    assert any(cards_in_html(m["html"]) for m in watcher.received), f"{kind}: no card in HTML"
    leaks = _leaks(log, engine, players)
    FIGURES["games"] += 1
    FIGURES["messages"] += sum(len(p.received) for p in players)
    FIGURES["leaks"] += len(leaks)
    off = _off_schema(players)
    FIGURES["off_schema"] += len(off)
    print(f"\nwire: {kind} {len(log['actions'])} actions, {FIGURES}, types {sorted(SEEN_TYPES)}")
    html_leaks = [leak for leak in leaks if leak.startswith("HTML")]
    shown = leaks[:10] + html_leaks[:10]
    assert not leaks, f"{kind}: {len(leaks)} ({len(html_leaks)} in HTML) cards shown early:\n" + (
        "\n".join(shown)
    )
    assert not off, f"{kind}: messages the published schema does not allow:\n" + "\n".join(off[:10])


def _off_schema(players: list[Player]) -> list[str]:
    """Every JSON message each player received and sent, against the published schema."""
    documents = schema.socket_schemas()
    out = jsonschema.Draft202012Validator(documents["table-out"])
    into = jsonschema.Draft202012Validator(documents["table-in"])
    found = []
    for player in players:
        if isinstance(player, HtmlWatcher):
            continue  # HTML fragments for the page, not the published JSON
        for validator, messages in ((out, player.received), (into, player.sent)):
            for message in messages:
                SEEN_TYPES.add(message["type"])
                error = jsonschema.exceptions.best_match(validator.iter_errors(message))
                if error is not None:
                    found.append(f"{json.dumps(message)[:300]}: {error.message[:300]}")
    return found
