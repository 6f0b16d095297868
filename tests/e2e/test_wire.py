"""What goes over the wire hides what it must, and is what the protocol publishes: for every
multi-player game, one JSON client per seat plus a spectator play a whole game through
daphne; afterwards the published log.json is replayed to know where every card was at each
step, and every state message is checked against what its receiver could see then (the
engine's visible_cards); every message sent and received is checked against the published
JSON Schema (api.schema, as /api/schema/table-*.json serves it)."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import time
from collections import Counter

import jsonschema
import pytest

from api import schema
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
        if state is None or state["over"] or not state["legal"] or self.acted_at == state["seq"]:
            return False
        action = self.engine.bot(state["view"], state["legal"], self.rng)
        self.acted_at = state["seq"]
        message = {"type": "act", "action": action, "seq": state["seq"], "id": str(next(self.ids))}
        self.sent.append(message)
        self.ws.send(json.dumps(message))
        return True


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
    with contextlib.ExitStack() as stack:
        players = [
            Player(stack.enter_context(client.socket(code)), engine, seat if seat < seats else None)
            for seat, client in enumerate(people)
        ]
        deadline = time.monotonic() + 240
        while not all(p.state and p.state["over"] for p in players):
            assert time.monotonic() < deadline, f"{kind}: the game did not end in time"
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
            if message["type"] != "state":
                continue
            allowed = engine.visible_cards(states[message["seq"]], player.seat)
            # `legal` names the seat's own cards once per action that uses them.
            shown = cards_in({k: v for k, v in message.items() if k != "legal"})
            extra = (shown - allowed) + Counter(set(cards_in(message["legal"])) - set(allowed))
            if extra:
                found.append(f"seat {player.seat} at seq {message['seq']} saw {dict(extra)}")
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_a_whole_game_on_the_wire_shows_no_card_early(daphne_server, kind):
    engine = registry.get(kind)
    game_id, players = _play(daphne_server, kind)
    log = json.loads(SiteClient(daphne_server).get(f"/games/{game_id}/log.json").read())
    seqs = [m["seq"] for p in players for m in p.received if m["type"] == "state"]
    assert max(seqs) == len(log["actions"])  # everyone saw the end, and the log is whole
    leaks = _leaks(log, engine, players)
    FIGURES["games"] += 1
    FIGURES["messages"] += sum(len(p.received) for p in players)
    FIGURES["leaks"] += len(leaks)
    off = _off_schema(players)
    FIGURES["off_schema"] += len(off)
    print(f"\nwire: {kind} {len(log['actions'])} actions, {FIGURES}, types {sorted(SEEN_TYPES)}")
    assert not leaks, f"{kind}: cards shown early:\n" + "\n".join(leaks[:20])
    assert not off, f"{kind}: messages the published schema does not allow:\n" + "\n".join(off[:10])


def _off_schema(players: list[Player]) -> list[str]:
    """Every message each player received and sent, against the published schema."""
    documents = schema.socket_schemas()
    out = jsonschema.Draft202012Validator(documents["table-out"])
    into = jsonschema.Draft202012Validator(documents["table-in"])
    found = []
    for player in players:
        for validator, messages in ((out, player.received), (into, player.sent)):
            for message in messages:
                SEEN_TYPES.add(message["type"])
                error = jsonschema.exceptions.best_match(validator.iter_errors(message))
                if error is not None:
                    found.append(f"{json.dumps(message)[:300]}: {error.message[:300]}")
    return found
