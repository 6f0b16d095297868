"""Which cards to hold before the draw (rules.md §3 "Draw" and §6 "Suggest holds").

Two advisers live here:

* ``rule_hold(hand)``: the rules file's Suggest holds, a short list of rules of thumb (rules.md §6).
  It is what the table shows as ``suggested_hold`` and what its test cases pin down.
* ``best_hold(hand)``: the hold, out of all 32, with the highest *expected strength* after the
  draw, computed exactly over every possible draw from the 49 cards the player has not seen
  (the 54-card deck minus its own five). The computer player draws with it.

**Strength.** Let q(v), the *percentile* of a hand value v, be its chance of beating one
five-card hand dealt at random from a full 54-card deck, ties counting half::

    q(v) = (#hands worse than v + #hands equal to v / 2) / C(54, 5)

The *strength* of a hand is q(v)³: its chance of beating three such hands dealt
independently, as at a full four-seat table before the draw. (q alone values made hands too
highly against draws, because a random undealt hand is weak: it would keep A♠ K♠ over four
spades. Cubing keeps four to a flush, and on sample hands picks the same holds as a
simulated win chance against one opponent who draws by the rules' Suggest holds.) The
expected strength of a hold is the average strength over all C(49, d) ways to draw its d
replacement cards. Percentiles are kept as whole numbers of half-hands, so every sum is exact.

**Speed.** Enumerating draws costs C(49,5) = 1.9 million hands for a single hold. Instead,
for a set S of cards let G(S) = Σ strength(F) over all five-card hands F of the full deck that
contain S. Then a hold H with discards D draws from the deck minus H minus D, and by
inclusion–exclusion over the discards

    Σ_draws strength(H ∪ draw) = Σ_{T ⊆ D} (−1)^|T| · G(H ∪ T),

so all 32 holds need G of the 32 subsets of the hand and one Möbius transform (80 subtractions).
G splits into a part that depends only on the ranks and jokers of S (every F counted as if not
suited) and a correction for the suited F (only when S's natural cards share a suit):

    G(S) = A(ranks of S) + [S suited] · B(rank set of S, jokers in S) · (4 if S has no
           natural card, else 1).

A and B are built once, on first use, top-down from five cards by the recurrence
G(S) = Σ_{c ∉ S} G(S ∪ {c}) / (5 − |S|), about 60,000 additions in all, for every multiset of
ranks and jokers of size ≤ 5 (A) and every suited rank set (B). A call then costs well under a
millisecond; ``bench/suggest_holds.py`` measures it.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

from .evaluator import (
    CODES,
    FLUSH,
    JOKER_PRIME,
    NONFLUSH,
    ONE_PAIR,
    PRIMES,
    RANK_VALUES,
    STRAIGHT,
    THREE_OF_A_KIND,
    TWO_PAIR,
    decode,
    evaluate_cards,
)

ALL_HANDS = comb(54, 5)  # 3,162,510
UNSEEN = 54 - 5

# ---- strength of a value --------------------------------------------------------------------

_tables: dict[str, object] = {}


_CHOOSE4 = [comb(4, c) for c in range(5)]


def _natural_multisets() -> list[tuple[int, int, int, int, list[int]]]:
    """Every multiset of at most five natural ranks, at most four of a rank, as
    (size, prime product, number of card sets, rank bits or 0 if a rank repeats, free copies
    of each rank)."""
    out = []

    def walk(start: int, size: int, product: int, ways: int, bits: int, free: list[int]):
        out.append((size, product, ways, bits, free))
        for r in range(start, 13):
            p = PRIMES[r]
            for c in range(1, min(4, 5 - size) + 1):
                more = free.copy()
                more[r] -= c
                distinct = bits | 1 << r if c == 1 and (bits or not size) else 0
                walk(r + 1, size + c, product * p**c, ways * _CHOOSE4[c], distinct, more)

    walk(0, 0, 1, 1, 0, [4] * 13)
    return out


def _value_counts(naturals) -> dict[int, int]:
    """How many of the C(54,5) hands have each value."""
    counts: dict[int, int] = {}
    for size, product, ways, bits, _ in naturals:
        if size < 3:
            continue
        jokers = 5 - size
        ways *= comb(2, jokers)
        suited = 4 * comb(2, jokers) if bits else 0  # distinct ranks: 4 suited choices
        if suited:
            value = FLUSH[bits]
            counts[value] = counts.get(value, 0) + suited
        value = NONFLUSH[product * JOKER_PRIME**jokers]
        counts[value] = counts.get(value, 0) + ways - suited
    return counts


def _percentile_table(naturals) -> dict[int, int]:
    """value -> percentile in half-hands: 2·#worse + #equal (out of 2·C(54,5))."""
    counts = _value_counts(naturals)
    assert sum(counts.values()) == ALL_HANDS
    table = {}
    below = 0
    for value in sorted(counts):
        table[value] = 2 * below + counts[value]
        below += counts[value]
    return table


_SCALE = (2 * ALL_HANDS) ** 3


def _build() -> None:
    naturals = _natural_multisets()
    percentile = _percentile_table(naturals)
    strength = {v: h**3 for v, h in percentile.items()}
    unsuited = {k: strength[v] for k, v in NONFLUSH.items()}

    # A: multisets of ranks and jokers, keyed by prime product, from five cards down.
    a_table: dict[int, int] = dict(unsuited)
    by_size: list[list[tuple[int, list[int]]]] = [[] for _ in range(6)]
    for n, natural, _, _, free in naturals:
        by_size[n].append((natural, free))
    for size in range(4, -1, -1):
        for jokers in range(min(2, size), -1, -1):
            for natural, free in by_size[size - jokers]:
                product = natural * JOKER_PRIME**jokers
                total = (2 - jokers) * a_table[product * JOKER_PRIME] if jokers < 2 else 0
                for r in range(13):
                    if free[r]:
                        total += free[r] * a_table[product * PRIMES[r]]
                a_table[product] = total // (5 - size)

    # B: the suited correction, keyed by rank bits * 3 + jokers, in one fixed suit.
    b_table: dict[int, int] = {}
    for jokers in range(3):
        for combo in combinations(range(13), 5 - jokers):
            bits = sum(1 << r for r in combo)
            product = 1
            for r in combo:
                product *= PRIMES[r]
            b_table[bits * 3 + jokers] = (
                strength[FLUSH[bits]] - unsuited[product * JOKER_PRIME**jokers]
            )
    for size in range(4, -1, -1):
        for jokers in range(min(2, size), -1, -1):
            for combo in combinations(range(13), size - jokers):
                bits = sum(1 << r for r in combo)
                total = (2 - jokers) * b_table.get(bits * 3 + jokers + 1, 0)
                for r in range(13):
                    if not bits >> r & 1:
                        total += b_table[(bits | 1 << r) * 3 + jokers]
                b_table[bits * 3 + jokers] = total // (5 - size)

    _tables.update(percentile=percentile, strength=strength, a=a_table, b=b_table)


def _ensure() -> None:
    if not _tables:
        _build()


def percentile(value: int) -> float:
    """q(v): the chance that a hand of this value beats one random hand (ties half)."""
    _ensure()
    return _tables["percentile"][value] / (2 * ALL_HANDS)


def strength(value: int) -> float:
    """q(v)³: the chance of beating three random hands."""
    return percentile(value) ** 3


# ---- exact expected strength of every hold --------------------------------------------------


def _hold_sums(hand: list[str]) -> list[int]:
    """For each of the 32 holds (a bit mask over ``hand``'s positions), the sum of the
    strengths (in units of 1/_SCALE) of every hand it can draw to."""
    _ensure()
    a_table = _tables["a"]
    b_table = _tables["b"]
    codes = [CODES[c] for c in hand]
    prime = [1] * 32
    suits = [0xF000] * 32  # AND of the suit bits; jokers have all four
    bits = [0] * 32
    jokers = [0] * 32
    g = [0] * 32
    for mask in range(32):
        if mask:
            low = mask & -mask
            i = low.bit_length() - 1
            rest = mask ^ low
            code = codes[i]
            prime[mask] = prime[rest] * (code & 0xFF)
            suits[mask] = suits[rest] & code
            bits[mask] = bits[rest] | code >> 16
            jokers[mask] = jokers[rest] + (code & 0xFF == JOKER_PRIME)
        total = a_table[prime[mask]]
        if suits[mask] & 0xF000:
            flush = b_table[bits[mask] * 3 + jokers[mask]]
            total += flush if bits[mask] else 4 * flush
        g[mask] = total
    # Möbius over supersets: h[H] = Σ_{X ⊇ H} (−1)^|X∖H| g[X].
    for i in range(5):
        bit = 1 << i
        for mask in range(32):
            if not mask & bit:
                g[mask] -= g[mask | bit]
    return g


_DRAWS = [comb(UNSEEN, 5 - mask.bit_count()) for mask in range(32)]
# Holds in the order ties are settled: more cards first, then the earlier cards of the hand.
_TIE_ORDER = sorted(range(32), key=lambda m: (-m.bit_count(), [-(m >> i & 1) for i in range(5)]))


def hold_values(hand: list[str]) -> list[tuple[int, Fraction]]:
    """For each of the 32 holds (a bit mask over ``hand``'s positions, bit i = hand[i] kept),
    its exact expected strength after the draw, as a Fraction of 1."""
    _check_hand(hand)
    sums = _hold_sums(hand)
    return [(mask, Fraction(sums[mask], _DRAWS[mask] * _SCALE)) for mask in range(32)]


def best_hold(hand: list[str]) -> tuple[list[str], float]:
    """The hold with the highest expected strength, and that expectation (0..1).

    Ties (rare) go to the hold with more cards, then to the earlier cards of ``hand``."""
    _check_hand(hand)
    sums = _hold_sums(hand)
    best = _TIE_ORDER[0]
    for mask in _TIE_ORDER[1:]:
        # sums[mask] / draws[mask] > sums[best] / draws[best], in whole numbers
        if sums[mask] * _DRAWS[best] > sums[best] * _DRAWS[mask]:
            best = mask
    expected = sums[best] / (_DRAWS[best] * _SCALE)
    return [c for i, c in enumerate(hand) if best >> i & 1], expected


def _check_hand(hand: list[str]) -> None:
    if len(hand) != 5 or len(set(hand)) != 5 or any(c not in CODES for c in hand):
        raise ValueError(f"A hand is five different cards: {hand!r}")


# ---- the rules file's Suggest holds (rules.md §6) --------------------------------------------

SUIT_ORDER = "SHDC"


def _rank(card: str) -> int:
    return RANK_VALUES[card[:-1]]


def rule_hold(hand: list[str]) -> list[str]:
    """Suggest holds as rules.md §6 lists it: the first rule that applies."""
    _check_hand(hand)
    value = evaluate_cards(hand)
    category, keys = decode(value)
    wild = [c for c in hand if c.startswith("JK")]
    naturals = [c for c in hand if not c.startswith("JK")]

    def keep(chosen: list[str]) -> list[str]:
        return [c for c in hand if c in chosen]

    # 1. Straight or better.
    if category >= STRAIGHT:
        return list(hand)
    # 2. Three of a kind: the natural cards of that rank and the jokers.
    if category == THREE_OF_A_KIND:
        return keep(wild + [c for c in naturals if _rank(c) == keys[0]])
    # 3. Two pair (never with a joker: a joker and a pair make three of a kind).
    if category == TWO_PAIR:
        return keep([c for c in naturals if _rank(c) in keys[:2]])
    # 4. Four cards to a flush, jokers counting as any suit.
    for s in SUIT_ORDER:
        suited = [c for c in naturals if c[-1] == s]
        if len(suited) + len(wild) == 4:
            return keep(suited + wild)
    # 5. One pair: a natural pair, or a joker with the highest natural card.
    if category == ONE_PAIR:
        if wild:
            return keep(wild + [max(naturals, key=_rank)])
        return keep([c for c in naturals if _rank(c) == keys[0]])
    # 6. Four to an open-ended straight, 2-3-4-5 up to 10-J-Q-K (a joker may fill a gap;
    #    a hand with a joker has already stopped at rule 5).
    by_rank = {_rank(c): c for c in naturals}
    for low in range(10, 1, -1):
        run = [by_rank[r] for r in range(low, low + 4) if r in by_rank]
        if len(run) + len(wild) >= 4:
            return keep(run + wild)
    # 7. The highest card if it is a Jack or better, else nothing.
    top = max(naturals, key=_rank)
    return [top] if _rank(top) >= 11 else []
