"""War (gameplay/engine/games/war/rules.md): every case of §9 on stacked decks, plus a few properties."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalAction, registry
from gameplay.engine.cards import deck, shuffled
from gameplay.engine.games.war import engine as war

ENGINE = war.ENGINE
FULL = deck(jokers=2)


def stacked(piles: list[list[str]], round_no: int = 1) -> dict:
    """A fresh game whose piles are exactly ``piles`` (index 0 = next flip)."""
    state = ENGINE.new_game(len(piles), "stacked")
    state["piles"] = [list(p) for p in piles]
    state["set_aside"] = []
    state["round"] = round_no
    return state


def rest(*used: str) -> list[str]:
    """The rest of the 54-card deck, in canonical order, without ``used``."""
    return [c for c in FULL if c not in used]


def flip_all(state: dict, order: list[int] | None = None) -> list[dict]:
    """Every seat awaited in the current stage flips (in ``order`` if given).

    Returns the events of the stage without the "flip_ready" notices of the early flips.
    """
    events: list[dict] = []
    for seat in order if order is not None else list(ENGINE.to_act(state)):
        events += ENGINE.apply(state, seat, {"type": "flip"})
    return [e for e in events if e["type"] != "flip_ready"]


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def test_registered():
    assert registry.get("war") is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)
    assert ENGINE.default_rules() == {"rounds": 400}


# ---- §9.1, §9.2 the deal ------------------------------------------------------------------


def test_deal_four_players_canonical_deck():
    piles, set_aside = war.deal(FULL, 4)
    assert piles[0][:5] == ["AS", "5S", "9S", "KS", "4H"]
    assert piles[0] == FULL[0:52:4]
    assert piles[1][:3] == ["2S", "6S", "10S"]
    assert piles[1] == FULL[1:52:4]
    assert [len(p) for p in piles] == [13, 13, 13, 13]
    assert set_aside == ["JK1", "JK2"]

    state = stacked(piles)
    state["set_aside"] = set_aside
    events = flip_all(state)
    assert events[0] == {
        "type": "card_flipped",
        "seat": 0,
        "card": "AS",
        "war": False,
        "cards_left": 12,
    }
    # The set-aside jokers never show up anywhere in a view.
    assert "JK1" not in str(ENGINE.view(state, 0))


def test_new_game_deals_from_the_seeded_shuffle():
    for players in (2, 3, 4):
        state = ENGINE.new_game(players, "seed-x")
        piles, set_aside = war.deal(shuffled(FULL, "seed-x", "deal", 1), players)
        assert state["piles"] == piles
        assert state["set_aside"] == set_aside


@pytest.mark.parametrize(("players", "each", "aside"), [(2, 27, 0), (3, 18, 0), (4, 13, 2)])
def test_deal_sizes(players, each, aside):
    state = ENGINE.new_game(players, "deal-sizes")
    assert [len(p) for p in state["piles"]] == [each] * players
    assert len(state["set_aside"]) == aside
    assert Counter(sum(state["piles"], []) + state["set_aside"]) == Counter(FULL)
    assert ENGINE.to_act(state) == list(range(players))
    assert state["round"] == 1


# ---- §9.3 a simple round, simultaneous flips ----------------------------------------------


def test_simple_round_winner_takes_pot_to_bottom():
    state = stacked([["9H", "2C"], ["7S", "3D"]])
    events = flip_all(state)
    assert state["piles"][0] == ["2C", "9H", "7S"]
    assert state["piles"][1] == ["3D"]
    assert of_type(events, "pot_won") == [
        {"type": "pot_won", "seat": 0, "cards": ["9H", "7S"], "round": 1}
    ]
    assert state["round"] == 2
    assert ENGINE.to_act(state) == [0, 1]
    last = ENGINE.view(state, None)["last_round"]
    assert last["winner"] == 0 and [e["card"] for e in last["pot"]] == ["9H", "7S"]


def test_flips_wait_for_everyone_and_come_out_in_seat_order():
    state = stacked([["9H", "2C"], ["7S", "3D"]])
    first = ENGINE.apply(state, 1, {"type": "flip"})
    assert first == [{"type": "flip_ready", "seat": 1, "round": 1}]
    # Nothing has left a pile yet, and nobody can see seat 1's card.
    assert state["piles"][1] == ["7S", "3D"]
    view = ENGINE.view(state, 0)
    assert view["stage"]["flipped"] == [1] and view["stage"]["waiting"] == [0]
    assert ENGINE.to_act(state) == [0]
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="already flipped"):
        ENGINE.apply(state, 1, {"type": "flip"})
    second = ENGINE.apply(state, 0, {"type": "flip"})
    assert [(e["type"], e.get("seat")) for e in second[:2]] == [
        ("card_flipped", 0),
        ("card_flipped", 1),
    ]
    assert [e["card"] for e in second[:2]] == ["9H", "7S"]


# ---- §9.4 jokers ----------------------------------------------------------------------------


def test_joker_beats_ace():
    state = stacked([["JK1", "2C"], ["AS", "3D"]])
    events = flip_all(state)
    assert of_type(events, "pot_won")[0]["seat"] == 0
    assert state["piles"][0] == ["2C", "JK1", "AS"]


def test_two_jokers_tie_and_go_to_war():
    state = stacked([["JK1", "2C", "3C"], ["JK2", "4D", "5D"]])
    events = flip_all(state)
    assert of_type(events, "war_declared") == [
        {"type": "war_declared", "seats": [0, 1], "round": 1, "war": 1}
    ]
    assert ENGINE.to_act(state) == [0, 1]
    view = ENGINE.view(state, None)
    assert view["stage"]["war"] and view["war_between"] == [0, 1]


# ---- §9.5 three-player war ------------------------------------------------------------------


def test_three_player_war():
    state = stacked([["KD", "4H", "2C", "8S"], ["KS", "9D", "QS", "8D"], ["5C", "3S"]])
    events = flip_all(state)
    assert of_type(events, "war_declared")[0]["seats"] == [0, 1]
    assert ENGINE.to_act(state) == [0, 1]
    assert ENGINE.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="not in this war"):
        ENGINE.apply(state, 2, {"type": "flip"})

    events = flip_all(state, [1, 0])
    flips = of_type(events, "card_flipped")
    assert [(e["seat"], e["card"], e["face_down"]) for e in flips] == [(0, "2C", 1), (1, "QS", 1)]
    assert "4H" not in str(flips) and "9D" not in str(flips)
    assert of_type(events, "pot_won")[0]["cards"] == ["KD", "KS", "5C", "4H", "2C", "9D", "QS"]
    assert state["piles"][1] == ["8D", "KD", "KS", "5C", "4H", "2C", "9D", "QS"]
    assert state["piles"][2] == ["3S"]
    assert state["piles"][0] == ["8S"]
    assert ENGINE.to_act(state) == [0, 1, 2]


# ---- §9.6 double war, face-down cards hidden ---------------------------------------------


def test_double_war():
    state = stacked([["7H", "2D", "JS", "4C", "9S", "AS"], ["7C", "3H", "JD", "5D", "10C", "AD"]])
    flip_all(state)
    events = flip_all(state)
    assert of_type(events, "war_declared")[0]["war"] == 2
    assert "2D" not in str(events) and "3H" not in str(events)

    for seat in (None, 0, 1):
        view = ENGINE.view(state, seat)
        assert [e["card"] for e in view["pot"]] == ["7H", "7C", "??", "JS", "??", "JD"]
        assert view["war_between"] == [0, 1]
        assert "2D" not in str(view) and "3H" not in str(view)
    assert ENGINE.visible_cards(state, 0) == Counter(["7H", "7C", "JS", "JD"])

    events = flip_all(state)
    pot = ["7H", "7C", "2D", "JS", "3H", "JD", "4C", "9S", "5D", "10C"]
    assert of_type(events, "pot_won")[0] == {"type": "pot_won", "seat": 1, "cards": pot, "round": 1}
    assert state["piles"][1] == ["AD"] + pot
    assert state["piles"][0] == ["AS"]
    last = ENGINE.view(state, 0)["last_round"]
    assert [e["card"] for e in last["pot"]] == pot
    assert [e["up"] for e in last["pot"]] == [True, True] + [False, True] * 4
    assert last["wars"] == 2 and last["winner"] == 1


# ---- §9.7, §9.8 running out in a war --------------------------------------------------------


def test_out_of_cards_in_a_war_two_players():
    state = stacked([["9H"], ["9S", *rest("9H", "9S")]])
    events = flip_all(state)
    types = [e["type"] for e in events]
    assert types == [
        "card_flipped",
        "card_flipped",
        "war_declared",
        "player_out",
        "pot_won",
        "game_ended",
    ]
    assert of_type(events, "player_out")[0]["seat"] == 0
    assert of_type(events, "pot_won")[0]["cards"] == ["9H", "9S"]
    assert ENGINE.is_over(state)
    assert ENGINE.to_act(state) == []
    result = ENGINE.result(state)
    assert result == {"scores": [0, 54], "winners": [1], "ranking": [[1], [0]]}


def test_one_card_left_in_a_war():
    seat1 = ["9S", *rest("9H", "3C", "9S")]
    assert len(seat1) == 52
    state = stacked([["9H", "3C"], seat1])
    events = flip_all(state)
    out = of_type(events, "player_out")
    assert out == [{"type": "player_out", "seat": 0, "round": 1, "reason": "war", "face_down": 1}]
    assert of_type(events, "pot_won")[0]["cards"] == ["9H", "9S", "3C"]
    assert state["piles"][1][-3:] == ["9H", "9S", "3C"]
    assert len(state["piles"][1]) == 54
    assert ENGINE.result(state)["winners"] == [1]


def test_short_seat_drops_out_while_two_others_fight_on():
    # All three tie; seat 0 has one card left, which goes in face down in its seat place.
    state = stacked([["9H", "3C"], ["9S", "2D", "KD"], ["9D", "4S", "AC", "5H"]])
    events = flip_all(state)
    assert of_type(events, "war_declared")[0]["seats"] == [0, 1, 2]
    assert [e["seat"] for e in of_type(events, "player_out")] == [0]
    assert ENGINE.to_act(state) == [1, 2]
    assert "3C" not in str(ENGINE.view(state, None))
    events = flip_all(state)
    assert of_type(events, "pot_won")[0] == {
        "type": "pot_won",
        "seat": 2,
        "cards": ["9H", "9S", "9D", "3C", "2D", "KD", "4S", "AC"],
        "round": 1,
    }
    # Seat 1 flipped its last card and lost: out at the end of the same round.
    assert state["out_round"] == [1, 1, None]
    assert ENGINE.is_over(state)
    assert ENGINE.result(state)["ranking"] == [[2], [0, 1]]


def test_dropped_card_keeps_its_seat_place_in_the_pot():
    state = stacked([["9S", "2D", "KD", "5H"], ["9H", "3C"], ["9D", "4S", "AC", "6H"]])
    flip_all(state)
    view = ENGINE.view(state, 1)
    assert view["pot"][3] == {"seat": 1, "card": "??", "up": False, "stage": 1}
    assert view["pot_count"] == 4
    events = flip_all(state)
    assert of_type(events, "pot_won")[0]["cards"] == [
        "9S",
        "9H",
        "9D",
        "2D",
        "KD",
        "3C",
        "4S",
        "AC",
    ]


# ---- §9.9 both run out ----------------------------------------------------------------------


def test_both_run_out_two_players_is_a_draw():
    state = stacked([["9H", "3C"], ["9S", "4D"]])
    events = flip_all(state)
    assert [e["seat"] for e in of_type(events, "player_out")] == [0, 1]
    assert of_type(events, "pot_set_aside")[0]["cards"] == ["9H", "9S", "3C", "4D"]
    assert ENGINE.is_over(state)
    assert state["end"] == "all_out"
    assert ENGINE.result(state) == {"scores": [0, 0], "winners": [], "ranking": [[0, 1]]}
    assert of_type(events, "game_ended")[0]["winners"] == []


def test_both_run_out_third_player_wins():
    state = stacked([["9H", "3C"], ["9S", "4D"], ["5C", "6C", "7C"]])
    events = flip_all(state)
    assert of_type(events, "pot_set_aside")[0]["cards"] == ["9H", "9S", "5C", "3C", "4D"]
    assert state["piles"][2] == ["6C", "7C"]
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {"scores": [0, 0, 2], "winners": [2], "ranking": [[2], [0, 1]]}


def test_both_run_out_with_two_others_still_in():
    state = stacked([["9H", "3C"], ["9S", "4D"], ["5C", "6C"], ["2H", "8H"]])
    flip_all(state)
    assert not ENGINE.is_over(state)
    assert ENGINE.to_act(state) == [2, 3]
    assert state["round"] == 2
    assert ENGINE.view(state, 2)["eliminated"] == [{"round": 1, "seats": [0, 1]}]


# ---- §9.10 elimination after a normal round ------------------------------------------------


def test_elimination_after_a_normal_round():
    state = stacked([["KH", "2S"], ["QH", "3S"], ["5C"]])
    events = flip_all(state)
    assert of_type(events, "player_out") == [
        {"type": "player_out", "seat": 2, "round": 1, "reason": "no_cards"}
    ]
    assert not ENGINE.is_over(state)
    assert state["round"] == 2
    assert ENGINE.to_act(state) == [0, 1]
    with pytest.raises(IllegalAction, match="out of cards"):
        ENGINE.apply(state, 2, {"type": "flip"})
    view = ENGINE.view(state, 2)
    assert view["out"] == [False, False, True] and view["you"]["out"]


def test_ranking_orders_the_out_seats_by_reverse_elimination():
    state = stacked([["2H", "3H"], ["KH", "AH"], ["QH"]])
    flip_all(state)  # KH wins; seat 2 flipped its last card: out in round 1
    events = flip_all(state)  # 3H against AH: seat 0 out in round 2
    assert ENGINE.is_over(state)
    assert of_type(events, "game_ended")[0]["winners"] == [1]
    assert ENGINE.result(state)["ranking"] == [[1], [0], [2]]


# ---- §9.11 the round cap -------------------------------------------------------------------


def test_cap_biggest_pile_wins():
    state = stacked([["AS", *rest("AS", "2S")[:28]], ["2S", *rest("AS", "2S")[28:]]], 400)
    assert [len(p) for p in state["piles"]] == [29, 25]
    events = flip_all(state)
    assert ENGINE.is_over(state) and state["end"] == "cap"
    assert ENGINE.result(state) == {"scores": [30, 24], "winners": [0], "ranking": [[0], [1]]}
    assert of_type(events, "game_ended")[0]["reason"] == "cap"
    assert state["round"] == 400


def test_cap_equal_piles_share_the_win():
    state = stacked([["AS", *rest("AS", "2S")[:25]], ["2S", *rest("AS", "2S")[25:]]], 400)
    flip_all(state)
    assert ENGINE.result(state) == {"scores": [27, 27], "winners": [0, 1], "ranking": [[0, 1]]}


def test_cap_never_stops_a_war():
    state = stacked([["9H", "2C", "AS", "3C"], ["9S", "2D", "KD", "3D"]], 400)
    flip_all(state)
    assert not ENGINE.is_over(state)
    assert ENGINE.to_act(state) == [0, 1]
    flip_all(state)
    assert ENGINE.is_over(state)
    assert ENGINE.result(state)["winners"] == [0]


def test_round_399_does_not_end():
    state = stacked([["AS", "3C"], ["2S", "3D"]], 399)
    flip_all(state)
    assert not ENGINE.is_over(state) and state["round"] == 400


def test_a_short_game_ends_at_its_round_cap_and_the_leader_by_cards_wins():
    state = ENGINE.new_game(2, "short", rules={"rounds": 100})
    assert ENGINE.view(state, 0)["max_rounds"] == 100
    state["piles"] = [["AS", *rest("AS", "2S")[:28]], ["2S", *rest("AS", "2S")[28:]]]
    state["round"] = 100
    flip_all(state)
    assert ENGINE.is_over(state) and state["end"] == "cap"
    assert ENGINE.result(state)["winners"] == [0]
    with pytest.raises(IllegalAction, match="Game length must be one of"):
        ENGINE.new_game(2, "short", rules={"rounds": 7})


# ---- views, bot, illegal input --------------------------------------------------------------


def test_view_shows_counts_not_pile_cards():
    state = ENGINE.new_game(3, "view-test")
    for seat in (None, 0, 1, 2):
        view = ENGINE.view(state, seat)
        assert view["pile_counts"] == [18, 18, 18]
        assert view["pot"] == [] and view["last_round"] is None
        assert view["to_act"] == [0, 1, 2] and view["round"] == 1
        assert not any(c in str(view) for c in FULL)
    assert ENGINE.view(state, 1)["you"]["must_flip"]
    assert "you" not in ENGINE.view(state, None)


def test_bot_flips_at_once():
    state = ENGINE.new_game(2, "bot")
    assert ENGINE.bot_action(state, 0) == {"type": "flip"}


def test_after_the_game_nothing_applies():
    state = stacked([["9H"], ["9S", "2C"]])
    flip_all(state)
    assert ENGINE.is_over(state)
    for seat in (0, 1):
        assert ENGINE.legal_actions(state, seat) == []
        with pytest.raises(IllegalAction, match="over"):
            ENGINE.apply(state, seat, {"type": "flip"})


@pytest.mark.parametrize("seat", [2, -1, "0", None, True])
def test_bad_seats(seat):
    state = ENGINE.new_game(2, "bad-seat")
    before = repr(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, {"type": "flip"})
    assert repr(state) == before


# ---- properties -----------------------------------------------------------------------------


def check_conservation(state: dict, players: int) -> None:
    pot = [e["card"] for e in state["pot"]]
    held = sum(state["piles"], []) + pot + state["set_aside"]
    assert Counter(held) == Counter(FULL)
    for seat in range(players):
        if state["out_round"][seat] is not None:
            assert state["piles"][seat] == []
            assert seat not in state["stage_seats"]


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 4),
    order=st.permutations(FULL),
    start=st.integers(1, 400),
)
def test_any_stacked_game_keeps_every_card_and_ends(players, order, start):
    state = ENGINE.new_game(players, "prop")
    state["piles"], state["set_aside"] = war.deal(list(order), players)
    state["round"] = start
    steps = 0
    while not ENGINE.is_over(state):
        seats = ENGINE.to_act(state)
        assert seats
        ENGINE.apply(state, seats[-1], {"type": "flip"})
        check_conservation(state, players)
        steps += 1
        assert steps < 10_000
    result = ENGINE.result(state)
    assert sorted(sum(result["ranking"], [])) == list(range(players))
    assert set(result["winners"]) <= set(range(players))
    alive = [s for s in range(players) if state["out_round"][s] is None]
    assert all(state["piles"][s] for s in alive)
    assert len(alive) <= 1 or state["round"] == 400
