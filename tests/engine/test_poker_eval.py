"""The poker hand evaluator and the exact hold adviser, checked against slow references.

- A reference evaluator written straight from gameplay/engine/games/poker/rules.md §6
  (categories and tie-break keys), with jokers resolved by brute force: every joker tried as
  each of the 52 cards, duplicates allowed (§4), keeping the best.
- The ``treys`` library's order on joker-free hands (treys: lower score is better).
- ``holds``: every hold's expected strength against enumerating the draws.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from treys import Card, Evaluator

from gameplay.engine.cards import deck
from gameplay.engine.games.poker import evaluator as pe
from gameplay.engine.games.poker import holds as ph

DECK = deck(jokers=2)
NATURALS = deck()
RANKS = {r: v for v, r in enumerate("2 3 4 5 6 7 8 9 10 J Q K A".split(), start=2)}

# ---- the reference: §6 read literally ------------------------------------------------------


def reference(cards: list[str]) -> tuple[int, tuple[int, ...]]:
    """(category, key) of five natural cards; repeats allowed (a joker may copy a card)."""
    ranks = sorted((RANKS[c[:-1]] for c in cards), reverse=True)
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c[-1] for c in cards}) == 1
    top = 0
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            top = 5
    found = [(0, tuple(ranks))]  # High card
    if shape[0] == 5:
        found.append((9, (by_count[0],)))
    if flush and top:
        found.append((8, (top,)))
    if shape[0] == 4:
        found.append((7, tuple(by_count)))
    if shape[:2] == [3, 2]:
        found.append((6, tuple(by_count)))
    if flush:
        found.append((5, tuple(ranks)))
    if top:
        found.append((4, (top,)))
    if shape[0] == 3:
        found.append((3, (by_count[0], *sorted(by_count[1:], reverse=True))))
    if shape[:2] == [2, 2]:
        found.append((2, tuple(by_count)))
    if shape[0] == 2:
        found.append((1, (by_count[0], *sorted(by_count[1:], reverse=True))))
    return max(found)


def brute_force(cards: list[str]) -> tuple[int, tuple[int, ...]]:
    """Best reference value over every way to read the jokers as any of the 52 cards."""
    naturals = [c for c in cards if not c.startswith("JK")]
    jokers = len(cards) - len(naturals)
    # The two jokers play the same way, so unordered readings (with repeats) cover them all.
    return max(
        reference(naturals + list(reading))
        for reading in itertools.combinations_with_replacement(NATURALS, jokers)
    )


def hands(jokers: int | None = None):
    """Five different cards; with ``jokers`` set, exactly that many jokers."""
    if jokers is None:
        return st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
    return st.lists(
        st.sampled_from(NATURALS), min_size=5 - jokers, max_size=5 - jokers, unique=True
    ).map(lambda ns: ns + ["JK1", "JK2"][:jokers])


@st.composite
def suited_with_jokers(draw):
    """Natural cards all of one suit plus 1 or 2 jokers: flushes, straight flushes."""
    jokers = draw(st.integers(1, 2))
    suit = draw(st.sampled_from("SHDC"))
    ranks = draw(
        st.lists(
            st.sampled_from(list(RANKS)), min_size=5 - jokers, max_size=5 - jokers, unique=True
        )
    )
    cards = [r + suit for r in ranks] + ["JK1", "JK2"][:jokers]
    return draw(st.permutations(cards))


# ---- the evaluator against the reference ------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(hands(0))
def test_joker_free_hands_match_the_rules(cards):
    assert pe.decode(pe.evaluate_cards(cards)) == reference(cards)


@settings(max_examples=300, deadline=None)
@given(hands(1))
def test_one_joker_is_the_best_of_all_52_cards(cards):
    assert pe.decode(pe.evaluate_cards(cards)) == brute_force(cards)


@settings(max_examples=60, deadline=None)
@given(hands(2))
def test_two_jokers_are_the_best_of_all_52_squared_readings(cards):
    assert pe.decode(pe.evaluate_cards(cards)) == brute_force(cards)


@settings(max_examples=60, deadline=None)
@given(suited_with_jokers())
def test_suited_cards_with_jokers_match_brute_force(cards):
    assert pe.decode(pe.evaluate_cards(cards)) == brute_force(cards)


def test_every_one_joker_rank_pattern_matches_brute_force():
    """Exhaustive over the rank patterns of hands with one joker (suits varied, unsuited)."""
    rng = random.Random(5)
    rank_list = list(RANKS)
    for combo in itertools.combinations_with_replacement(rank_list, 4):
        if max(Counter(combo).values()) > 4:
            continue
        suits = rng.sample("SHDC", 4)
        used: Counter[str] = Counter()
        cards = []
        for r in combo:
            cards.append(r + suits[used[r]])
            used[r] += 1
        if len({c[-1] for c in cards}) == 1:
            cards[0] = cards[0][:-1] + ("H" if cards[0][-1] != "H" else "S")
        cards.append("JK1")
        naturals = cards[:4]
        best = max(reference(naturals + [r + "S"]) for r in rank_list)  # unsuited: rank only
        assert pe.decode(pe.evaluate_cards(cards)) == best, cards


def test_order_of_cards_does_not_matter():
    rng = random.Random(3)
    for _ in range(300):
        cards = rng.sample(DECK, 5)
        value = pe.evaluate_cards(cards)
        rng.shuffle(cards)
        assert pe.evaluate_cards(cards) == value


def test_values_compare_by_category_then_keys():
    assert pe.pack(9, [2]) > pe.pack(8, [14]) > pe.pack(7, [14, 13])
    assert pe.pack(5, [14, 14, 13, 9, 4]) > pe.pack(5, [14, 13, 12, 11, 9])
    assert pe.decode(pe.pack(2, [13, 7, 14])) == (2, (13, 7, 14))


def test_names():
    value, name = pe.evaluate_hand(["JK1", "JK2", "AS", "AH", "AD"])
    assert name == "Five of a kind" and pe.describe(value) == "Five Aces"
    assert pe.describe(pe.evaluate_cards(["JK1", "9S", "9D", "4C", "4H"])) == (
        "Full house, Nines over Fours"
    )
    assert pe.describe(pe.evaluate_cards(["KS", "KD", "7H", "7C", "2S"])) == (
        "Two pair, Kings and Sevens"
    )
    assert pe.hand_name(pe.evaluate_cards(["QH", "KD", "AS", "2C", "3S"])) == "High card"


def test_every_value_the_tables_hold_is_reached_by_some_hand():
    """8,450 unsuited multisets (with 0-2 jokers) and 2,288 suited rank sets."""
    assert len(pe.NONFLUSH) == 6175 + 1820 + 455
    assert sum(1 for v in pe.FLUSH if v) == comb(13, 5) + comb(13, 4) + comb(13, 3)


# ---- against treys (joker-free) ---------------------------------------------------------

TREYS = Evaluator()


def treys_card(card: str) -> int:
    rank = card[:-1].replace("10", "T")
    return Card.new(rank + card[-1].lower())


def treys_score(cards: list[str]) -> int:
    ints = [treys_card(c) for c in cards]
    return TREYS.evaluate(ints[:2], ints[2:])


@settings(max_examples=200, deadline=None)
@given(hands(0), hands(0))
def test_order_agrees_with_treys(a, b):
    ours = (pe.evaluate_cards(a) > pe.evaluate_cards(b)) - (
        pe.evaluate_cards(a) < pe.evaluate_cards(b)
    )
    theirs = (treys_score(a) < treys_score(b)) - (treys_score(a) > treys_score(b))
    assert ours == theirs


def test_order_agrees_with_treys_on_many_hands():
    """20,000 random hands: sorting by our value and by treys' score gives the same classes."""
    rng = random.Random(11)
    sample = [rng.sample(NATURALS, 5) for _ in range(20_000)]
    pairs = sorted({(treys_score(h), pe.evaluate_cards(h)) for h in sample})
    # One of our values per treys score, strictly decreasing as the score grows.
    ours = [v for _, v in pairs]
    assert len({s for s, _ in pairs}) == len(pairs)
    assert all(x > y for x, y in zip(ours, ours[1:], strict=False))


# ---- the exact hold adviser ---------------------------------------------------------------


def enumerate_hold(hand: list[str], mask: int) -> Fraction:
    """Expected strength of one hold by listing every draw from the 49 unseen cards."""
    ph._ensure()
    strength = ph._tables["strength"]
    held = [pe.CODES[c] for i, c in enumerate(hand) if mask >> i & 1]
    unseen = [pe.CODES[c] for c in DECK if c not in hand]
    need = 5 - len(held)
    total = sum(
        strength[pe.evaluate(held + list(draw))] for draw in itertools.combinations(unseen, need)
    )
    return Fraction(total, comb(49, need) * ph._SCALE)


@settings(max_examples=25, deadline=None)
@given(hands())
def test_hold_values_match_enumeration_for_holds_of_two_or_more(hand):
    values = dict(ph.hold_values(hand))
    for mask in range(32):
        if mask.bit_count() >= 3:
            assert values[mask] == enumerate_hold(hand, mask), (hand, mask)


@pytest.mark.parametrize("hand", [["AS", "KS", "9S", "4S", "2H"], ["JK1", "9D", "7H", "4C", "2S"]])
def test_hold_values_match_enumeration_for_two_card_holds(hand):
    values = dict(ph.hold_values(hand))
    for mask in range(32):
        if mask.bit_count() == 2:
            assert values[mask] == enumerate_hold(hand, mask)


def test_whole_deck_sum_matches_the_value_counts():
    """G(∅): the strength summed over all C(54,5) hands, from the tables and by counting."""
    ph._ensure()
    strength = ph._tables["strength"]
    counts = ph._value_counts(ph._natural_multisets())
    assert sum(counts.values()) == comb(54, 5)
    by_counting = sum(n * strength[v] for v, n in counts.items())
    assert ph._tables["a"][1] + 4 * ph._tables["b"][0] == by_counting


def test_percentiles_run_from_near_zero_to_one():
    worst = pe.evaluate_cards(["7S", "5H", "4D", "3C", "2S"])
    best = pe.evaluate_cards(["JK1", "JK2", "AS", "AH", "AD"])
    assert ph.percentile(worst) < 0.001
    assert ph.percentile(best) > 0.9999
    pair_of_jacks = pe.evaluate_cards(["JS", "JH", "4D", "3C", "2S"])
    assert 0.5 < ph.percentile(pair_of_jacks) < 0.8


@pytest.mark.parametrize(
    "hand, hold",
    [
        (["2S", "3S", "4S", "5S", "6S"], ["2S", "3S", "4S", "5S", "6S"]),  # pat straight flush
        (["9D", "10C", "JH", "QS", "KD"], ["9D", "10C", "JH", "QS", "KD"]),  # pat straight
        (["KS", "KD", "7C", "4H", "2S"], ["KS", "KD"]),  # a pair
        (["AS", "KS", "9S", "4S", "2H"], ["AS", "KS", "9S", "4S"]),  # four to a flush
        (["QH", "QD", "QC", "7S", "2D"], ["QH", "QD", "QC"]),  # three of a kind
        (["8H", "8D", "5C", "5S", "KD"], ["8H", "8D", "5C", "5S"]),  # two pair
        (["AH", "9C", "7D", "4S", "2H"], ["AH"]),  # an ace
        (["JK1", "JK2", "5D", "9S", "4S"], ["JK1", "JK2"]),  # jokers, nothing else worth it
    ],
)
def test_best_hold_at_known_hands(hand, hold):
    chosen, expected = ph.best_hold(hand)
    assert chosen == hold
    values = dict(ph.hold_values(hand))
    assert expected == pytest.approx(float(max(values.values())))


def test_best_hold_is_the_maximum_of_all_32():
    rng = random.Random(2)
    for _ in range(200):
        hand = rng.sample(DECK, 5)
        chosen, expected = ph.best_hold(hand)
        values = dict(ph.hold_values(hand))
        mask = sum(1 << i for i, c in enumerate(hand) if c in chosen)
        assert values[mask] == max(values.values())
        assert expected == pytest.approx(float(values[mask]))


def test_best_hold_refuses_a_bad_hand():
    with pytest.raises(ValueError):
        ph.best_hold(["AS", "AS", "2D", "3C", "4H"])
    with pytest.raises(ValueError):
        ph.best_hold(["AS", "KD"])
