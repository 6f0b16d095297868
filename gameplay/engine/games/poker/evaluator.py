"""Five-card poker hands with wild jokers (rules.md §4 and §6).

A hand's value is one integer; a higher value is a better hand and equal values tie::

    value = category << 20 | k1 << 16 | k2 << 12 | k3 << 8 | k4 << 4 | k5

``category`` runs from 0 (High card) to 9 (Five of a kind) and ``k1..k5`` are the tie-break
ranks of rules.md §6 (A=14 … 2=2, unused places 0).

Speed comes from two lookup tables built once at import, in the style of Cactus Kev's
evaluator:

* every card is an integer ``rank bit << 16 | suit bits << 12 | rank prime``. A joker has no
  rank bit, *all four* suit bits and its own prime (43);
* if the AND of the five cards' suit bits is not zero, every natural card shares one suit (a
  joker matches any suit): the OR of the rank bits indexes ``FLUSH``. In a flush the natural
  ranks are all different, so the number of rank bits also tells how many jokers there are;
* otherwise the product of the five primes names the multiset of ranks and jokers (unique
  factorisation) and indexes ``NONFLUSH``.

Both tables already hold the best value over every way to read the jokers, so a hand with
jokers costs exactly as much as one without. The jokers are resolved when the tables are
built: for a hand that is not suited, a joker's suit cannot matter (the natural cards already
span two suits, so no flush is possible) and only its rank is tried (13 or 13·13 choices); for
a suited hand the best reading is the highest straight flush the jokers can complete, else the
flush with every joker read as a duplicate ace (rules.md §4 allows duplicates), which beats every
unsuited reading those cards allow (at most Three of a kind or a Straight).
tests/engine/test_poker_eval.py checks this against trying every joker as each of the 52 cards.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from ...text import say

HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT = 0, 1, 2, 3, 4
FLUSH_CATEGORY, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, FIVE_OF_A_KIND = 5, 6, 7, 8, 9

CATEGORY_NAMES = [
    say("High card"),
    say("One pair"),
    say("Two pair"),
    say("Three of a kind"),
    say("Straight"),
    say("Flush"),
    say("Full house"),
    say("Four of a kind"),
    say("Straight flush"),
    say("Five of a kind"),
]

RANK_VALUES = {r: v for v, r in enumerate("2 3 4 5 6 7 8 9 10 J Q K A".split(), start=2)}
RANK_WORDS = {
    2: (say("Two"), say("Twos")),
    3: (say("Three"), say("Threes")),
    4: (say("Four"), say("Fours")),
    5: (say("Five"), say("Fives")),
    6: (say("Six"), say("Sixes")),
    7: (say("Seven"), say("Sevens")),
    8: (say("Eight"), say("Eights")),
    9: (say("Nine"), say("Nines")),
    10: (say("Ten"), say("Tens")),
    11: (say("Jack"), say("Jacks")),
    12: (say("Queen"), say("Queens")),
    13: (say("King"), say("Kings")),
    14: (say("Ace"), say("Aces")),
}

PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41]  # ranks 2 .. A
JOKER_PRIME = 43
SUIT_BITS = {"S": 0x1000, "H": 0x2000, "D": 0x4000, "C": 0x8000}
JOKER_CODE = 0xF000 | JOKER_PRIME

# The ten runs, best first: (top card, the five ranks). A-2-3-4-5 is 5-high.
STRAIGHTS = [(top, frozenset(range(top - 4, top + 1))) for top in range(14, 5, -1)]
STRAIGHTS.append((5, frozenset((14, 2, 3, 4, 5))))


def pack(category: int, keys: list[int] | tuple[int, ...]) -> int:
    value = category << 20
    for i, k in enumerate(keys):
        value |= k << (16 - 4 * i)
    return value


def decode(value: int) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of a value, without the unused zero places."""
    keys = tuple(k for i in range(5) if (k := (value >> (16 - 4 * i)) & 0xF))
    return value >> 20, keys


def hand_name(value: int) -> str:
    """The category: 'Full house'."""
    return CATEGORY_NAMES[value >> 20]


def describe(value: int) -> str:
    """A longer name for players: 'Full house, Nines over Fours'."""
    category, keys = decode(value)

    def one(r: int) -> str:
        return RANK_WORDS[r][0]

    def many(r: int) -> str:
        return RANK_WORDS[r][1]

    if category == FIVE_OF_A_KIND:
        return say("Five {ranks}", ranks=many(keys[0]))
    if category == STRAIGHT_FLUSH:
        return say("Straight flush, {rank} high", rank=one(keys[0]))
    if category == FOUR_OF_A_KIND:
        return say("Four {ranks}", ranks=many(keys[0]))
    if category == FULL_HOUSE:
        return say("Full house, {ranks} over {other}", ranks=many(keys[0]), other=many(keys[1]))
    if category == FLUSH_CATEGORY:
        return say("Flush, {rank} high", rank=one(keys[0]))
    if category == STRAIGHT:
        return say("Straight, {rank} high", rank=one(keys[0]))
    if category == THREE_OF_A_KIND:
        return say("Three {ranks}", ranks=many(keys[0]))
    if category == TWO_PAIR:
        return say("Two pair, {ranks} and {other}", ranks=many(keys[0]), other=many(keys[1]))
    if category == ONE_PAIR:
        return say("Pair of {ranks}", ranks=many(keys[0]))
    return say("High card, {rank}", rank=one(keys[0]))


# ---- card codes -----------------------------------------------------------------------------


def encode(card: str) -> int:
    """The integer code of a card string ('AS', '10H', 'JK1')."""
    if card.startswith("JK"):
        return JOKER_CODE
    r = RANK_VALUES[card[:-1]]
    return (1 << (r - 2)) << 16 | SUIT_BITS[card[-1]] | PRIMES[r - 2]


CODES = {r + s: encode(r + s) for r in RANK_VALUES for s in SUIT_BITS}
CODES["JK1"] = CODES["JK2"] = JOKER_CODE


# ---- values of natural rank multisets (the definitions of rules.md §6) -----------------------


def _prime_product(ranks) -> int:
    product = 1
    for r in ranks:
        product *= PRIMES[r - 2]
    return product


def _straight_top(ranks: frozenset[int]) -> int:
    for top, run in STRAIGHTS:
        if ranks == run:
            return top
    return 0


def _best_suited(naturals: tuple[int, ...], jokers: int) -> int:
    """Best value of distinct suited natural ranks plus ``jokers`` wild cards."""
    have = frozenset(naturals)
    for top, run in STRAIGHTS:  # best first
        if have <= run:
            return pack(STRAIGHT_FLUSH, [top])
    return pack(FLUSH_CATEGORY, sorted(naturals + (14,) * jokers, reverse=True))


def _natural_table() -> dict[int, int]:
    """Value of every multiset of five natural ranks (a rank may repeat up to five times, as
    jokers can make it), keyed by prime product, listed shape by shape as rules.md §6 defines
    them."""
    table: dict[int, int] = {}
    ranks = range(14, 1, -1)  # high to low, so every key list below comes out sorted
    p = {r: PRIMES[r - 2] for r in ranks}
    for a in ranks:
        table[p[a] ** 5] = pack(FIVE_OF_A_KIND, [a])
        others = [r for r in ranks if r != a]
        for b in others:
            table[p[a] ** 4 * p[b]] = pack(FOUR_OF_A_KIND, [a, b])
            table[p[a] ** 3 * p[b] ** 2] = pack(FULL_HOUSE, [a, b])
        for b, c in combinations(others, 2):
            table[p[a] ** 3 * p[b] * p[c]] = pack(THREE_OF_A_KIND, [a, b, c])
        for b, c, d in combinations(others, 3):
            table[p[a] ** 2 * p[b] * p[c] * p[d]] = pack(ONE_PAIR, [a, b, c, d])
    for a, b in combinations(ranks, 2):
        for c in ranks:
            if c != a and c != b:
                table[p[a] ** 2 * p[b] ** 2 * p[c]] = pack(TWO_PAIR, [a, b, c])
    for combo in combinations(ranks, 5):
        top = _straight_top(frozenset(combo))
        value = pack(STRAIGHT, [top]) if top else pack(HIGH_CARD, combo)
        table[_prime_product(combo)] = value
    return table


def _joker_readings(naturals: tuple[int, ...], jokers: int) -> list[int]:
    """Prime products of the joker ranks worth trying for unsuited ``naturals``: a rank the
    hand already has (a joker that pairs beats one that doesn't) or one that completes a
    straight. Any other rank leaves a worse hand than pairing the highest card."""
    have = set(naturals)
    useful = set(have)
    if len(have) == len(naturals):
        for _, run in STRAIGHTS:
            if have <= run:
                useful |= run
    return [_prime_product(r) for r in combinations_with_replacement(sorted(useful), jokers)]


def _build_tables() -> tuple[dict[int, int], list[int]]:
    ranks = range(2, 15)
    natural = _natural_table()
    # Five of a kind needs a joker: a deck has four of each rank.
    nonflush = {k: v for k, v in natural.items() if v >> 20 != FIVE_OF_A_KIND}
    for jokers in (1, 2):
        for combo in combinations_with_replacement(ranks, 5 - jokers):
            product = _prime_product(combo)
            best = max(natural[product * r] for r in _joker_readings(combo, jokers))
            nonflush[product * JOKER_PRIME**jokers] = best

    flush = [0] * (1 << 13)
    for jokers in range(3):
        for combo in combinations(ranks, 5 - jokers):
            bits = 0
            for r in combo:
                bits |= 1 << (r - 2)
            flush[bits] = _best_suited(combo, jokers)
    return nonflush, flush


NONFLUSH, FLUSH = _build_tables()


# ---- evaluation -----------------------------------------------------------------------------


def evaluate(codes) -> int:
    """Value of five card codes (see ``encode``). The fast path: two ANDs and a lookup."""
    a, b, c, d, e = codes
    if a & b & c & d & e & 0xF000:
        return FLUSH[(a | b | c | d | e) >> 16]
    return NONFLUSH[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]


def evaluate_cards(cards: list[str]) -> int:
    """Value of five card strings."""
    codes = CODES
    return evaluate([codes[c] for c in cards])


def evaluate_hand(cards: list[str]) -> tuple[int, str]:
    """(value, category name) of five card strings: (…, 'Five of a kind')."""
    value = evaluate_cards(cards)
    return value, hand_name(value)
