"""Every sentence the engines say to a person comes back in French.

Each game is played through random legal play and bots, with illegal tries at every few
steps (the conformance suite's mutations); every refusal, hint, view sentence, result and
option text it produced is said in French and must differ from the English, except the few
that are the same in both languages (SAME, by template).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gameplay.engine import IllegalAction, registry
from gameplay.engine.text import Said
from gameplay.text import in_language
from tests.engine.conformance import action_mutations, unseen_card

# Templates whose French is the English (names, symbols, joins).
SAME = {
    "{rank}{suit}",
    "{list}, {item}",
    "A",
    "Joker",
    "Jokers",
    "Crazy 8",
    "8 Américain",
    "Mau-Mau",
    "Mau",
    "{why} {move}",
    "Gin Rummy",
    "Gin",
    "Gins",
    "Klondike",
    "Blackjack",
    "Cardice",
    "Gridcannon",
    "Poker",
    "Six",
    "Extraction",
}

KINDS = sorted(registry.kinds())


def _saids(value: Any, out: list[Said]) -> None:
    if isinstance(value, Said):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _saids(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _saids(v, out)


def _refusals(engine, state, rng: random.Random) -> list[str]:
    out: list[str] = []
    to_act = engine.to_act(state)
    if not to_act:
        return out
    mover = rng.choice(to_act)
    legal = engine.legal_actions(state, mover)
    not_held = unseen_card(engine, state, mover)
    tries = [(s, {"type": t}) for t in engine.moves for s in range(state["players"])]
    for action in legal[:2]:
        tries += [(mover, bad) for _, bad in action_mutations(engine, action, not_held)]
    for seat, action in tries:
        try:
            engine.apply(dict(state), seat, action)
        except IllegalAction as exc:
            out.append(exc.message)
    return out


def _who_the_game_is(engine) -> list[Any]:
    out: list[Any] = [engine.title, engine.blurb, engine.players_text(), engine.real_game.what]
    for option in engine.options:
        out += [option.label, option.help, *(option.value_label(v) for v in option.values)]
    out += [record.label for record in engine.records]
    out += [(m.name, m.about) for m in engine.milestones]
    for players in (engine.min_players - 1, engine.max_players + 1):
        try:
            engine.new_game(players, "x")
        except IllegalAction as exc:
            out.append(exc.message)
    for option in engine.options:
        try:
            engine.check_rules({option.name: object()})
        except IllegalAction as exc:
            out.append(exc.message)
    return [x for x in out if x]


def _sentences(kind: str, seed: str, players: int) -> tuple[list[Any], list[Said]]:
    """What one game said: everything (to check the type of refusals and hints) and the
    Saids found in it."""
    engine = registry.get(kind)
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    said: list[Any] = _who_the_game_is(engine)
    refusals: list[Any] = []
    for step in range(400):
        if engine.is_over(state):
            break
        if step % 7 == 0:
            refusals += _refusals(engine, state, rng)
        to_act = engine.to_act(state)
        seat = rng.choice(to_act)
        for viewer in [None, *range(players)]:
            said.append(engine.view(state, viewer))
        hint = engine.hint(state, seat)
        if hint and hint.get("message"):
            refusals.append(hint["message"])
        legal = engine.legal_actions(state, seat)
        action = rng.choice(legal) if step % 2 else engine.bot_action(state, seat)
        said.append(engine.apply(state, seat, action))
        kept: list[Said] = []
        _saids(state, kept)
        assert not kept, f"{kind}: a state keeps sentences as Said (use text.stored): {kept[:3]}"
    said.append(engine.view(state, 0))
    if engine.is_over(state):
        said.append(engine.result(state))
        refusals += _refusals(engine, state, rng)
        try:
            engine.apply(state, 0, {"type": next(iter(engine.moves))})
        except IllegalAction as exc:
            refusals.append(exc.message)
    found: list[Said] = []
    _saids(said + refusals, found)
    return refusals, found


@pytest.mark.parametrize("kind", KINDS)
def test_every_sentence_of_the_game_is_said_in_french(kind):
    engine = registry.get(kind)
    refusals: list[Any] = []
    found: list[Said] = []
    for n, players in enumerate(sorted({engine.min_players, engine.max_players})):
        r, f = _sentences(kind, f"french/{kind}/{n}", players)
        refusals += r
        found += f
    plain = sorted({str(r) for r in refusals if not isinstance(r, Said)})
    assert not plain, f"{kind}: sentences not made with say(): {plain[:10]}"
    assert len(found) > 20
    untranslated = sorted(
        {s.msgid for s in found if s.msgid not in SAME and in_language(s, "fr") == s}
    )
    assert not untranslated, f"{kind}: no French for {untranslated[:10]}"


def test_a_sentence_without_french_is_caught():
    from gameplay.engine.text import say

    missing = say("A sentence nobody translated, {n}.", n=3)
    assert in_language(missing, "fr") == missing
