"""Card strings, decks and the seeded RNG every game uses.

A card is rank + suit letter, "10" in full ("AS", "10H", "QD"), Bells "B", jokers "JK1" and
"JK2"; a card the viewer may not see is "??". Every random choice comes from
``rng(seed, purpose, n)``: n counts the uses of that purpose in a game, from 1.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from functools import cache

from .text import say

SUITS = "SHDC"
BELLS = "B"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
JOKERS = ["JK1", "JK2"]
HIDDEN = "??"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "B": "🔔"}
SUIT_NAMES = {
    "S": say("Spades"),
    "H": say("Hearts"),
    "D": say("Diamonds"),
    "C": say("Clubs"),
    "B": say("Bells"),
}
RANK_NAMES = {"A": say("Ace"), "J": say("Jack"), "Q": say("Queen"), "K": say("King")}
# The face cards' letters in a label ("Q♥"); other languages have their own letters.
RANK_LETTERS = {"A": say("A"), "J": say("J"), "Q": say("Q"), "K": say("K")}

CARD_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)[SHDCB]$|^JK[12]$")


def is_card(value: object) -> bool:
    return isinstance(value, str) and CARD_RE.match(value) is not None


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def rank(card: str) -> str:
    """'10H' -> '10'; jokers have no rank (returns '')."""
    return "" if is_joker(card) else card[:-1]


def suit(card: str) -> str:
    """'10H' -> 'H'; jokers have no suit (returns '')."""
    return "" if is_joker(card) else card[-1]


def rank_number(card: str) -> int:
    """A=1, 2-10 face value, J=11, Q=12, K=13: an index; each game has its own order."""
    return RANKS.index(rank(card)) + 1


def colour(card: str) -> str | None:
    s = suit(card)
    return "red" if s in "HD" and s else "black" if s in "SC" and s else None


@cache
def card_name(card: str) -> str:
    """A name for players: 'Queen of Hearts', '10 of Bells', 'Joker'."""
    if is_joker(card):
        return say("Joker")
    r = rank(card)
    return say("{rank} of {suit}", rank=RANK_NAMES.get(r, r), suit=SUIT_NAMES[suit(card)])


@cache
def label(card: str) -> str:
    """A short label: 'Q♥', '10♠', 'Joker'."""
    if is_joker(card):
        return say("Joker")
    if card == HIDDEN:
        return say("face-down card")
    r = rank(card)
    if r not in RANK_LETTERS:
        return r + SUIT_SYMBOLS[suit(card)]
    return say("{rank}{suit}", rank=RANK_LETTERS[r], suit=SUIT_SYMBOLS[suit(card)])


def deck(suits: str = SUITS, jokers: int = 0, copies: int = 1) -> list[str]:
    """The starting order of every shuffle: suits S, H, D, C (then B), each A..K, then the
    jokers; a shoe copy by copy."""
    one = [r + s for s in suits for r in RANKS] + JOKERS[:jokers]
    return one * copies


def rng(seed: str, purpose: str, n: int) -> random.Random:
    """The game's randomness: random.Random(f"{seed}/{purpose}/{n}"), stable on any machine."""
    return random.Random(f"{seed}/{purpose}/{n}")


def shuffled(cards: Iterable[str], seed: str, purpose: str, n: int) -> list[str]:
    """Shuffle a copy of ``cards`` (bottom card first in, index 0 = top afterwards)."""
    pile = list(cards)
    rng(seed, purpose, n).shuffle(pile)
    return pile


def bot_rng(seed: str, seat: int, seq: int) -> random.Random:
    """A computer player's own randomness, never the game's."""
    return random.Random(f"{seed}/bot/{seat}/{seq}")
