"""Scoring a round and ending the game (rules §5–7): card values, last-card bonuses, the
101 totals, and the winner of a blocked round."""

from __future__ import annotations

from typing import Any

from ...cards import RANKS, SUITS, is_joker, rank, suit

JOKER_POINTS = 50

# What each card left in a hand counts, per value table (rules §6). Jokers count 50 in all.
VALUE_TABLES: dict[str, dict[str, int]] = {
    "american8": {
        **{r: 5 for r in ("3", "4", "5", "6", "7", "9", "10")},
        **{r: 10 for r in ("J", "Q", "K")},
        "A": 15,
        "2": 15,
        "2S": 25,
        "8": 25,
    },
    "classic": {"A": 1, **{str(n): n for n in range(2, 11)}, "8": 50, "J": 10, "Q": 10, "K": 10},
    "maumau": {**{str(n): n for n in range(2, 10)}, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11},
    "101": {**{str(n): n for n in range(2, 11)}, "J": 2, "Q": 3, "K": 4, "A": 11},
}

# 101: a Queen left alone in a hand, or the Queen a player goes out on (rules §6).
QUEEN_POINTS = {"QS": 40}
QUEEN_DEFAULT = 20


def card_points(table: str, card: str) -> int:
    if is_joker(card):
        return JOKER_POINTS
    values = VALUE_TABLES[table]
    return values.get(card, values[rank(card)])


def hand_value(rs: dict[str, Any], hand: list[str]) -> int:
    table = rs["values"]
    if table == "101" and len(hand) == 1 and rank(hand[0]) == "Q":
        return QUEEN_POINTS.get(hand[0], QUEEN_DEFAULT)
    return sum(card_points(table, c) for c in hand)


def round_points(
    rs: dict[str, Any], hands: list[list[str]], winner: int | None, card: str | None
) -> list[int]:
    """What each seat adds for this round: the winner 0, everyone else their hand; a round
    won on a Jack doubles the others' (jack_double), on a Queen takes 20 or 40 off the
    winner (queen). ``card`` is None for a blocked round."""
    added = [hand_value(rs, h) for h in hands]
    if winner is None:
        return added
    added[winner] = 0
    bonus = rs["last_card_bonus"]
    if card and bonus == "jack_double" and rank(card) == "J":
        added = [2 * a for a in added]
    if card and bonus == "queen" and rank(card) == "Q":
        added[winner] = -QUEEN_POINTS.get(card, QUEEN_DEFAULT)
    return added


def add_totals(rs: dict[str, Any], totals: list[int], added: list[int]) -> list[int]:
    """New totals; in 101 a total of exactly 100 is halved to 50 and exactly 101 is 0."""
    out = [t + a for t, a in zip(totals, added, strict=True)]
    if rs["totals"] == "101":
        out = [50 if t == 100 else 0 if t == 101 else t for t in out]
    return out


def game_over(rs: dict[str, Any], totals: list[int]) -> bool:
    """A total reached the target (101: passed it)."""
    if rs["totals"] == "101":
        return max(totals) > rs["target"]
    return max(totals) >= rs["target"]


def fewest_cards(hands: list[list[str]]) -> int | None:
    """A blocked round's winner: the one seat with the fewest cards, or None on a tie."""
    fewest = min(len(h) for h in hands)
    seats = [s for s, h in enumerate(hands) if len(h) == fewest]
    return seats[0] if len(seats) == 1 else None


def sorted_hand(hand: list[str]) -> list[str]:
    """A hand as a table shows it: by suit (S, H, D, C), Ace up to King, jokers last."""
    return sorted(
        hand, key=lambda c: (4, 0) if is_joker(c) else (SUITS.index(suit(c)), RANKS.index(rank(c)))
    )
