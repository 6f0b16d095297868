"""Melds: the best arrangement of a rummy hand, exactly. Shared by Gin Rummy and Thirteen.

A *meld* (Thirteen calls it a *combination*) is a set, cards of one rank, or a run, cards in
a row in one suit with the Ace low only. The best arrangement splits a hand into disjoint
melds so that the cards left over, the *deadwood*, are worth as few points as possible:
A = 1, 2–10 face value, J/Q/K = 10, and in Thirteen a wild card left over is worth 25
(games/gin/rules.md §3, games/thirteen/rules.md §3).

How it stays exact and fast:

* A hand is a 52-bit mask, bit ``13 * suit + rank - 1`` with the suits in deck order
  S, H, D, C, so each suit is a 13-bit slice.
* Without sets every suit stands alone, and its best is plain: each stretch of 3 or more cards
  in a row is one run, everything else is deadwood. Tables over the 8,192 possible slices,
  built once at import, hold that deadwood, so a hand that holds no rank three times costs
  four lookups.
* Sets only matter for ranks held three or four times. When none of a rank's cards sits in a
  stretch of three, its set is always taken whole (those cards can do nothing better). For
  the other ranks every choice is tried: no set, the set of all of them, or (of four) each set
  of three. Eleven cards hold at most three such ranks, so there are at most 6·2·2 = 24
  choices of four lookups each. That covers every arrangement that can be best, so the
  minimum is exact; tests/engine/test_melds.py compares it with trying every way to split a
  hand into melds.
* Wild cards (Thirteen): each combination needs a natural card; wilds fill the gaps and make
  up the length, and once there is one combination every spare wild can join it. A memoised
  search picks the combinations that use wilds (at most one per wild); what is left of the
  naturals is a plain hand, solved as above.
* Lay-offs (Gin): a knocker's run in a suit is an anchor; every defender card joined to it
  through a row of defender cards can be laid off, and the missing fourth card of a set of
  three can be laid off too. The defender's own sets are tried as above, so the least
  deadwood after lay-offs is exact as well.

The public functions take and return card strings; the ``*_mask`` ones take masks (see
``hand_mask``) for callers that test many hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .cards import deck

SUIT_SLICE = 0x1FFF  # the 13 bits of one suit
NAMES = deck()  # bit -> card string, the canonical order
BIT = {card: i for i, card in enumerate(NAMES)}
CARD_BIT = {card: 1 << i for i, card in enumerate(NAMES)}
RANK_POINTS = [min(r, 10) for r in range(1, 14)]  # deadwood points by rank index (A = 0)
WILD_POINTS = 25
CARD_POINTS = [RANK_POINTS[i % 13] for i in range(52)]
RANK_BITS = [sum(1 << (13 * s + r) for s in range(4)) for r in range(13)]  # a rank in all suits


def _runless(m: int) -> int:
    """The cards of a suit slice that are in no stretch of 3 or more in a row."""
    starts = m & (m >> 1) & (m >> 2)
    return m & ~(starts | starts << 1 | starts << 2)


def _slice_points(m: int) -> int:
    return sum(RANK_POINTS[r] for r in range(13) if m >> r & 1)


RUNLESS = [_runless(m) for m in range(1 << 13)]
POINTS = [_slice_points(m) for m in range(1 << 13)]
DEAD = [POINTS[RUNLESS[m]] for m in range(1 << 13)]  # a suit slice's deadwood without sets


class Arrangement(NamedTuple):
    """A hand split into melds and deadwood. ``melds`` are ordered by their lowest card in
    canonical order; a run's cards go up in rank (wilds in the places they stand for), a set's
    naturals in suit order, then its wilds. ``deadwood`` is in canonical order and ``points``
    is what it is worth."""

    melds: tuple[tuple[str, ...], ...]
    deadwood: tuple[str, ...]
    points: int


class LayOff(NamedTuple):
    """How a Gin defender plays out against the knocker's melds: its own melds, the cards it
    lays off (each with the index of the knocker's meld it goes onto), and what is left."""

    melds: tuple[tuple[str, ...], ...]
    laid_off: tuple[tuple[str, int], ...]
    deadwood: tuple[str, ...]
    points: int


# ---- cards and masks ---------------------------------------------------------------------


def bits(mask: int) -> list[int]:
    """Each card of a hand mask as a mask of its own."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def neighbours(bit: int) -> int:
    """The cards that meld with the card at ``bit``: its rank in every suit, and the cards
    either side of it in its suit."""
    rank, suit = bit % 13, bit // 13
    near = RANK_BITS[rank]
    for step in (-1, 1):
        if 0 <= rank + step < 13:
            near |= 1 << (13 * suit + rank + step)
    return near


def hand_mask(cards: Iterable[str]) -> int:
    mask = 0
    for card in cards:
        mask |= CARD_BIT[card]
    return mask


def mask_cards(mask: int) -> tuple[str, ...]:
    """The cards of a mask in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(NAMES[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def card_points(card: str, wild: int | None = None) -> int:
    """What a card left over is worth; ``wild`` is the wild rank (1–13) or None."""
    bit = BIT[card]
    if wild is not None and bit % 13 == wild - 1:
        return WILD_POINTS
    return CARD_POINTS[bit]


_SLICE_PARTS: list[dict[int, tuple]] = [{} for _ in range(4)]
_PARTS_S, _PARTS_H, _PARTS_D, _PARTS_C = _SLICE_PARTS


def _slice_parts(s: int, m: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], int]:
    """A suit slice without sets: (its runs, each stretch of 3 or more, lowest first; its
    deadwood cards; their points). Kept once worked out: a suit has 8,192 slices."""
    found = _SLICE_PARTS[s].get(m)
    if found is None:
        runs = []
        run: list[str] = []
        for r in range(14):
            if r < 13 and m >> r & 1:
                run.append(NAMES[13 * s + r])
                continue
            if len(run) >= 3:
                runs.append(tuple(run))
            run = []
        found = (tuple(runs), mask_cards(RUNLESS[m] << 13 * s), DEAD[m])
        _SLICE_PARTS[s][m] = found
    return found


# ---- plain hands (no wilds) ------------------------------------------------------------


def _set_choices(slices: list[int], ranks: int) -> list[tuple[int, int, int, int]]:
    """Every way to form sets from ``ranks`` (a 13-bit mask of ranks held 3 or 4 times): per
    rank no set, all of its cards, or (of four) each three; as the cards taken per suit."""
    choices = [(0, 0, 0, 0)]
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        held = [bit if m & bit else 0 for m in slices]
        options = [(0, 0, 0, 0), tuple(held)]
        if all(held):
            options += [tuple(0 if s == left else bit for s in range(4)) for left in range(4)]
        choices = [
            (a | o[0], b | o[1], c | o[2], d | o[3]) for a, b, c, d in choices for o in options
        ]
    return choices


def _contested(a: int, b: int, c: int, d: int) -> tuple[int, int]:
    """(ranks held 3+ times whose set is taken whole, ranks whose set must be tried)."""
    trips = (a & b & (c | d)) | (c & d & (a | b))
    if not trips:
        return 0, 0
    in_runs = (a & ~RUNLESS[a]) | (b & ~RUNLESS[b]) | (c & ~RUNLESS[c]) | (d & ~RUNLESS[d])
    return trips & ~in_runs, trips & in_runs


def deadwood_mask(mask: int) -> int:
    """The least deadwood points of a hand without wilds."""
    a = mask & SUIT_SLICE
    b = mask >> 13 & SUIT_SLICE
    c = mask >> 26 & SUIT_SLICE
    d = mask >> 39
    trips = (a & b & (c | d)) | (c & d & (a | b))
    if not trips:
        return DEAD[a] + DEAD[b] + DEAD[c] + DEAD[d]
    whole, tried = _contested(a, b, c, d)
    if whole:
        a &= ~whole
        b &= ~whole
        c &= ~whole
        d &= ~whole
    if not tried:
        return DEAD[a] + DEAD[b] + DEAD[c] + DEAD[d]
    return min(
        DEAD[a & ~ra] + DEAD[b & ~rb] + DEAD[c & ~rc] + DEAD[d & ~rd]
        for ra, rb, rc, rd in _set_choices([a, b, c, d], tried)
    )


def _build(slices: list[int], sets: list[int]) -> Arrangement:
    """The arrangement with these sets (52-bit masks) and every stretch of 3+ as a run."""
    melds: list[tuple[str, ...]] = []
    dead: tuple[str, ...] = ()
    points = 0
    for s in range(4):
        runs, left, worth = _SLICE_PARTS[s].get(slices[s]) or _slice_parts(s, slices[s])
        melds += runs
        dead += left
        points += worth
    if sets:
        melds += [mask_cards(m) for m in sets]
        melds.sort(key=lambda meld: BIT[meld[0]])
    return Arrangement(tuple(melds), dead, points)


def _sets_of(ranks: int, slices: list[int]) -> list[int]:
    """A 52-bit mask per rank in ``ranks``: that rank's cards in ``slices``."""
    out = []
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        out.append(sum(bit << 13 * s for s in range(4) if slices[s] & bit))
    return out


def best_arrangements_mask(mask: int) -> list[Arrangement]:
    """Every arrangement of a hand without wilds that leaves the least deadwood, in
    canonical order (by their melds' card order). Runs are whole stretches: splitting a
    stretch into two runs changes nothing that matters (the same cards, the same ends)."""
    slices = [mask >> 13 * s & SUIT_SLICE for s in range(4)]
    whole, tried = _contested(*slices)
    whole_sets = _sets_of(whole, slices)
    slices = [m & ~whole for m in slices]
    best: list[Arrangement] = []
    least = None
    for taken in _set_choices(slices, tried):
        left = [slices[s] & ~taken[s] for s in range(4)]
        points = DEAD[left[0]] + DEAD[left[1]] + DEAD[left[2]] + DEAD[left[3]]
        if least is not None and points > least:
            continue
        taken_ranks = taken[0] | taken[1] | taken[2] | taken[3]
        arrangement = _build(left, whole_sets + _sets_of(taken_ranks, list(taken)))
        if least is None or points < least:
            least, best = points, [arrangement]
        else:
            best.append(arrangement)
    best.sort(key=canonical_key)
    return best


def canonical_key(arrangement: Arrangement | LayOff) -> tuple:
    """Orders arrangements by their melds, card by card in canonical deck order."""
    return tuple(tuple(BIT[c] for c in meld) for meld in arrangement.melds)


# ---- wild cards (Thirteen) -------------------------------------------------------------


def _wild_cores(naturals: int, wilds: int) -> list[tuple[int, int]]:
    """Every combination core that needs wilds: (its natural cards, the wilds it needs), for
    1 to ``wilds`` wilds. A set core is 1 or 2 cards of a rank (3 − n wilds); a run core is
    cards of one suit, each rank once, with gaps or fewer than 3 cards: max(3 − n, span − n)
    wilds, the span being its highest rank − its lowest + 1."""
    cores = []
    rest = naturals
    while rest:
        low = rest & -rest
        rest ^= low
        c = low.bit_length() - 1
        r = c % 13
        if wilds >= 2:
            cores.append((low, 2))
        same = RANK_BITS[r] & rest
        while same:
            other = same & -same
            same ^= other
            cores.append((low | other, 1))
        # Run cores whose lowest card is ``c``: the higher cards of its suit near enough (a
        # card r' away needs r' − r + 1 − n ≤ wilds). ``rest`` holds only cards above ``c``,
        # and the window ends within the suit.
        above = rest & ((1 << (c - r + min(13, r + wilds + 8))) - 1)
        sub = above
        while sub:
            n = 1 + sub.bit_count()
            span = sub.bit_length() - c
            need = max(3 - n, span - n)
            if 1 <= need <= wilds:
                cores.append((low | sub, need))
            sub = (sub - 1) & above
    return cores


def _wild_search(naturals: int, wilds: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(the least points of the naturals left over, the wild-using cores that give it)."""
    cores = _wild_cores(naturals, wilds)
    memo: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}

    def search(mask: int, w: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        key = mask << 3 | w
        found = memo.get(key)
        if found is not None:
            return found
        best: tuple[int, tuple[tuple[int, int], ...]] = (deadwood_mask(mask), ())
        for core, need in cores:
            if not best[0]:
                break  # nothing left over: nothing to improve
            if need <= w and core & mask == core:
                rest = mask ^ core
                if need == w:
                    points, chosen = deadwood_mask(rest), ()
                else:
                    points, chosen = search(rest, w - need)
                if points < best[0]:
                    best = (points, ((core, need), *chosen))
        memo[key] = best
        return best

    return search(naturals, wilds)


def _split_wild(mask: int, wild: int) -> tuple[int, int]:
    """(naturals, wild cards) of a hand in a round whose wild rank is ``wild``."""
    wild_bits = RANK_BITS[wild - 1]
    return mask & ~wild_bits, mask & wild_bits


def wild_deadwood_mask(mask: int, wild: int) -> int:
    """The least leftover points of a Thirteen hand; a wild left over is worth 25."""
    naturals, wild_cards = _split_wild(mask, wild)
    if not wild_cards:
        return deadwood_mask(naturals)
    w = wild_cards.bit_count()
    points, _ = _wild_search(naturals, w)
    if points == _mask_points(naturals):  # no combination at all: the wilds are left over
        return points + WILD_POINTS * w
    return points


def _mask_points(mask: int) -> int:
    return (
        POINTS[mask & SUIT_SLICE]
        + POINTS[mask >> 13 & SUIT_SLICE]
        + POINTS[mask >> 26 & SUIT_SLICE]
        + POINTS[mask >> 39]
    )


def _wild_arrangement(mask: int, wild: int) -> Arrangement:
    naturals, wild_cards = _split_wild(mask, wild)
    spare = list(mask_cards(wild_cards))
    points, cores = _wild_search(naturals, len(spare))
    left = naturals
    for core, _ in cores:
        left ^= core
    plain = arrange_mask(left)
    if not cores and not plain.melds:
        dead = tuple(sorted(plain.deadwood + tuple(spare), key=BIT.__getitem__))
        return Arrangement((), dead, points + WILD_POINTS * len(spare))
    found: list[tuple[str, ...]] = []
    for core, need in cores:
        given, spare = spare[:need], spare[need:]
        found.append(_combination(core, given))
    found += plain.melds
    found.sort(key=lambda meld: min(BIT[c] for c in meld))
    if spare:
        # Spare wilds join a set if there is one (any size is allowed), else the first run.
        at = next((i for i, meld in enumerate(found) if _is_set(meld, wild)), 0)
        naturals_of = hand_mask(c for c in found[at] if BIT[c] % 13 != wild - 1)
        wilds_of = [c for c in found[at] if BIT[c] % 13 == wild - 1]
        found[at] = _combination(naturals_of, wilds_of + spare)
    return Arrangement(tuple(found), plain.deadwood, points)


def _is_set(meld: Sequence[str], wild: int) -> bool:
    """A combination is a set when its natural cards share one rank (one natural with wilds
    counts as a set: sets take any number of wilds)."""
    return len({BIT[c] % 13 for c in meld if BIT[c] % 13 != wild - 1}) == 1


def _combination(core: int, wilds: list[str]) -> tuple[str, ...]:
    """A combination's cards in order: a set's naturals then its wilds; a run's cards from its
    lowest place up, each wild in the place it stands for (extra places go above, or below
    where the King is reached)."""
    cards = mask_cards(core)
    ranks = [BIT[c] % 13 for c in cards]
    if len(set(ranks)) == 1:
        return cards + tuple(wilds)
    size = len(cards) + len(wilds)
    low = min(ranks[0], 13 - size)
    given = iter(wilds)
    return tuple(
        cards[ranks.index(r)] if r in ranks else next(given) for r in range(low, low + size)
    )


# ---- lay-offs (Gin) ----------------------------------------------------------------------


def _flood(anchor: int, cards: int) -> int:
    """``anchor`` grown through ``cards`` one rank at a time, both ways (a 13-bit slice)."""
    grown = anchor
    while True:
        wider = grown | ((grown << 1 | grown >> 1) & cards)
        if wider == grown:
            return grown
        grown = wider


def lay_off_mask(mask: int, melds: Sequence[Sequence[str]]) -> LayOff:
    """The defender's least deadwood against the knocker's ``melds``: its own melds first, then
    every other card that fits a knocker's meld (games/gin/rules.md §4). A run takes the next
    card of its suit at either end, again and again; a set of three takes its fourth card."""
    anchors = [0] * 4  # per suit: the knocker's run cards
    fourths = [0] * 4  # per suit: cards that complete a knocker's set of three
    runs: list[tuple[int, int, int]] = []  # (meld index, suit, slice)
    set_of: dict[int, int] = {}  # fourth card's bit -> meld index
    for i, meld in enumerate(melds):
        bits = [BIT[c] for c in meld]
        if len({b % 13 for b in bits}) == 1:
            if len(bits) == 3:
                r = bits[0] % 13
                missing = next(s for s in range(4) if 13 * s + r not in bits)
                fourths[missing] |= 1 << r
                set_of[13 * missing + r] = i
            continue
        s = bits[0] // 13
        piece = sum(1 << b % 13 for b in bits)
        anchors[s] |= piece
        runs.append((i, s, piece))
    slices = [mask >> 13 * s & SUIT_SLICE for s in range(4)]
    trips = (slices[0] & slices[1] & (slices[2] | slices[3])) | (
        slices[2] & slices[3] & (slices[0] | slices[1])
    )
    best = None
    for taken in _set_choices(slices, trips):
        points = 0
        for s in range(4):
            own = slices[s] & ~taken[s]
            rest = own & ~_flood(anchors[s], own)
            points += POINTS[RUNLESS[rest] & ~fourths[s]]
        if best is None or points < best[0]:
            best = (points, taken)
    points, taken = best
    own_sets = _sets_of(taken[0] | taken[1] | taken[2] | taken[3], list(taken))
    melds_out: list[tuple[str, ...]] = [mask_cards(m) for m in own_sets]
    laid: list[tuple[str, int]] = []
    dead: list[str] = []
    for s in range(4):
        own = slices[s] & ~taken[s]
        chained = own & _flood(anchors[s], own)
        rest = own & ~chained
        melds_out += _slice_parts(s, rest)[0]
        for r in range(13):
            if chained >> r & 1:
                on = next(i for i, rs, piece in runs if rs == s and _flood(piece, own) >> r & 1)
                laid.append((NAMES[13 * s + r], on))
            elif RUNLESS[rest] >> r & 1:
                if fourths[s] >> r & 1:
                    laid.append((NAMES[13 * s + r], set_of[13 * s + r]))
                else:
                    dead.append(NAMES[13 * s + r])
    melds_out.sort(key=lambda meld: BIT[meld[0]])
    laid.sort(key=lambda pair: BIT[pair[0]])
    return LayOff(tuple(melds_out), tuple(laid), tuple(dead), points)


# ---- the public calls, on card strings ------------------------------------------------------


def is_meld(cards: Sequence[str], wild: int | None = None) -> bool:
    """Whether these cards form one meld: a set of 3–4 of a rank or a run of 3+ in a suit
    (Ace low). With a wild rank (Thirteen): at least one natural card; a set's naturals share
    a rank (any size); a run's naturals share a suit, each rank once, inside a block of
    consecutive ranks from A to K as long as the combination."""
    if len(cards) < 3 or len(set(cards)) != len(cards) or not all(c in BIT for c in cards):
        return False
    bits = [BIT[c] for c in cards]
    naturals = [b for b in bits if wild is None or b % 13 != wild - 1]
    if not naturals:
        return False
    ranks = [b % 13 for b in naturals]
    if len(set(ranks)) == 1:
        return True
    if len({b // 13 for b in naturals}) != 1 or len(set(ranks)) != len(ranks):
        return False
    return max(ranks) - min(ranks) + 1 <= len(cards) <= 13


def deadwood(cards: Iterable[str], wild: int | None = None) -> int:
    """The least deadwood points of a hand (``wild``: Thirteen's wild rank, 1–13)."""
    mask = 0
    for card in cards:
        mask |= CARD_BIT[card]
    return deadwood_mask(mask) if wild is None else wild_deadwood_mask(mask, wild)


def arrange_mask(mask: int, wild: int | None = None) -> Arrangement:
    if wild is not None and mask & RANK_BITS[wild - 1]:
        return _wild_arrangement(mask, wild)
    a = mask & SUIT_SLICE
    b = mask >> 13 & SUIT_SLICE
    c = mask >> 26 & SUIT_SLICE
    d = mask >> 39
    if (a & b & (c | d)) | (c & d & (a | b)):
        return best_arrangements_mask(mask)[0]
    # No rank three times: each suit on its own (the common case, kept short).
    runs_a, dead_a, points_a = _PARTS_S.get(a) or _slice_parts(0, a)
    runs_b, dead_b, points_b = _PARTS_H.get(b) or _slice_parts(1, b)
    runs_c, dead_c, points_c = _PARTS_D.get(c) or _slice_parts(2, c)
    runs_d, dead_d, points_d = _PARTS_C.get(d) or _slice_parts(3, d)
    return Arrangement(
        runs_a + runs_b + runs_c + runs_d,
        dead_a + dead_b + dead_c + dead_d,
        points_a + points_b + points_c + points_d,
    )


def arrange(cards: Iterable[str], wild: int | None = None) -> Arrangement:
    """The best arrangement: the least deadwood, the first in canonical order on a tie."""
    mask = 0
    for card in cards:
        mask |= CARD_BIT[card]
    return arrange_mask(mask, wild)


def best_arrangements(cards: Iterable[str]) -> list[Arrangement]:
    """Every arrangement (no wilds) with the least deadwood, in canonical order."""
    return best_arrangements_mask(hand_mask(cards))


def lay_off(cards: Iterable[str], melds: Sequence[Sequence[str]]) -> LayOff:
    """The defender's own melds and lay-offs onto the knocker's ``melds`` that leave it the
    least deadwood."""
    return lay_off_mask(hand_mask(cards), melds)
