"""The cards of Cardice and who wins a trick (rules.md §1 and §3): shared by the engine
and its computer player."""

from __future__ import annotations

from ...cards import deck, rank, suit

SUITS = "SHDCB"  # also the suit rank for the cut: S > H > D > C > B (rules.md §1)
DECK = deck(suits=SUITS, jokers=1)  # 66 cards
SUITED = DECK[:-1]
JOKER = "JK1"
POWER = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10"], 2)}
POWER.update(J=11, Q=12, K=13, A=14)


def power(card: str) -> int:
    """2..14 within a suit (A high); the joker is above everything."""
    return 15 if card == JOKER else POWER[rank(card)]


def hand_order(card: str) -> tuple[int, int]:
    """How a hand is sorted: the joker, then suit by suit (S H D C B), high to low."""
    if card == JOKER:
        return (-1, 0)
    return (SUITS.index(suit(card)), -power(card))


def trick_winner(plays: list[dict], trump: str | None) -> int:
    """The seat that wins ``plays`` so far (§3): the joker; else the highest trump; else the
    highest card of the suit led."""
    for p in plays:
        if p["card"] == JOKER:
            return p["seat"]
    best = plays[0]
    for p in plays[1:]:
        s = suit(p["card"])
        b = suit(best["card"])
        if s == b and power(p["card"]) > power(best["card"]):
            best = p
        elif trump and s == trump and b != trump:
            best = p
    return best["seat"]
