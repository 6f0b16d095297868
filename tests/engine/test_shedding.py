"""Crazy 8 and 8 Américain (gameplay/engine/games/shedding/crazy8.md, american8.md): every
test case of the rules on stacked positions, the Mau-Mau and 101 presets, the custom mode's
refusals, the bot, and properties over random playouts of every mode."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalAction, registry
from gameplay.engine.cards import rng, shuffled
from gameplay.engine.cards import suit as card_suit
from gameplay.engine.games.shedding import AMERICAN8, CRAZY8, ruleset, scoring
from gameplay.engine.games.shedding.ruleset import PRESET, full_deck

from . import conformance as cf

PACKAGE = Path(ruleset.__file__).parent


def position(
    kind: str,
    hands: list[list[str]],
    top: str,
    *,
    turn: int = 0,
    rules: dict | None = None,
    stock: list[str] | None = None,
    discards: list[str] | None = None,
    suit: str | None = None,
    dealer: int | None = None,
):
    """A game of ``kind`` stopped at ``turn``'s turn with exactly these hands and discards;
    the draw pile is ``stock`` (top first) or the rest of the deck in canonical order."""
    eng = registry.get(kind)
    players = len(hands)
    state = eng.new_game(players, "position", rules)
    discards = list(discards or [top])
    if stock is None:
        used = {c for h in hands for c in h} | set(discards)
        stock = [c for c in full_deck(state["ruleset"]) if c not in used]
    state.update(
        hands=[list(h) for h in hands],
        discards=discards,
        stock=list(stock),
        suit=suit if suit is not None else (card_suit(discards[-1]) or None),
        suit_named=False,
        direction=1,
        phase="play",
        turn=turn,
        pending=0,
        pending_by=None,
        drew=False,
        cover=False,
        stuck_passes=0,
        drew_on=[[] for _ in range(players)],
        history=[],
        dealer=(turn - 1) % players if dealer is None else dealer,
    )
    return eng, state


def plays(eng, state, seat: int) -> set[str]:
    return {a["card"] for a in eng.legal_actions(state, seat) if a["type"] == "play"}


def types(eng, state, seat: int) -> set[str]:
    return {a["type"] for a in eng.legal_actions(state, seat)}


def refused(eng, state, seat: int, action: dict, match: str) -> None:
    before = cf.canon(state)
    with pytest.raises(IllegalAction, match=match):
        eng.apply(state, seat, action)
    assert cf.canon(state) == before


def conserved(state: dict) -> bool:
    held = [c for h in state["hands"] for c in h] + state["stock"] + state["discards"]
    return Counter(held) == Counter(full_deck(state["ruleset"]))


def seed_where(kind: str, players: int, test, rules: dict | None = None) -> dict:
    """The first seeded game (seeds "find-0", "find-1", ...) whose fresh state passes ``test``."""
    eng = registry.get(kind)
    for i in range(20_000):
        state = eng.new_game(players, f"find-{i}", rules)
        if test(state):
            return state
    raise AssertionError("no such seed found")


# ---- the two kinds -------------------------------------------------------------------------


def test_both_kinds_are_registered_from_one_package():
    assert registry.get("crazy8") is CRAZY8 and registry.get("american8") is AMERICAN8
    assert type(CRAZY8).__mro__[1] is type(AMERICAN8).__mro__[1]
    for eng in (CRAZY8, AMERICAN8):
        assert (eng.min_players, eng.max_players, eng.rated) == (2, 4, True)
    assert CRAZY8.default_rules()["mode"] == "crazy8"
    assert AMERICAN8.default_rules()["mode"] == "american8"
    assert set(CRAZY8.default_rules().values()) == {"crazy8", PRESET}


def test_custom_options_show_only_in_custom_mode_and_name_every_value():
    for eng in (CRAZY8, AMERICAN8):
        mode, *custom = eng.options
        assert mode.name == "mode" and mode.shown_when == {}
        assert mode.values[-1] == "custom" and len(mode.labels) == len(mode.values)
        for option in custom:
            assert option.shown_when == {"mode": "custom"}
            assert option.values[0] == PRESET and len(option.labels) == len(option.values)
            assert option.labels[0].startswith(f"As in {eng.title} (")
    assert CRAZY8.options[0].values == ("crazy8", "maumau", "101", "custom")
    assert AMERICAN8.options[0].values == ("american8", "custom")
    labels = dict(zip(AMERICAN8.options[2].values, AMERICAN8.options[2].labels, strict=True))
    assert labels[PRESET] == "As in 8 Américain (Two)"


def test_rules_files_share_their_exact_part_and_keep_the_format():
    texts = {kind: (PACKAGE / f"{kind}.md").read_text() for kind in ("crazy8", "american8")}
    exact = {kind: text.split("\n## Exact rules\n", 1)[1] for kind, text in texts.items()}
    assert exact["crazy8"] == exact["american8"]
    assert texts["crazy8"].startswith("# Crazy 8\n")
    assert texts["american8"].startswith("# 8 Américain\n")
    for text in texts.values():
        assert "\n## How to play\n" in text
        numbered = re.findall(r"^### (\d+)\. ", text, flags=re.M)
        assert numbered == [str(n) for n in range(1, 9)]
        for line in text.splitlines():
            if line.startswith("cards: "):
                shown, caption = line[len("cards: ") :].split(" — ", 1)
                assert caption and all(c == "|" or cf.CARD_RE.match(c) for c in shown.split())


# ---- §9.1 deal sizes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("eng", "players", "each", "pile"),
    [(CRAZY8, 2, 7, 37), (CRAZY8, 3, 5, 36), (CRAZY8, 4, 5, 31), (AMERICAN8, 3, 8, 29)],
)
def test_deal_sizes(eng, players, each, pile):
    state = eng.new_game(players, "deal-sizes")
    assert [len(h) for h in state["hands"]] == [each] * players
    assert len(state["discards"]) == 1 and len(state["stock"]) == pile
    assert conserved(state)


def test_the_deal_goes_one_at_a_time_from_the_dealers_left():
    state = CRAZY8.new_game(3, "deal-order")
    dealer = rng("deal-order", "first-dealer", 1).randrange(3)
    cards = shuffled(full_deck(state["ruleset"]), "deal-order", "deal", 1)
    assert state["dealer"] == dealer
    for seat in range(3):
        offset = (seat - dealer - 1) % 3
        assert state["hands"][seat] == cards[offset:15:3]
    assert state["discards"] == [cards[15]] and state["stock"] == cards[16:]
    assert CRAZY8.to_act(state) == [(dealer + 1) % 3]


# ---- §9.2–9.5 matching, named suit, drawing --------------------------------------------------


def test_matching_crazy8():
    eng, state = position("crazy8", [["6S", "2H", "8D", "9C"], ["KD"]], "6H")
    assert plays(eng, state, 0) == {"6S", "2H", "8D"}
    assert {"type": "play", "card": "8D", "suit": "C"} in eng.legal_actions(state, 0)
    refused(eng, state, 0, {"type": "play", "card": "8D"}, "Name the suit")
    refused(eng, state, 0, {"type": "play", "card": "6S", "suit": "H"}, "Only a wild card")
    refused(eng, state, 0, {"type": "play", "card": "9C"}, "doesn't match: play a ♥ or a 6")


def test_named_suit():
    eng, state = position("crazy8", [["8S", "4C"], ["KS", "5D", "8H"]], "3S")
    eng.apply(state, 0, {"type": "play", "card": "8S", "suit": "D"})
    view = eng.view(state, 1)
    assert (view["suit"], view["suit_named"], view["top"]) == ("D", True, "8S")
    assert plays(eng, state, 1) == {"5D", "8H"}
    refused(eng, state, 1, {"type": "play", "card": "KS"}, "doesn't match: play a ♦")


@pytest.mark.parametrize(("drawn", "after"), [("9H", {"play", "pass"}), ("2C", {"pass"})])
def test_draw_then_play_or_pass(drawn, after):
    eng, state = position("crazy8", [["5S"], ["KS", "9C"]], "4H", turn=1, stock=[drawn, "3S"])
    assert types(eng, state, 1) == {"draw"}
    events = eng.apply(state, 1, {"type": "draw"})
    assert events[-1] == {
        "type": "card_drawn",
        "seat": 1,
        "count": 1,
        "cards": [drawn],
        "private": ["cards"],
    }
    assert types(eng, state, 1) == after
    assert plays(eng, state, 1) == ({"9H"} if drawn == "9H" else set())
    refused(eng, state, 1, {"type": "draw"}, "already drawn")
    eng.apply(state, 1, {"type": "pass"})
    assert eng.to_act(state) == [0] and state["drew_on"][1] == ["H"]


@pytest.mark.parametrize("kind", ["crazy8", "american8"])
def test_free_draw(kind):
    eng, state = position(kind, [["KS", "QS"], ["5H", "QC"]], "4H", turn=1)
    assert "draw" in types(eng, state, 1) and "5H" in plays(eng, state, 1)


def test_no_free_draw_in_101():
    eng, state = position(
        "crazy8", [["KS", "QS"], ["10H", "JC"]], "8H", turn=1, rules={"mode": "101"}
    )
    refused(eng, state, 1, {"type": "draw"}, "You have a card to play")
    state["hands"][1] = ["JC", "10C"]
    assert types(eng, state, 1) == {"draw"}


# ---- §9.6 blocked round --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "winners"),
    [
        ([["2H", "3H", "4H"], ["5H", "6H"], ["9D", "10D", "JD", "QD"]], [1]),
        ([["2H", "3H"], ["5H", "6H"], ["9D", "10D", "JD", "QD"]], []),
    ],
)
def test_blocked_round(hands, winners):
    eng, state = position("crazy8", hands, "7C", stock=[])
    for seat in (0, 1):
        assert types(eng, state, seat) == {"pass"}
        eng.apply(state, seat, {"type": "pass"})
        assert not eng.is_over(state)
    events = eng.apply(state, 2, {"type": "pass"})
    assert [e["type"] for e in events] == [
        "turn_passed",
        "round_blocked",
        "round_ended",
        "game_ended",
    ]
    result = eng.result(state)
    assert result["winners"] == winners
    assert result["scores"] == [len(h) for h in hands]
    view = eng.view(state, None)
    assert view["last_round"]["blocked"] and view["last_round"]["hands"] == hands


def test_a_pass_after_drawing_a_playable_card_does_not_count_towards_a_block():
    eng, state = position("crazy8", [["2H"], ["5H", "6H"]], "7C", stock=["9C"])
    eng.apply(state, 0, {"type": "draw"})
    eng.apply(state, 0, {"type": "pass"})
    eng.apply(state, 1, {"type": "pass"})
    assert not eng.is_over(state) and state["stuck_passes"] == 1
    assert plays(eng, state, 0) == {"9C"} and "pass" not in types(eng, state, 0)


# ---- §9.7–9.11 action cards ----------------------------------------------------------------


def test_two_chain_american8():
    hands = [["2H", "7S", "2C", "KD"], ["2S", "5C", "QD"], ["3H", "4D", "9C"]]
    eng, state = position("american8", hands, "6H")
    eng.apply(state, 0, {"type": "play", "card": "2H"})
    assert plays(eng, state, 1) == {"2S"} and "take" in types(eng, state, 1)
    eng.apply(state, 1, {"type": "play", "card": "2S"})
    assert eng.view(state, 2)["pending"] == {"count": 4, "by": "2", "seat": 2, "stackable": True}
    assert types(eng, state, 2) == {"take"}
    refused(eng, state, 2, {"type": "draw"}, "Take the 4 cards, or answer with a 2")
    events = eng.apply(state, 2, {"type": "take"})
    assert events[-1]["type"] == "cards_taken" and events[-1]["count"] == 4
    assert len(state["hands"][2]) == 7 and state["stats"]["penalties_stacked"][1] == 1
    assert eng.view(state, 0)["pending"] is None
    assert plays(eng, state, 0) == {"7S", "2C"}


def test_no_mixing_of_twos_and_jokers():
    eng, state = position("american8", [["2H", "KD"], ["JK1", "2D", "5H"]], "6H")
    eng.apply(state, 0, {"type": "play", "card": "2H"})
    legal = eng.legal_actions(state, 1)
    assert legal == [{"type": "play", "card": "2D"}, {"type": "take"}]
    refused(eng, state, 1, {"type": "play", "card": "JK1"}, "answer with a 2")
    refused(eng, state, 1, {"type": "play", "card": "5H"}, "answer with a 2")


@pytest.mark.parametrize("answer", ["stack", "take"])
def test_joker(answer):
    hands = [["JK1", "KD", "QD"], ["JK2", "3S", "4S"], ["5C", "6C", "7H"]]
    eng, state = position("american8", hands, "6H")
    eng.apply(state, 0, {"type": "play", "card": "JK1"})
    assert state["suit"] is None and plays(eng, state, 1) == {"JK2"}
    if answer == "stack":
        eng.apply(state, 1, {"type": "play", "card": "JK2"})
        assert eng.view(state, 2)["pending"]["count"] == 8
        assert types(eng, state, 2) == {"take"}
    else:
        eng.apply(state, 1, {"type": "take"})
        assert len(state["hands"][1]) == 7
        assert plays(eng, state, 2) == {"5C", "6C", "7H"}
        eng.apply(state, 2, {"type": "play", "card": "5C"})


def test_skip_four_seats():
    hands = [["JH", "KD", "QD"], ["JD", "3S"], ["5H", "6C"], ["9S", "4C"]]
    eng, state = position("american8", hands, "6H")
    events = eng.apply(state, 0, {"type": "play", "card": "JH"})
    assert {"type": "seat_skipped", "seat": 1} in events
    assert eng.to_act(state) == [2] and eng.legal_actions(state, 1) == []
    refused(eng, state, 1, {"type": "play", "card": "JD"}, "not your turn")


def test_reverse_four_seats():
    hands = [["KD", "QD", "4C"], ["AC", "3S", "9H"], ["5H", "6C"], ["9S", "4D", "7C"]]
    eng, state = position("american8", hands, "6C", turn=1)
    eng.apply(state, 1, {"type": "play", "card": "AC"})
    assert eng.to_act(state) == [0] and eng.view(state, 0)["clockwise"] is False
    eng.apply(state, 0, {"type": "play", "card": "4C"})
    assert eng.to_act(state) == [3]


def test_two_players_reverse_and_skip():
    eng, state = position("american8", [["JD", "AD", "5D", "KS"], ["3S", "4C"]], "6D")
    eng.apply(state, 0, {"type": "play", "card": "JD"})
    assert eng.to_act(state) == [0]
    eng.apply(state, 0, {"type": "play", "card": "AD"})
    assert eng.to_act(state) == [1] and state["direction"] == -1


# ---- §9.12–9.13 the call and the last card -------------------------------------------------


@pytest.mark.parametrize(("knock", "left"), [(False, 5), (True, 1)])
def test_knock(knock, left):
    eng, state = position("american8", [["5H", "9H"], ["3S", "4S", "6D"]], "5C")
    legal = eng.legal_actions(state, 0)
    assert {"type": "play", "card": "5H", "knock": True} in legal
    assert {"type": "play", "card": "5H"} in legal
    action = {"type": "play", "card": "5H", **({"knock": True} if knock else {})}
    events = eng.apply(state, 0, action)
    assert len(state["hands"][0]) == left
    kinds = [e["type"] for e in events]
    assert ("knocked" in kinds) == knock and ("penalty_drawn" in kinds) != knock
    facts = eng.facts(state, 0)
    assert (facts["knocks"], facts["knocks_forgotten"]) == ((1, 0) if knock else (0, 1))


def test_never_a_knock_penalty_in_crazy8():
    eng, state = position("crazy8", [["5H", "9H"], ["3S", "4S"]], "5C")
    assert {"type": "play", "card": "5H", "knock": True} not in eng.legal_actions(state, 0)
    refused(eng, state, 0, {"type": "play", "card": "5H", "knock": True}, "no last-card call")
    eng.apply(state, 0, {"type": "play", "card": "5H"})
    assert len(state["hands"][0]) == 1


def test_a_knock_at_the_wrong_moment_is_refused():
    eng, state = position("american8", [["5H", "9H", "KH"], ["3S", "4S"]], "5C")
    refused(eng, state, 0, {"type": "play", "card": "5H", "knock": True}, "second-to-last")
    refused(eng, state, 0, {"type": "play", "card": "5H", "knock": False}, "knock: true")


def test_mau_is_the_call_in_mau_mau():
    rules = {"mode": "maumau"}
    eng, state = position("crazy8", [["9H", "KH"], ["10S", "AS"]], "9C", rules=rules)
    assert eng.view(state, 0)["announce"] == "Mau" and eng.view(state, 0)["you"]["call_due"]
    eng.apply(state, 0, {"type": "play", "card": "9H"})
    assert len(state["hands"][0]) == 3  # one left plus 2 for the missed "Mau"


def test_last_card_special_american8():
    eng, state = position("american8", [["8C"], ["3S", "4S"]], "3D")
    refused(eng, state, 0, {"type": "play", "card": "8C", "suit": "H"}, "can't go out on a special")
    assert types(eng, state, 0) == {"draw"}
    assert eng.view(state, 0)["you"]["hand"] == [
        {"card": "8C", "playable": False, "wild": True, "special": True}
    ]


def test_last_card_special_crazy8():
    eng, state = position("crazy8", [["8C"], ["3S", "4S"]], "3D")
    eng.apply(state, 0, {"type": "play", "card": "8C", "suit": "H"})
    assert eng.is_over(state) and eng.result(state)["winners"] == [0]
    assert eng.view(state, 1)["rounds_won"] == [1, 0]


def test_going_out_on_a_draw_card_drops_the_pending_draw():
    rules = {"mode": "custom", "draw2": True, "stacking": True}
    eng, state = position("crazy8", [["2S"], ["2H", "4S", "5D"]], "6H", turn=1, rules=rules)
    eng.apply(state, 1, {"type": "play", "card": "2H"})
    assert eng.view(state, 0)["pending"]["count"] == 2
    eng.apply(state, 0, {"type": "play", "card": "2S"})
    assert eng.is_over(state) and eng.result(state)["winners"] == [0]
    assert eng.view(state, 1)["pending"] is None and state["hands"][1] == ["4S", "5D"]


def test_a_plain_joker_starter_lets_any_card_follow():
    rules = {"mode": "custom", "starter_effect": False}
    state = seed_where("american8", 2, lambda s: s["discards"][0].startswith("JK"), rules)
    seat = AMERICAN8.to_act(state)[0]
    assert state["suit"] is None and state["pending"] == 0
    assert plays(AMERICAN8, state, seat) == set(state["hands"][seat])


def test_lone_special_with_nothing_to_draw_passes():
    eng, state = position("american8", [["JS"], ["3D", "4D"]], "3S", stock=[])
    assert types(eng, state, 0) == {"pass"}


# ---- §9.14–9.15 starter effects and two players --------------------------------------------


def dealer0_starter(card: str) -> dict:
    return seed_where(
        "american8", 3, lambda s: s["dealer"] == 0 and s["discards"] == [card] and s["round"] == 1
    )


def test_starter_jack_skips_the_first_seat():
    state = dealer0_starter("JS")
    assert AMERICAN8.to_act(state) == [2]


def test_starter_ace_reverses():
    state = dealer0_starter("AD")
    assert state["direction"] == -1 and AMERICAN8.to_act(state) == [2]
    AMERICAN8.apply(state, 2, {"type": "draw"})
    AMERICAN8.apply(state, 2, {"type": "pass"})
    assert AMERICAN8.to_act(state) == [1]


def test_starter_two_makes_a_pending_draw():
    state = dealer0_starter("2C")
    assert AMERICAN8.to_act(state) == [1] and state["pending"] == 2
    assert "take" in types(AMERICAN8, state, 1)


def test_starter_eight_lets_the_dealer_name_the_suit():
    state = dealer0_starter("8H")
    assert AMERICAN8.to_act(state) == [0]
    assert AMERICAN8.legal_actions(state, 0) == [{"type": "choose_suit", "suit": s} for s in "SHDC"]
    refused(AMERICAN8, state, 0, {"type": "play", "card": state["hands"][0][0]}, "Name the suit")
    AMERICAN8.apply(state, 0, {"type": "choose_suit", "suit": "C"})
    assert AMERICAN8.to_act(state) == [1] and state["suit"] == "C"


def test_starter_is_plain_in_crazy8():
    state = seed_where("crazy8", 2, lambda s: s["discards"][0].startswith("8"))
    assert state["phase"] == "play" and state["suit"] == state["discards"][0][-1]
    assert CRAZY8.to_act(state) == [(state["dealer"] + 1) % 2]


def test_two_players_skip():
    eng, state = position("american8", [["JD", "5D", "KS"], ["3S", "4C"]], "6D")
    eng.apply(state, 0, {"type": "play", "card": "JD"})
    assert eng.to_act(state) == [0]


# ---- §9.16–9.17 scoring and the end --------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "points"), [(["8C", "JK1", "3D"], 80), (["2S", "2H", "KD"], 50), (["AS", "9C"], 20)]
)
def test_round_scoring_american8(hand, points):
    assert scoring.hand_value(AMERICAN8.new_game(2, "v")["ruleset"], hand) == points


@pytest.mark.parametrize(
    ("before", "after", "winners"),
    [([40, 92, 70], [40, 102, 75], [0]), ([60, 90, 55], [60, 100, 60], [0, 2])],
)
def test_game_end_american8(before, after, winners):
    eng, state = position("american8", [["5C"], ["KD"], ["4D"]], "6C")
    state["totals"] = list(before)
    events = eng.apply(state, 0, {"type": "play", "card": "5C"})
    assert eng.is_over(state) and events[-1]["type"] == "game_ended"
    assert eng.result(state) == {
        "scores": after,
        "winners": winners,
        "ranking": cf_ranking(after),
    }
    assert eng.view(state, 1)["sheet"][-1] == {
        "round": 1,
        "winner": 0,
        "added": [0, 10, 5],
        "totals": after,
    }


def cf_ranking(totals: list[int]) -> list[list[int]]:
    return [[s for s, t in enumerate(totals) if t == v] for v in sorted(set(totals))]


def test_a_round_below_the_target_deals_the_next_with_the_next_dealer():
    eng, state = position("american8", [["5C"], ["KD"]], "6C", dealer=1)
    events = eng.apply(state, 0, {"type": "play", "card": "5C"})
    assert not eng.is_over(state) and state["round"] == 2 and state["dealer"] == 0
    assert [e["type"] for e in events][:3] == ["card_played", "round_ended", "round_dealt"]
    assert state["totals"] == [0, 10] and [len(h) for h in state["hands"]] == [8, 8]
    view = eng.view(state, 1)
    assert view["last_round"]["hands"] == [[], ["KD"]] and view["last_round"]["card"] == "5C"
    cf.check_views(eng, state)


# ---- §9.18 reshuffle -----------------------------------------------------------------------


def test_reshuffle():
    eng, state = position(
        "crazy8", [["4S", "5S"], ["6D", "7D"]], "KH", stock=[], discards=["3C", "9D", "KH"]
    )
    expected = shuffled(["3C", "9D"], state["seed"], "reshuffle", 1)
    events = eng.apply(state, 0, {"type": "draw"})
    assert events[0] == {"type": "discards_reshuffled", "count": 2, "reshuffle": 1}
    assert state["hands"][0][-1] == expected[0] and state["stock"] == expected[1:]
    assert state["discards"] == ["KH"] and conserved_in(state, 7)


def conserved_in(state: dict, cards: int) -> bool:
    return (
        sum(len(h) for h in state["hands"]) + len(state["stock"]) + len(state["discards"]) == cards
    )


def test_a_penalty_beyond_the_cards_left_is_forgiven():
    eng, state = position("american8", [["2H", "KD", "QD"], ["3S", "4S"]], "6H", stock=[])
    eng.apply(state, 0, {"type": "play", "card": "2H"})
    events = eng.apply(state, 1, {"type": "take"})
    assert events[0] == {"type": "discards_reshuffled", "count": 1, "reshuffle": 1}
    assert events[-1]["count"] == 1 and events[-1]["owed"] == 2
    assert state["hands"][1] == ["3S", "4S", "6H"] and state["discards"] == ["2H"]
    assert state["pending"] == 0 and eng.to_act(state) == [0]


# ---- §9.19 and custom validation -----------------------------------------------------------


@pytest.mark.parametrize(
    ("eng", "rules", "message"),
    [
        (AMERICAN8, {"mode": "american8", "knock_penalty": 2}, "fixed rules"),
        (CRAZY8, {"mode": "101", "deck": 52}, "101 plays fixed rules"),
        (CRAZY8, {"mode": "crazy8", "jokers": 0}, "Crazy 8 plays fixed rules"),
        (AMERICAN8, {"mode": "custom", "jokers": 0, "draw4_joker": True}, "without jokers"),
        (CRAZY8, {"mode": "custom", "jokers": 0, "draw4_joker": True}, "without jokers"),
        (CRAZY8, {"mode": "custom", "deck": 32, "jokers": 2}, "only come with the 52-card"),
        (CRAZY8, {"mode": "custom", "deck": 36, "draw4_joker": True}, "Joker draws four needs"),
        (AMERICAN8, {"mode": "custom", "deck": 36, "draw2": True}, "no 2s in a 36-card deck"),
        (CRAZY8, {"mode": "custom", "deck": 32, "effects": "101"}, "need the 6s"),
        (
            CRAZY8,
            {"mode": "custom", "effects": "maumau", "skip_jack": True},
            "leave “Jack skips” as in the preset",
        ),
        (CRAZY8, {"mode": "custom", "effects": "101", "stacking": True}, "no draw card to stack"),
        (
            AMERICAN8,
            {"mode": "custom", "stacking": True, "draw2": False, "draw4_joker": False},
            "Stacking needs a draw card",
        ),
        (
            AMERICAN8,
            {"mode": "custom", "scoring": "wins", "target": 200},
            "A target score needs points",
        ),
        (
            CRAZY8,
            {"mode": "custom", "scoring": "wins", "values": "classic"},
            "Card values need points",
        ),
        (
            CRAZY8,
            {"mode": "custom", "scoring": "wins", "last_card_bonus": "queen"},
            "A last-card bonus needs",
        ),
        (CRAZY8, {"mode": "custom", "announce": "mau", "knock_penalty": 0}, "needs a penalty"),
        (CRAZY8, {"mode": "custom", "deck": 32, "hand_size": 8}, "need 33 cards: the deck has 32"),
        (CRAZY8, {"mode": "custom", "hand_size": 10}, "need 41 cards: the deck has 36"),
        (CRAZY8, {"mode": "custom", "wish8": "yes"}, "8s are wild must be one of"),
    ],
)
def test_bad_rules_are_refused_with_their_reason(eng, rules, message):
    players = 4 if rules.get("hand_size") == 10 or rules.get("deck") == 32 else 2
    if rules.get("hand_size") == 10:
        rules = {**rules, "deck": 36}
    with pytest.raises(IllegalAction, match=message):
        eng.new_game(players, "bad", rules)


@pytest.mark.parametrize(
    ("eng", "rules", "expect"),
    [
        (AMERICAN8, {"mode": "custom", "jokers": 0}, {"jokers": 0, "effects_has_jk": False}),
        (AMERICAN8, {"mode": "custom", "deck": 36}, {"jokers": 0, "effects_has_2": False}),
        (CRAZY8, {"mode": "custom", "draw4_joker": True}, {"jokers": 2, "effects_has_jk": True}),
        (CRAZY8, {"mode": "custom", "target": 200}, {"scoring": "points", "values": "classic"}),
        (AMERICAN8, {"mode": "custom", "scoring": "wins"}, {"target": None, "values": None}),
        (CRAZY8, {"mode": "custom", "announce": "mau"}, {"knock_penalty": 2, "announce": "mau"}),
        (AMERICAN8, {"mode": "custom"}, {"mode": "custom", "jokers": 2, "hand_size": 8}),
    ],
)
def test_defaults_yield_to_what_was_given(eng, rules, expect):
    rs = eng.new_game(3, "yield", rules)["ruleset"]
    for key, value in expect.items():
        if key == "effects_has_jk":
            assert ("JK" in rs["effects"]) == value
        elif key == "effects_has_2":
            assert ("2" in rs["effects"]) == value
        else:
            assert rs[key] == value, key


def test_stored_rules_replay_the_same_game():
    rules = {"mode": "custom", "deck": 36, "hand_size": 6, "scoring": "points"}
    state = CRAZY8.new_game(3, "stored", rules)
    again = CRAZY8.new_game(3, "stored", state["rules"])
    assert again == state and state["rules"]["jokers"] == PRESET


# ---- Mau-Mau and 101 -----------------------------------------------------------------------


def test_maumau_preset():
    state = CRAZY8.new_game(4, "mau", {"mode": "maumau"})
    rs = state["ruleset"]
    assert len(full_deck(rs)) == 32 and [len(h) for h in state["hands"]] == [5] * 4
    assert rs["effects"] == {"J": "wish", "7": "draw:2", "8": "skip"}
    assert conserved(state)


def test_maumau_seven_on_seven_makes_the_third_seat_draw_four():
    hands = [["7H", "KH", "QS"], ["7S", "9S", "AD"], ["10D", "KC", "QC"]]
    eng, state = position("crazy8", hands, "9H", rules={"mode": "maumau"})
    eng.apply(state, 0, {"type": "play", "card": "7H"})
    eng.apply(state, 1, {"type": "play", "card": "7S"})
    assert eng.legal_actions(state, 2) == [{"type": "take"}]
    eng.apply(state, 2, {"type": "take"})
    assert len(state["hands"][2]) == 7


def test_maumau_eight_skips_one_seat_and_cannot_be_answered():
    hands = [["8H", "KH", "QS"], ["8D", "9S", "AD"], ["10D", "KC", "QC"]]
    eng, state = position("crazy8", hands, "9H", rules={"mode": "maumau"})
    eng.apply(state, 0, {"type": "play", "card": "8H"})
    assert eng.to_act(state) == [2] and eng.legal_actions(state, 1) == []
    assert state["pending"] == 0


def test_maumau_jack_on_jack_names_a_new_suit():
    hands = [["JH", "KH", "QS"], ["JD", "9S", "AD"], ["10D", "KC", "QC"]]
    eng, state = position("crazy8", hands, "9C", rules={"mode": "maumau"})
    eng.apply(state, 0, {"type": "play", "card": "JH", "suit": "S"})
    assert plays(eng, state, 1) == {"JD", "9S"}
    eng.apply(state, 1, {"type": "play", "card": "JD", "suit": "C"})
    assert state["suit"] == "C" and plays(eng, state, 2) == {"KC", "QC"}


def test_maumau_round_won_on_a_jack_doubles():
    eng, state = position("crazy8", [["JH"], ["AS", "10S"]], "9C", rules={"mode": "maumau"})
    eng.apply(state, 0, {"type": "play", "card": "JH", "suit": "S"})
    assert state["totals"] == [0, 42]


def test_101_preset():
    state = CRAZY8.new_game(4, "hundred", {"mode": "101"})
    rs = state["ruleset"]
    assert len(full_deck(rs)) == 36 and rs["hand_size"] == 4 and rs["target"] == 101
    assert sum(len(h) for h in state["hands"]) >= 16 and conserved(state)
    assert CRAZY8.new_game(3, "hundred", {"mode": "101"})["ruleset"]["hand_size"] == 5


def test_101_nine_is_covered_drawing_until_the_player_can():
    hands = [["9H", "KC", "10S"], ["6D", "7D"]]
    stock = ["KD", "10C", "8H", "AS"]
    eng, state = position("crazy8", hands, "9C", rules={"mode": "101"}, stock=stock)
    eng.apply(state, 0, {"type": "play", "card": "9H"})
    assert eng.to_act(state) == [0] and eng.view(state, 0)["cover"]
    assert types(eng, state, 0) == {"draw"}
    refused(eng, state, 0, {"type": "pass"}, "Draw until you can cover")
    eng.apply(state, 0, {"type": "draw"})
    eng.apply(state, 0, {"type": "draw"})
    assert types(eng, state, 0) == {"draw"}
    eng.apply(state, 0, {"type": "draw"})
    assert plays(eng, state, 0) == {"8H"} and types(eng, state, 0) == {"play"}
    eng.apply(state, 0, {"type": "play", "card": "8H"})
    assert eng.to_act(state) == [1] and not state["cover"]


def test_101_king_of_spades_draws_four_and_skips_while_other_kings_are_plain():
    hands = [["KS", "KH", "10S", "JD"], ["6C", "7C", "AD"], ["9D", "10D", "QC"]]
    eng, state = position("crazy8", hands, "8S", rules={"mode": "101"})
    events = eng.apply(state, 0, {"type": "play", "card": "KS"})
    assert len(state["hands"][1]) == 7 and eng.to_act(state) == [2]
    penalty = next(e for e in events if e["type"] == "penalty_drawn")
    assert (penalty["seat"], penalty["count"], penalty["reason"]) == (1, 4, "K♠")
    eng2, state2 = position("crazy8", hands, "8H", rules={"mode": "101"})
    eng2.apply(state2, 0, {"type": "play", "card": "KH"})
    assert len(state2["hands"][1]) == 3 and eng2.to_act(state2) == [1]


def test_101_six_and_seven_draw_and_skip_never_passed_on():
    hands = [["6S", "7S", "10H"], ["6C", "7C", "AD"], ["9D", "10D", "QC"]]
    eng, state = position("crazy8", hands, "8S", rules={"mode": "101"})
    eng.apply(state, 0, {"type": "play", "card": "6S"})
    assert len(state["hands"][1]) == 4 and eng.to_act(state) == [2]
    assert state["pending"] == 0


@pytest.mark.parametrize(("before", "after"), [(96, 50), (97, 0), (90, 94), (98, 102)])
def test_101_totals(before, after):
    rs = CRAZY8.new_game(2, "t", {"mode": "101"})["ruleset"]
    assert scoring.add_totals(rs, [0, before], [0, 4]) == [0, after]
    assert scoring.game_over(rs, [0, after]) == (after > 101)


def test_101_going_out_on_the_queen_of_spades_takes_40_off():
    eng, state = position("crazy8", [["QS"], ["6H", "10H"]], "9C", rules={"mode": "101"})
    state["totals"] = [30, 20]
    eng.apply(state, 0, {"type": "play", "card": "QS", "suit": "H"})
    assert state["totals"] == [-10, 36]


def test_101_a_lone_queen_left_counts_20_or_40():
    rs = CRAZY8.new_game(2, "q", {"mode": "101"})["ruleset"]
    assert scoring.hand_value(rs, ["QH"]) == 20 and scoring.hand_value(rs, ["QS"]) == 40
    assert scoring.hand_value(rs, ["QH", "AS"]) == 14


# ---- the view, facts and hints -------------------------------------------------------------


def test_view_gives_the_table_what_it_draws():
    eng, state = position("american8", [["2H", "5S", "8D"], ["3S", "4D"]], "6H")
    view = eng.view(state, 0)
    assert view["turn"] == 0 and view["next_seat"] == 1 and view["hand_counts"] == [3, 2]
    assert view["suit_symbol"] == "♥" and view["stock_count"] == len(state["stock"])
    hand = {h["card"]: h for h in view["you"]["hand"]}
    assert hand["2H"]["playable"] and hand["8D"]["playable"] and not hand["5S"]["playable"]
    assert hand["8D"]["wild"] and hand["2H"]["special"] and not hand["5S"]["special"]
    assert view["you"]["points_in_hand"] == 15 + 5 + 25
    assert {row["label"]: row["effect"] for row in view["effects"]} == {
        "8": "wish",
        "A": "reverse",
        "J": "skip",
        "2": "draw",
        "Joker": "draw",
    }
    assert "you" not in eng.view(state, None)
    other = eng.view(state, 1)["you"]
    assert not other["my_turn"] and not any(h["playable"] for h in other["hand"])


def test_history_tells_the_table_who_did_what():
    hands = [["5H", "9H", "JH"], ["2H", "4S", "6D", "KC"]]
    stock = ["3D", "QS", "7C", "10S", "4C", "3C", "KD", "QD"]
    eng, state = position("american8", hands, "7H", stock=stock)
    eng.apply(state, 0, {"type": "play", "card": "JH"})  # Jack: seat 1 is skipped
    eng.apply(state, 0, {"type": "play", "card": "5H"})  # two cards left, no knock: draws 4
    eng.apply(state, 1, {"type": "play", "card": "2H"})  # seat 0 owes 2
    eng.apply(state, 0, {"type": "take"})
    eng.apply(state, 1, {"type": "draw"})
    eng.apply(state, 1, {"type": "pass"})
    # The last six moves (three per seat): the Jack has dropped off.
    assert eng.view(state, None)["history"] == [
        {"seat": 1, "did": "skipped"},
        {"seat": 0, "did": "play", "card": "5H", "suit": None, "knock": False},
        {"seat": 0, "did": "forgot", "count": 4},
        {"seat": 1, "did": "play", "card": "2H", "suit": None, "knock": False},
        {"seat": 0, "did": "take", "count": 2},
        {"seat": 1, "did": "draw", "count": 1, "passed": True},
    ]


def test_history_keeps_the_last_moves_and_never_names_a_drawn_card():
    hands = [["3C", "8D"], ["4S", "6D"]]
    eng, state = position("crazy8", hands, "7H", stock=["KH", "6H"])
    eng.apply(state, 0, {"type": "draw"})
    eng.apply(state, 0, {"type": "pass"})
    eng.apply(state, 1, {"type": "draw"})
    assert state["history"] == [
        {"seat": 0, "did": "draw", "count": 1, "passed": True},
        {"seat": 1, "did": "draw", "count": 1, "passed": False},
    ]
    eng.apply(state, 1, {"type": "play", "card": "6H"})
    eng.apply(state, 0, {"type": "play", "card": "8D", "suit": "S"})
    assert state["history"][-1] == {
        "seat": 0,
        "did": "play",
        "card": "8D",
        "suit": "S",
        "knock": False,
    }
    for seed in range(5):
        state = CRAZY8.new_game(3, f"h{seed}")
        while not CRAZY8.is_over(state):
            seat = CRAZY8.to_act(state)[0]
            CRAZY8.apply(state, seat, CRAZY8.bot_action(state, seat))
            assert len(state["history"]) <= 9


def test_history_of_101_penalties_and_a_wild_starter():
    hands = [["7S", "10H", "JD"], ["6C", "7C", "AD"], ["9D", "10D", "QC"]]
    eng, state = position("crazy8", hands, "8S", rules={"mode": "101"})
    eng.apply(state, 0, {"type": "play", "card": "7S"})
    assert state["history"][-1] == {"seat": 1, "did": "penalty", "count": 2}
    state = AMERICAN8.new_game(2, "starter1")  # an 8 turned up first: the dealer names a suit
    dealer = state["dealer"]
    AMERICAN8.apply(state, dealer, {"type": "choose_suit", "suit": "C"})
    assert state["history"] == [
        {"seat": dealer, "did": "start", "card": "8H"},
        {"seat": dealer, "did": "name", "suit": "C"},
    ]


def test_101_effects_table_shows_the_king_of_spades_without_a_card_string():
    view = CRAZY8.view(CRAZY8.new_game(2, "v101", {"mode": "101"}), None)
    king = next(row for row in view["effects"] if row["rank"] == "K")
    assert king == {
        "rank": "K",
        "suit": "S",
        "label": "K♠",
        "effect": "draw_skip",
        "count": 4,
        "text": "the next player draws 4 and is skipped",
    }


def test_facts_and_records():
    eng, state = position("american8", [["5C"], ["KD"]], "6C")
    state["totals"] = [10, 95]
    eng.apply(state, 0, {"type": "play", "card": "5C"})
    facts = eng.facts(state, 0)
    assert facts["won"] == 1 and facts["rounds_won"] == 1 and facts["points"] == 10
    for record in AMERICAN8.records + CRAZY8.records:
        assert record.fact in facts
    assert "points" not in CRAZY8.facts(CRAZY8.new_game(2, "f"), 0)


def test_hint_names_the_bots_move():
    eng, state = position("crazy8", [["8S", "5H", "9H"], ["3S", "4D"]], "6H")
    hint = eng.hint(state, 0)
    assert hint["action"]["card"] in ("5H", "9H") and hint["message"].startswith("Play the ")
    assert eng.hint(state, 1) is None


# ---- the bot -------------------------------------------------------------------------------


def test_bot_keeps_its_eight_and_follows_its_long_suit():
    eng, state = position("crazy8", [["8S", "5H", "9C", "10C", "KH", "2C"], ["3S"]], "9H")
    assert eng.bot_action(state, 0) == {"type": "play", "card": "9C"}


def test_bot_names_the_suit_it_holds_most_of():
    eng, state = position("crazy8", [["8S", "5D", "9D", "10C"], ["3S", "4S", "6S"]], "KH")
    assert eng.bot_action(state, 0) == {"type": "play", "card": "8S", "suit": "D"}


def test_bot_stacks_then_takes():
    eng, state = position("american8", [["2H", "KD", "4C"], ["2S", "5C", "QD"]], "6H")
    eng.apply(state, 0, {"type": "play", "card": "2H"})
    assert eng.bot_action(state, 1) == {"type": "play", "card": "2S"}
    eng.apply(state, 1, {"type": "play", "card": "2S"})
    assert eng.bot_action(state, 0) == {"type": "take"}


def test_bot_plays_its_special_card_first_and_knocks():
    eng, state = position("american8", [["JH", "5H"], ["3S", "4S", "6D"]], "9H")
    assert eng.bot_action(state, 0) == {"type": "play", "card": "JH", "knock": True}


def test_bot_skips_a_player_about_to_go_out():
    eng, state = position("american8", [["JH", "5H", "6H", "KC"], ["3S", "4S"], ["7D"]], "9H")
    assert eng.bot_action(state, 0)["card"] == "JH"


def test_bot_leads_into_the_suit_most_of_which_was_played():
    clubs = ["AC", "2C", "3C", "4C", "6C", "7C", "9C", "10C", "JC", "QC"]
    eng, state = position("crazy8", [["5H", "5C"], ["3S", "4S", "6D"]], "5S")
    assert eng.bot_action(state, 0) == {"type": "play", "card": "5H"}
    state["discards"] = [*clubs, "5S"]
    state["stock"] = [c for c in state["stock"] if c not in clubs]
    view = eng.view(state, 0)
    assert view["played"] == clubs and view["discard_count"] == 11
    assert eng.bot_action(state, 0) == {"type": "play", "card": "5C"}


def test_bot_names_a_suit_the_next_player_drew_on():
    eng, state = position("crazy8", [["8S", "5D", "9D", "10C", "JC"], ["3S", "4S"]], "KH")
    state["drew_on"][1] = ["C"]
    assert eng.bot_action(state, 0) == {"type": "play", "card": "8S", "suit": "C"}


# ---- properties over random playouts -------------------------------------------------------

MODES = [
    ("crazy8", {"mode": "crazy8"}),
    ("crazy8", {"mode": "maumau"}),
    ("crazy8", {"mode": "101"}),
    ("american8", {"mode": "american8"}),
]


def custom_rules(kind: str):
    """Any custom settings, each option either left as preset or given."""
    eng = registry.get(kind)
    return st.fixed_dictionaries(
        {"mode": st.just("custom")},
        optional={o.name: st.sampled_from(o.values[1:]) for o in eng.options[1:]},
    )


def check_invariants(state: dict) -> None:
    assert conserved(state)
    rs = state["ruleset"]
    if state["pending"]:
        top = state["discards"][-1]
        key = ruleset.effect_key(rs["effects"], top)
        assert key == state["pending_by"], "a pending draw made by one rank is answered by another"
        name, count = ruleset.effect_of(rs["effects"], top)
        assert name == "draw" and state["pending"] % count == 0
    assert state["suit"] in (None, "S", "H", "D", "C")
    if rs["scoring"] == "points" and state["sheet"]:
        assert state["sheet"][-1]["totals"] == state["totals"]


def random_playout(kind: str, players: int, seed: str, rules: dict, steps: int) -> dict:
    eng = registry.get(kind)
    state = eng.new_game(players, seed, rules)
    pick = random.Random(seed)
    for step in range(steps):
        check_invariants(state)
        if step % 40 == 0:
            cf.check_views(eng, state)
        if eng.is_over(state):
            cf.check_after_end(eng, state)
            break
        seat = eng.to_act(state)[0]
        legal = eng.legal_actions(state, seat)
        action = pick.choice(legal) if step % 3 else eng.bot_action(state, seat)
        eng.apply(state, seat, action)
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    players=st.integers(2, 4),
    seed=st.text(alphabet="abcdefgh0123", min_size=1, max_size=6),
)
def test_presets_conserve_cards_and_never_mix_penalties(mode, players, seed):
    kind, rules = mode
    random_playout(kind, players, f"prop-{seed}", rules, 400)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["crazy8", "american8"]),
    rules=st.data(),
    players=st.integers(2, 4),
    seed=st.text(alphabet="abcdefgh0123", min_size=1, max_size=6),
)
def test_any_custom_rules_are_refused_with_a_reason_or_play_soundly(kind, rules, players, seed):
    chosen = rules.draw(custom_rules(kind))
    eng = registry.get(kind)
    try:
        state = eng.new_game(players, f"custom-{seed}", chosen)
    except IllegalAction as exc:
        assert exc.message.endswith(".") and len(exc.message) > 20
        return
    rs = state["ruleset"]
    assert ("JK" in rs["effects"]) <= (rs["jokers"] == 2)
    assert rs["jokers"] == 0 or rs["deck"] == 52
    assert rs["hand_size"] * players + 1 <= len(full_deck(rs))
    assert state["rules"] == {**eng.default_rules(), **chosen}
    cf.check_state(eng, state)
    cf.check_legal_actions(eng, state)
    random_playout(kind, players, f"custom-{seed}", chosen, 250)


def test_bot_games_of_every_preset_end():
    for kind, rules in MODES:
        for players in (2, 3, 4):
            game = cf.playout(registry.get(kind), players, f"end-{players}", rules, "bot")
            assert registry.get(kind).is_over(game.state)
