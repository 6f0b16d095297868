"""Blackjack basic strategy, derived by computation for the rules in rules.md.

The rules: dealer stands on every 17 (soft 17 included), the dealer peeks under an A or a
10-value upcard and a dealer blackjack ends the round at once, no split, no insurance, no
surrender, double on any first two cards (one card, then the hand is finished), a blackjack
pays 3:2, ties push.

Method: an **infinite-deck** model (every draw is an A with probability 1/13, a 10-value card
with 4/13, each of 2–9 with 1/13), with the **peek conditioning**: when the upcard is an A or
worth 10 and play goes on, the dealer is known not to hold a blackjack, so the hole card is
drawn from the distribution without the one card that would have made it. From that:

1. ``dealer_probabilities()``: for each upcard, the probability of the dealer finishing on
   17, 18, 19, 20, 21 or bust (given no dealer blackjack).
2. The player's expected value of standing, hitting (recursively, playing on optimally) and
   doubling for every hard and soft total against every upcard (``ev_table()``).
3. ``strategy_table()``: the action with the highest expectation for a first two-card hand;
   ``hit_stand_table()``: the same choice when a double is no longer possible.
4. ``expected_return()``: the expectation per unit bet of a round played this way, before
   anything is known (dealer blackjacks and player blackjacks included).

Nothing here is typed in from a chart; the tables come out of the recursion. The 2-deck shoe
is approximated by the infinite deck, the usual model for basic strategy (the differences are
a few close cells and a few tenths of a percent in the overall return; see bench/blackjack_ev.py).
"""

from __future__ import annotations

from functools import cache, lru_cache

METHOD = "infinite deck, dealer peek conditioning (no dealer blackjack once play goes on)"

# Card values 1 (ace) .. 10, and their draw probabilities in an infinite deck.
VALUES = tuple(range(1, 11))
PROB = {v: (4 / 13 if v == 10 else 1 / 13) for v in VALUES}
# Upcards in table order, as labels and as card values.
UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
DEALER_FINALS = (17, 18, 19, 20, 21, "bust")
BLACKJACK_PAYS = 1.5

HIT, STAND, DOUBLE = "hit", "stand", "double"


def up_value(label: str) -> int:
    return 1 if label == "A" else int(label)


def up_label(value: int) -> str:
    return "A" if value == 1 else str(value)


def _total(hard: int, ace: bool) -> tuple[int, bool]:
    """(best total, soft?) of a hand whose cards sum to ``hard`` with aces as 1."""
    if ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


# ---- 1. the dealer ---------------------------------------------------------------------------


@cache
def _dealer_finish(hard: int, ace: bool) -> tuple[float, ...]:
    """Distribution over DEALER_FINALS for a dealer hand (hard sum, has an ace) that still
    follows the drawing rule: draw below 17, stand on every 17 (soft 17 too)."""
    total, _soft = _total(hard, ace)
    if total > 21:
        return (0.0,) * 5 + (1.0,)
    if total >= 17:
        out = [0.0] * 6
        out[total - 17] = 1.0
        return tuple(out)
    out = [0.0] * 6
    for v in VALUES:
        sub = _dealer_finish(hard + v, ace or v == 1)
        for i in range(6):
            out[i] += PROB[v] * sub[i]
    return tuple(out)


def _hole_distribution(up: int) -> dict[int, float]:
    """The hole card's distribution once the dealer has no blackjack."""
    excluded = 10 if up == 1 else 1 if up == 10 else None
    weights = {v: p for v, p in PROB.items() if v != excluded}
    norm = sum(weights.values())
    return {v: p / norm for v, p in weights.items()}


def dealer_blackjack_probability(up: int) -> float:
    """Chance that the hole card makes a blackjack (only under an A or a 10-value upcard)."""
    return PROB[10] if up == 1 else PROB[1] if up == 10 else 0.0


@cache
def _dealer_given_no_blackjack(up: int) -> tuple[float, ...]:
    out = [0.0] * 6
    for hole, p in _hole_distribution(up).items():
        sub = _dealer_finish(up + hole, up == 1 or hole == 1)
        for i in range(6):
            out[i] += p * sub[i]
    return tuple(out)


def dealer_probabilities() -> dict[str, dict[str, float]]:
    """{upcard: {"17": p, ..., "21": p, "bust": p}} given that the dealer has no blackjack."""
    return {
        label: {
            str(final): p
            for final, p in zip(
                DEALER_FINALS, _dealer_given_no_blackjack(up_value(label)), strict=True
            )
        }
        for label in UPCARDS
    }


# ---- 2. the player ---------------------------------------------------------------------------


@cache
def _stand(total: int, up: int) -> float:
    if total > 21:
        return -1.0
    dist = _dealer_given_no_blackjack(up)
    ev = dist[5]  # dealer busts
    for i, final in enumerate(DEALER_FINALS[:5]):
        ev += dist[i] * (1 if total > final else 0 if total == final else -1)
    return ev


@cache
def _hit(hard: int, ace: bool, up: int) -> float:
    """Draw one card, then play on optimally (hit or stand; a hand of 21 stands)."""
    ev = 0.0
    for v in VALUES:
        nhard = hard + v
        ev += PROB[v] * (-1.0 if nhard > 21 else _hit_or_stand(nhard, ace or v == 1, up)[1])
    return ev


@cache
def _hit_or_stand(hard: int, ace: bool, up: int) -> tuple[str, float]:
    total, _soft = _total(hard, ace)
    stand = _stand(total, up)
    if total == 21:  # the hand stands automatically
        return STAND, stand
    hit = _hit(hard, ace, up)
    return (HIT, hit) if hit > stand else (STAND, stand)


@cache
def _double(hard: int, ace: bool, up: int) -> float:
    ev = 0.0
    for v in VALUES:
        total, _soft = _total(hard + v, ace or v == 1)
        ev += PROB[v] * _stand(total, up)
    return 2 * ev


def _cell_evs(hard: int, ace: bool, up: int) -> dict[str, float]:
    total, _soft = _total(hard, ace)
    return {
        STAND: _stand(total, up),
        HIT: _hit(hard, ace, up),
        DOUBLE: _double(hard, ace, up),
    }


def _best(evs: dict[str, float], can_double: bool) -> str:
    choices = [HIT, STAND, DOUBLE] if can_double else [HIT, STAND]
    return max(choices, key=lambda a: evs[a])


# Cells: hard totals 4 (2+2) to 20 and soft totals 12 (A+A) to 20 for a first two-card hand;
# hard 4..21 and soft 12..21 once more cards are held.
HARD_FIRST = range(4, 21)
SOFT_FIRST = range(12, 21)
HARD_ANY = range(4, 22)
SOFT_ANY = range(12, 22)


def _cell(hand_type: str, total: int) -> tuple[int, bool]:
    """(hard sum, has ace) for a hard or soft total; soft totals hold an ace counted 11."""
    return (total - 10, True) if hand_type == "soft" else (total, False)


@lru_cache(maxsize=1)
def _tables() -> tuple[dict, dict, dict]:
    evs: dict[str, dict[int, dict[str, dict[str, float]]]] = {"hard": {}, "soft": {}}
    first: dict[str, dict[int, dict[str, str]]] = {"hard": {}, "soft": {}}
    later: dict[str, dict[int, dict[str, str]]] = {"hard": {}, "soft": {}}
    for hand_type, totals_any, totals_first in (
        ("hard", HARD_ANY, HARD_FIRST),
        ("soft", SOFT_ANY, SOFT_FIRST),
    ):
        for total in totals_any:
            hard, ace = _cell(hand_type, total)
            evs[hand_type][total] = {}
            later[hand_type][total] = {}
            if total in totals_first:
                first[hand_type][total] = {}
            for label in UPCARDS:
                up = up_value(label)
                cell = _cell_evs(hard, ace, up)
                evs[hand_type][total][label] = cell
                later[hand_type][total][label] = _hit_or_stand(hard, ace, up)[0]
                if total in totals_first:
                    first[hand_type][total][label] = _best(cell, can_double=True)
    return evs, first, later


def ev_table() -> dict[str, dict[int, dict[str, dict[str, float]]]]:
    """{"hard"|"soft": {total: {upcard: {"stand": ev, "hit": ev, "double": ev}}}}: the
    expectation per unit of the original bet, given no dealer blackjack. "hit" plays on
    optimally without doubling."""
    return _tables()[0]


def strategy_table() -> dict[str, dict[int, dict[str, str]]]:
    """{"hard"|"soft": {total: {upcard: "hit"|"stand"|"double"}}} for a first two-card hand."""
    return _tables()[1]


def hit_stand_table() -> dict[str, dict[int, dict[str, str]]]:
    """The best of hit and stand, for hands of 3+ cards or when a double is not allowed."""
    return _tables()[2]


def decide(total: int, soft: bool, up: int, can_double: bool) -> str:
    """The action for a hand with this total (soft or hard) against upcard value ``up``
    (1 = A, 10 = any 10-value card). ``can_double``: the hand has two cards and the chips
    to double."""
    if total >= 21:
        return STAND
    hand_type = "soft" if soft else "hard"
    label = up_label(up)
    if can_double and total in strategy_table()[hand_type]:
        return strategy_table()[hand_type][total][label]
    return hit_stand_table()[hand_type][total][label]


# ---- 4. the whole round ----------------------------------------------------------------------


@lru_cache(maxsize=1)
def expected_return() -> float:
    """Expected net win per unit bet of one round with this strategy (infinite deck)."""
    player_bj = 2 * PROB[1] * PROB[10]
    total_ev = 0.0
    for up in VALUES:
        p_dealer_bj = dealer_blackjack_probability(up)
        # dealer blackjack: a player blackjack pushes, anything else loses the bet
        ev = p_dealer_bj * -(1 - player_bj)
        played = 0.0
        for a in VALUES:
            for b in VALUES:
                p = PROB[a] * PROB[b]
                if {a, b} == {1, 10}:
                    played += p * BLACKJACK_PAYS
                    continue
                hard, ace = a + b, a == 1 or b == 1
                cell = _cell_evs(hard, ace, up)
                played += p * cell[_best(cell, can_double=True)]
        ev += (1 - p_dealer_bj) * played
        total_ev += PROB[up] * ev
    return total_ev


def summary() -> str:
    """The first two-card strategy as text rows, for benchmarks and reading."""
    short = {HIT: "H", STAND: "S", DOUBLE: "D"}
    lines = ["      " + " ".join(f"{u:>2}" for u in UPCARDS)]
    for hand_type in ("hard", "soft"):
        for total, row in strategy_table()[hand_type].items():
            lines.append(
                f"{hand_type[0]}{total:<4} " + " ".join(f"{short[row[u]]:>2}" for u in UPCARDS)
            )
    return "\n".join(lines)
