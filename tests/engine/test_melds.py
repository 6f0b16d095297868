"""The meld solver against brute force: every way to split a hand into melds and deadwood.

The reference here is written straight from the rules (games/gin/rules.md §3 and
games/thirteen/rules.md §3), shares no code with the solver, and tries everything:

- ``rule_meld``: is this group of cards one meld? A run with wilds is checked by trying every
  block of consecutive ranks from A to K as long as the group.
- ``brute_points``: the least deadwood over every partition of the hand into melds and left
  over cards (the lowest card is either left over or in some valid meld with other cards).
- ``brute_lay_off``: the defender's own melds by brute force, then every order of laying
  cards one at a time onto the knocker's growing melds.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import melds
from gameplay.engine.cards import RANKS, SUITS, deck

DECK = deck()
ORDER = {card: i for i, card in enumerate(DECK)}


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def points_of(card: str, wild: int | None) -> int:
    r = rank_of(card)
    return 25 if r == wild else min(r, 10)


# ---- the reference ---------------------------------------------------------------------------


def rule_meld(cards: tuple[str, ...], wild: int | None = None) -> bool:
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if rank_of(c) != wild]
    if not naturals:
        return False  # "a hand of wildcards only is NOT allowed"
    ranks = [rank_of(c) for c in naturals]
    if len(set(ranks)) == 1:
        return wild is not None or len(cards) <= 4
    if len({c[-1] for c in naturals}) != 1 or len(set(ranks)) != len(ranks):
        return False
    size = len(cards)
    if wild is None:
        return sorted(ranks) == list(range(min(ranks), min(ranks) + size))
    return any(all(a <= r < a + size for r in ranks) for a in range(1, 14 - size + 1))


def brute_points(hand: list[str], wild: int | None = None) -> int:
    """The least deadwood over every split of ``hand`` into melds and left-over cards."""
    hand = sorted(hand, key=ORDER.__getitem__)
    valid = [
        frozenset(group)
        for size in range(3, len(hand) + 1)
        for group in itertools.combinations(hand, size)
        if rule_meld(group, wild)
    ]

    @cache
    def best(left: frozenset) -> int:
        if not left:
            return 0
        low = min(left, key=ORDER.__getitem__)
        found = points_of(low, wild) + best(left - {low})
        for meld in valid:
            if low in meld and meld <= left:
                found = min(found, best(left - meld))
        return found

    return best(frozenset(hand))


def brute_optimal_splits(hand: list[str]) -> set[tuple]:
    """Every optimal split (no wilds), with touching runs of a suit merged into one."""
    valid = [
        frozenset(g)
        for size in range(3, len(hand) + 1)
        for g in itertools.combinations(hand, size)
        if rule_meld(g)
    ]
    target = brute_points(hand)
    found = set()

    def walk(left: frozenset, chosen: list, dead: int) -> None:
        if dead > target:
            return
        if not left:
            if dead == target:
                found.add(canonical(chosen))
            return
        low = min(left, key=ORDER.__getitem__)
        walk(left - {low}, chosen, dead + points_of(low, None))
        for meld in valid:
            if low in meld and meld <= left:
                walk(left - meld, [*chosen, meld], dead)

    walk(frozenset(hand), [], 0)
    return found


def canonical(groups: list) -> tuple:
    runs: dict[str, set] = {}
    out = []
    for group in groups:
        if len({rank_of(c) for c in group}) == 1:
            out.append(tuple(sorted(group, key=ORDER.__getitem__)))
        else:
            runs.setdefault(next(iter(group))[-1], set()).update(group)
    for suit, cards in runs.items():
        ranks = sorted(rank_of(c) for c in cards)
        piece = [ranks[0]]
        for r in ranks[1:] + [None]:
            if r is not None and r == piece[-1] + 1:
                piece.append(r)
                continue
            out.append(tuple(RANKS[x - 1] + suit for x in piece))
            if r is not None:
                piece = [r]
    return tuple(sorted(out, key=lambda g: ORDER[g[0]]))


def brute_lay_off(hand: list[str], knocker: list[tuple[str, ...]]) -> int:
    """Own melds by brute force, then the best order of laying off (one card at a time)."""
    valid = [
        frozenset(g)
        for size in range(3, len(hand) + 1)
        for g in itertools.combinations(hand, size)
        if rule_meld(g)
    ]

    @cache
    def lay(left: frozenset, table: tuple) -> int:
        found = sum(points_of(c, None) for c in left)
        for card in left:
            for i, meld in enumerate(table):
                grown = tuple(sorted((*meld, card), key=ORDER.__getitem__))
                if rule_meld(grown):
                    found = min(found, lay(left - {card}, (*table[:i], grown, *table[i + 1 :])))
        return found

    start = tuple(tuple(sorted(m, key=ORDER.__getitem__)) for m in knocker)

    @cache
    def own(left: frozenset) -> int:
        found = lay(left, start)
        for meld in valid:
            if meld <= left:
                found = min(found, own(left - meld))
        return found

    return own(frozenset(hand))


# ---- hands to test on ------------------------------------------------------------------------


@st.composite
def meld_rich(draw, size: int) -> list[str]:
    """A hand in which at least half the cards were dealt as melds (sets or runs of 3–5)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    return rich_hand(rng, size)


def rich_hand(rng: random.Random, size: int) -> list[str]:
    hand: set[str] = set()
    while len(hand) < size // 2:
        if rng.random() < 0.5:
            r = rng.choice(RANKS)
            group = {r + s for s in rng.sample(SUITS, rng.choice((3, 3, 4)))}
        else:
            length = rng.choice((3, 3, 4, 5))
            start = rng.randrange(0, 14 - length)
            suit = rng.choice(SUITS)
            group = {RANKS[i] + suit for i in range(start, start + length)}
        if len(hand | group) <= size:
            hand |= group
    rest = [c for c in DECK if c not in hand]
    hand |= set(rng.sample(rest, size - len(hand)))
    return sorted(hand, key=ORDER.__getitem__)


def random_hand(rng: random.Random, size: int) -> list[str]:
    return rng.sample(DECK, size)


hands = st.integers(7, 11).flatmap(
    lambda n: st.one_of(
        st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True), meld_rich(n)
    )
)


def check_arrangement(hand: list[str], arrangement: melds.Arrangement, wild: int | None) -> None:
    used = [c for meld in arrangement.melds for c in meld] + list(arrangement.deadwood)
    assert sorted(used) == sorted(hand), (hand, arrangement)
    for meld in arrangement.melds:
        assert rule_meld(tuple(meld), wild), (hand, meld)
        assert melds.is_meld(meld, wild), (hand, meld)
    assert arrangement.points == sum(points_of(c, wild) for c in arrangement.deadwood)
    assert list(arrangement.deadwood) == sorted(arrangement.deadwood, key=ORDER.__getitem__)
    firsts = [min(ORDER[c] for c in meld) for meld in arrangement.melds]
    assert firsts == sorted(firsts)


# ---- the rules' examples -------------------------------------------------------------------


def test_gin_deadwood_example():
    # gin rules §9.2
    found = melds.arrange(["AS", "2S", "3S", "7H", "7D", "7C", "KC", "QC", "5D", "9H"])
    assert found.points == 34
    assert set(found.melds) == {("AS", "2S", "3S"), ("7H", "7D", "7C")}


def test_gin_best_split_example():
    # gin rules §9.3: 4-5-6♠ + three sixes beats the four sixes
    hand = ["4S", "5S", "6S", "6H", "6D", "6C", "9C", "9D", "KH", "2C"]
    assert melds.deadwood(hand) == 30
    assert melds.arrange(hand).melds == (("4S", "5S", "6S"), ("6H", "6D", "6C"))
    assert [a.points for a in melds.best_arrangements(hand)] == [30]


@pytest.mark.parametrize(
    ("cards", "meld"),
    [
        (["AH", "2H", "3H"], True),
        (["QH", "KH", "AH"], False),
        (["KH", "AH", "2H"], False),
        (["7S", "7H", "7D", "7C"], True),
        (["7S", "7H"], False),
        (["3H", "4H", "6H"], False),
        (["3H", "4H", "5D"], False),
        (["9H", "10H", "JH", "QH", "KH"], True),
    ],
)
def test_gin_melds(cards, meld):
    # gin rules §9.9 and §3
    assert melds.is_meld(cards) is meld
    assert rule_meld(tuple(cards)) is meld


@pytest.mark.parametrize(
    ("cards", "wild", "meld"),
    [
        # thirteen rules §9.2: round 3, threes wild
        (["7S", "7H", "3D"], 3, True),
        (["7S", "3D", "3C"], 3, True),
        (["3S", "3H", "3D"], 3, False),
        (["7S", "7H"], 3, False),
        # §9.3: round 5, fives wild
        (["4H", "5C", "6H"], 5, True),
        (["AC", "2C", "3C"], 5, True),
        (["9S", "10S", "5D", "QS"], 5, True),
        (["QD", "KD", "AD"], 5, False),
        (["KS", "AS", "2S"], 5, False),
        (["9S", "10H", "JS"], 5, False),
        # sets of any size with wilds; a run block must fit inside A..K
        (["9S", "9H", "9D", "9C", "5D"], 5, True),
        (["QS", "KS", "5D", "5H"], 5, True),
        (["QS", "KS", "5D", "5H", "5S", "5C", "AS"], 5, False),
        (["2S", "4S", "5D", "5H"], 5, True),
    ],
)
def test_thirteen_combinations(cards, wild, meld):
    assert melds.is_meld(cards, wild) is meld
    assert rule_meld(tuple(cards), wild) is meld


def test_thirteen_scoring_examples():
    # thirteen rules §9.7: KS KH 7D as a set leaves 24 (9C 9D 7D would leave 26)
    found = melds.arrange(["KS", "KH", "7D", "2C", "9C", "9D", "4S"], 7)
    assert found.points == 24 and found.melds == (("KS", "KH", "7D"),)
    # §9.8: no combination, the wild ace counts 25
    assert melds.deadwood(["AS", "5H", "9C", "QD", "KS", "3D", "2C"], 1) == 64
    # §9.4 and §9.6: hands that go out
    assert melds.deadwood(["4S", "5S", "6S", "9D", "9H", "9C", "9S"], 2) == 0
    # §9.5: the best split leaves KC and 7H
    assert melds.arrange(["4S", "5S", "6S", "9D", "9H", "2D", "KC", "7H"], 2).deadwood == (
        "7H",
        "KC",
    )


def test_spare_wilds_join_a_combination():
    found = melds.arrange(["7S", "7H", "7D", "2C", "2D", "2H", "3S"], 2)
    assert found.points == 0 and found.deadwood == ()
    check_arrangement(["7S", "7H", "7D", "2C", "2D", "2H", "3S"], found, 2)
    run = melds.arrange(["QS", "KS", "5D", "5H", "9C", "9D", "9H"], 5)
    # 5H stands for JS below Q-K♠; the spare 5D joins the set of nines.
    assert run.melds == (("5H", "QS", "KS"), ("9H", "9D", "9C", "5D"))
    check_arrangement(["QS", "KS", "5D", "5H", "9C", "9D", "9H"], run, 5)


def test_lay_off_example():
    # gin rules §9.5
    knocker = melds.arrange(["3H", "4H", "5H", "6H", "8S", "8D", "8C", "2C", "AD", "4C"])
    assert knocker.points == 7
    found = melds.lay_off(
        ["2H", "7H", "8H", "9C", "9D", "9S", "QS", "QD", "5C", "6S"], knocker.melds
    )
    assert found.melds == (("9S", "9D", "9C"),)
    assert {card for card, _ in found.laid_off} == {"2H", "7H", "8H"}
    assert found.points == 31 and set(found.deadwood) == {"QS", "QD", "5C", "6S"}


def test_a_laid_off_fourth_does_not_block_the_run():
    # 8H could complete the eights, but laid on the run it lets 9H follow.
    knocker = [("5H", "6H", "7H"), ("8S", "8D", "8C")]
    found = melds.lay_off(["8H", "9H", "KC", "KD"], knocker)
    assert found.laid_off == (("8H", 0), ("9H", 0)) and found.points == 20


def test_ties_between_arrangements_are_all_listed():
    # KS KH KD + JS QS: the kings or J-Q-K♠ leave 20 either way.
    hand = ["KS", "KH", "KD", "JS", "QS", "2C", "4C", "6D", "8D", "AH"]
    found = melds.best_arrangements(hand)
    assert [a.melds for a in found] == [(("JS", "QS", "KS"),), (("KS", "KH", "KD"),)]
    assert all(a.points == 41 for a in found)


# ---- properties against brute force ------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands)
def test_least_deadwood_is_exact(hand):
    found = melds.arrange(hand)
    check_arrangement(hand, found, None)
    assert found.points == brute_points(hand) == melds.deadwood(hand)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.integers(7, 10).flatmap(lambda n: meld_rich(n)))
def test_every_best_arrangement_is_listed(hand):
    found = melds.best_arrangements(hand)
    for arrangement in found:
        check_arrangement(hand, arrangement, None)
    assert {canonical(a.melds) for a in found} == brute_optimal_splits(hand)
    assert len({a.melds for a in found}) == len(found)
    assert found == sorted(found, key=melds.canonical_key)


@st.composite
def wild_hands(draw):
    """7 or 8 cards in a round with a wild rank, mostly holding 1–4 wilds."""
    wild = draw(st.integers(1, 13))
    size = draw(st.integers(7, 8))
    held = draw(st.integers(0, 4))
    wilds = draw(st.permutations([RANKS[wild - 1] + s for s in SUITS]))[:held]
    rng = random.Random(draw(st.integers(0, 2**32)))
    others = [c for c in DECK if rank_of(c) != wild]
    rest = rich_hand(rng, size) if draw(st.booleans()) else rng.sample(DECK, size)
    rest = [c for c in rest if rank_of(c) != wild]
    pool = [c for c in others if c not in rest]
    hand = wilds + rest[: size - len(wilds)]
    hand += rng.sample(pool, size - len(hand))
    return hand, wild


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=wild_hands())
def test_least_leftover_with_wilds_is_exact(case):
    hand, wild = case
    found = melds.arrange(hand, wild)
    check_arrangement(hand, found, wild)
    assert found.points == brute_points(hand, wild) == melds.deadwood(hand, wild)


@st.composite
def knocks(draw):
    """A knocker's melds (from a meld-rich hand) and a defender holding cards that fit them."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    knocker = rich_hand(rng, 10)
    arrangement = melds.arrange(knocker)
    rest = [c for c in DECK if c not in knocker]
    near = [
        c
        for c in rest
        if any(
            abs(rank_of(c) - rank_of(m)) <= 2 and (c[-1] == m[-1] or rank_of(c) == rank_of(m))
            for meld in arrangement.melds
            for m in meld
        )
    ]
    take = min(len(near), rng.randint(2, 6))
    defender = rng.sample(near, take)
    defender += rng.sample([c for c in rest if c not in defender], 10 - take)
    return defender, list(arrangement.melds)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=knocks())
def test_lay_off_is_exact(case):
    defender, knocker = case
    found = melds.lay_off(defender, knocker)
    assert found.points == brute_lay_off(defender, knocker)
    laid = [card for card, _ in found.laid_off]
    used = [c for meld in found.melds for c in meld] + laid + list(found.deadwood)
    assert sorted(used) == sorted(defender)
    assert all(rule_meld(tuple(meld)) for meld in found.melds)
    assert found.points == sum(points_of(c, None) for c in found.deadwood)
    for i, meld in enumerate(knocker):
        grown = tuple(meld) + tuple(card for card, on in found.laid_off if on == i)
        assert rule_meld(grown), (meld, found.laid_off)


def test_many_seeded_hands_against_brute_force():
    """Beyond hypothesis: a fixed spread of plain, meld-rich and wild hands."""
    rng = random.Random("melds")
    for i in range(150):
        size = 7 + i % 5
        hand = rich_hand(rng, size) if i % 2 else random_hand(rng, size)
        assert melds.deadwood(hand) == brute_points(hand), hand
        wild = rng.randint(1, 13)
        short = hand[:7]
        assert melds.deadwood(short, wild) == brute_points(short, wild), (short, wild)
