"""A Thirteen hand's worth in a round: the wild rank and the least leftover (rules.md §1, §6)."""

from __future__ import annotations

from functools import lru_cache

from ... import melds
from ...cards import RANKS


def wild_rank(round_no: int) -> int:
    """Round r's wild rank: A = 1 in round 1, 2–10, then J, Q, K in rounds 11–13."""
    return round_no


def wild_name(round_no: int) -> str:
    return RANKS[wild_rank(round_no) - 1]


@lru_cache(maxsize=1 << 15)
def leftover(mask: int, wild: int) -> int:
    """The least points left over by a hand (a mask of cards) when ``wild`` is wild. Kept:
    the same hand is asked about again and again (legal actions, checks, views, bots)."""
    return melds.wild_deadwood_mask(mask, wild)


def goes_out(hand: int, card: str, round_no: int) -> bool:
    """Whether discarding ``card`` leaves every other card of ``hand`` in combinations. Asked
    for each card in turn, so the whole hand is solved first: if the 7 cards are covered,
    the 8 leave only ``card`` over, so a card worth less than the 8 cards' least leftover can
    never be the one that goes."""
    wild = wild_rank(round_no)
    if melds.card_points(card, wild) < leftover(hand, wild):
        return False
    return leftover(hand & ~melds.CARD_BIT[card], wild) == 0
