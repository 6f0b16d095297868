"""Card and suit names in the player's language, for alt text, labels read aloud and the deck
page. The engine's names (``gameplay.engine.cards``) are English and stay so: they go into
logs, events and the card images, which are the same for everyone. In English these give
exactly the engine's words."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from gameplay.engine import cards as c

from . import art, prefs, roster


def rank_name(rank: str) -> str:
    """'Ace', 'Jack', 'Queen', 'King'; a number card's rank as it is ('10')."""
    names = {
        "A": pgettext("card rank", "Ace"),
        "J": pgettext("card rank", "Jack"),
        "Q": pgettext("card rank", "Queen"),
        "K": pgettext("card rank", "King"),
    }
    return names.get(rank, rank)


def rank_letter(rank: str) -> str:
    """A rank as a card's corner shows it in the player's language: 'K' in English, 'R' in
    French (Roi); a number card's rank as it is ('10')."""
    letters = {
        "A": pgettext("card rank letter", "A"),
        "J": pgettext("card rank letter", "J"),
        "Q": pgettext("card rank letter", "Q"),
        "K": pgettext("card rank letter", "K"),
    }
    return letters.get(rank, rank)


def suit_name(suit: str) -> str:
    """A suit on its own, as a heading or a button: 'Hearts' ("" for no suit)."""
    names = {
        "S": pgettext("suit", "Spades"),
        "H": pgettext("suit", "Hearts"),
        "D": pgettext("suit", "Diamonds"),
        "C": pgettext("suit", "Clubs"),
        "B": pgettext("suit", "Bells"),
    }
    return names.get(suit, "")


def _suit_in_name(suit: str) -> str:
    # The suit inside a card's name: French says "la Dame de cœur", not "de Cœurs".
    names = {
        "S": pgettext("suit in a card name", "Spades"),
        "H": pgettext("suit in a card name", "Hearts"),
        "D": pgettext("suit in a card name", "Diamonds"),
        "C": pgettext("suit in a card name", "Clubs"),
        "B": pgettext("suit in a card name", "Bells"),
    }
    return names[suit]


def card_name(card: str) -> str:
    """'Queen of Hearts', '10 of Bells', 'Joker'."""
    if c.is_joker(card):
        return pgettext("card", "Joker")
    return pgettext("card name", "%(rank)s of %(suit)s") % {
        "rank": rank_name(c.rank(card)),
        "suit": _suit_in_name(c.suit(card)),
    }


def figure_name(card: str) -> str:
    """Who is on the card: a creature's own name, an Ace's 'Shadow <King>', or the logo."""
    if c.is_joker(card):
        return _("the A.M.I.C. logo")
    if c.rank(card) == "A":
        return _("Shadow %(king)s") % {"king": roster.king(c.suit(card)).name}
    return roster.figure_name(card)


def alt(card: str) -> str:
    """Alt text for a card image: 'Queen of Hearts (Flamora)', 'Face-down card' (KeyError for
    what is not a card)."""
    if card == c.HIDDEN:
        return _("Face-down card")
    if not c.is_card(card):
        raise KeyError(card)
    if c.is_joker(card):
        return _("Joker (A.M.I.C. logo)")
    return _("%(card)s (%(figure)s)") % {"card": card_name(card), "figure": figure_name(card)}


def figure_line(card: str) -> str:
    """The one line about who is on the card (the roster's words, translated)."""
    if c.is_joker(card):
        return _("Both jokers carry the A.M.I.C. logo.")
    if c.rank(card) == "A":
        return _("%(king)s's shadow, dark and glowing violet. Plays like any Ace.") % {
            "king": roster.king(c.suit(card)).name
        }
    return _(roster.figure_line(card))


def back_name(back: str) -> str:
    """A card back's name: 'Nebula'."""
    return _(art.BACK_NAMES[back])


def felt_name(felt: str) -> str:
    """A table felt's name: 'Green baize'."""
    return _(prefs.FELTS[felt])


def players_text(engine) -> str:
    """How many play a game: "1 player", "2 players", "2–4 players" (the engine's words in
    English)."""
    low, high = engine.min_players, engine.max_players
    if low == high:
        return ngettext("%(n)s player", "%(n)s players", low) % {"n": low}
    return _("%(low)s–%(high)s players") % {"low": low, "high": high}
