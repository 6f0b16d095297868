"""The rule set of a shedding game: its options, its presets, and the rules a table plays by.

A table's rules are ``{"mode": <preset or "custom">, <option>: <value>, ...}`` (rules §1.2).
Every custom option's first value is ``"preset"``: "as in this game's own preset". A key set
to anything else counts as given, so the checks below see exactly what the players chose,
also when a stored game is replayed from its full rules.

``resolve`` turns the options into the ``ruleset`` a game is played by: the deck, the hand
size for this many players, the table of card effects, the switches and the scoring. The
game stores it, so a replay never depends on how defaults are filled in.
"""

from __future__ import annotations

from typing import Any

from ...cards import RANK_LETTERS, RANKS, SUIT_SYMBOLS, deck, is_joker, label, rank
from ...core import IllegalAction, Option
from ...text import say

PRESET = "preset"
CUSTOM = "custom"

# The special-card switches of the 8s effects (rules §1.3).
SWITCHES = ("wish8", "reverse_ace", "skip_jack", "draw2", "draw4_joker")
SWITCH_EFFECTS = {
    "wish8": ("8", "wish"),
    "reverse_ace": ("A", "reverse"),
    "skip_jack": ("J", "skip"),
    "draw2": ("2", "draw:2"),
    "draw4_joker": ("JK", "draw:4"),
}

# Effect tables other than the 8s' (rules §3.4). Keys: a rank, an exact card ("KS"), or "JK".
EFFECT_TABLES = {
    "maumau": {"J": "wish", "7": "draw:2", "8": "skip"},
    "101": {
        "Q": "wish",
        "6": "draw_skip:1",
        "7": "draw_skip:2",
        "KS": "draw_skip:4",
        "A": "skip",
        "9": "cover",
    },
}

# Lowest rank of each deck size (rules §1.1).
DECK_LOW = {52: "2", 36: "6", 32: "7"}

# The presets, each as a full set of option values (rules §1.2, §9). ``hand_size`` is the
# cards dealt with 2, 3 and 4 players; ``totals`` is "plain" except in 101 (rules §7).
PRESETS: dict[str, dict[str, Any]] = {
    "crazy8": {
        "deck": 52,
        "jokers": 0,
        "hand_size": (7, 5, 5),
        "effects": "eights",
        "wish8": True,
        "reverse_ace": False,
        "skip_jack": False,
        "draw2": False,
        "draw4_joker": False,
        "stacking": False,
        "starter_effect": False,
        "free_draw": True,
        "play_after_draw": True,
        "knock_penalty": 0,
        "announce": "knock",
        "special_last_card": True,
        "scoring": "wins",
        "target": 100,
        "values": "classic",
        "last_card_bonus": "none",
        "totals": "plain",
    },
    "american8": {
        "deck": 52,
        "jokers": 2,
        "hand_size": (8, 8, 8),
        "effects": "eights",
        "wish8": True,
        "reverse_ace": True,
        "skip_jack": True,
        "draw2": True,
        "draw4_joker": True,
        "stacking": True,
        "starter_effect": True,
        "free_draw": True,
        "play_after_draw": True,
        "knock_penalty": 4,
        "announce": "knock",
        "special_last_card": False,
        "scoring": "points",
        "target": 100,
        "values": "american8",
        "last_card_bonus": "none",
        "totals": "plain",
    },
    "maumau": {
        "deck": 32,
        "jokers": 0,
        "hand_size": (5, 5, 5),
        "effects": "maumau",
        "wish8": False,
        "reverse_ace": False,
        "skip_jack": False,
        "draw2": False,
        "draw4_joker": False,
        "stacking": True,
        "starter_effect": True,
        "free_draw": True,
        "play_after_draw": True,
        "knock_penalty": 2,
        "announce": "mau",
        "special_last_card": True,
        "scoring": "points",
        "target": 100,
        "values": "maumau",
        "last_card_bonus": "jack_double",
        "totals": "plain",
    },
    "101": {
        "deck": 36,
        "jokers": 0,
        "hand_size": (5, 5, 4),
        "effects": "101",
        "wish8": False,
        "reverse_ace": False,
        "skip_jack": False,
        "draw2": False,
        "draw4_joker": False,
        "stacking": False,
        "starter_effect": True,
        "free_draw": False,
        "play_after_draw": True,
        "knock_penalty": 0,
        "announce": "knock",
        "special_last_card": True,
        "scoring": "points",
        "target": 101,
        "values": "101",
        "last_card_bonus": "queen",
        "totals": "101",
    },
}

MODE_TITLES = {
    "crazy8": say("Crazy 8"),
    "american8": say("8 Américain"),
    "maumau": say("Mau-Mau"),
    "101": "101",
    CUSTOM: say("Custom"),
}

ANNOUNCE_WORDS = {"knock": say("Knock"), "mau": say("Mau")}
# The call as a verb in a sentence ("To knock, send ...").
ANNOUNCE_VERBS = {"knock": say("knock"), "mau": say("mau")}


# ---- the options form ----------------------------------------------------------------------

# (name, label, values after "preset", value labels, help), in the order the form shows them.
CUSTOM_OPTIONS: list[tuple[str, str, tuple, tuple[str, ...], str]] = [
    (
        "deck",
        say("Deck"),
        (52, 36, 32),
        (say("52 cards (2–A)"), say("36 cards (6–A)"), say("32 cards (7–A)")),
        "",
    ),
    (
        "jokers",
        say("Jokers"),
        (0, 2),
        (say("None"), say("Two")),
        say("Jokers only come with the 52-card deck."),
    ),
    (
        "hand_size",
        say("Cards dealt"),
        ("auto", 5, 6, 7, 8, 9, 10),
        (say("7, or 5 with 3–4 players"), "5", "6", "7", "8", "9", "10"),
        say("Cards dealt to each player."),
    ),
    (
        "effects",
        say("Special cards"),
        ("eights", "maumau", "101"),
        (
            say("8s wild, plus the switches below"),
            say("Mau-Mau: J wild, 7 draws two, 8 skips"),
            say("101: Q wild, 6/7/K♠ draw and skip, A skips, 9 must be covered"),
        ),
        say("Which cards have an effect."),
    ),
    (
        "wish8",
        say("8s are wild"),
        (True, False),
        (),
        say("Play an 8 on anything and name the suit."),
    ),
    (
        "reverse_ace",
        say("Ace reverses"),
        (True, False),
        (),
        say("An Ace turns the direction of play."),
    ),
    ("skip_jack", say("Jack skips"), (True, False), (), say("A Jack skips the next player.")),
    ("draw2", say("2 draws two"), (True, False), (), say("A 2 makes the next player draw two.")),
    (
        "draw4_joker",
        say("Joker draws four"),
        (True, False),
        (),
        say("A joker makes the next player draw four."),
    ),
    (
        "stacking",
        say("Stacking"),
        (True, False),
        (),
        say("Answer a draw card with one of the same kind and pass the total on."),
    ),
    (
        "starter_effect",
        say("First card counts"),
        (True, False),
        (),
        say("The first discard counts as played by the dealer."),
    ),
    (
        "free_draw",
        say("Draw at will"),
        (True, False),
        (),
        say("You may draw even when you could play."),
    ),
    (
        "play_after_draw",
        say("Play after drawing"),
        (True, False),
        (),
        say("After drawing you may still play a card."),
    ),
    (
        "knock_penalty",
        say("Forgetting the call"),
        (0, 1, 2, 3, 4, 5, 6),
        (
            say("No call"),
            say("1 card"),
            say("2 cards"),
            say("3 cards"),
            say("4 cards"),
            say("5 cards"),
            say("6 cards"),
        ),
        say("Cards drawn for not calling out your last card."),
    ),
    (
        "announce",
        say("Last-card call"),
        ("knock", "mau"),
        (say("Knock"), say("Mau")),
        say("What you call as you play your second-to-last card."),
    ),
    (
        "special_last_card",
        say("Out on a special card"),
        (True, False),
        (),
        say("Whether you may play a special card as your last card."),
    ),
    (
        "scoring",
        say("Scoring"),
        ("wins", "points"),
        (say("One round, wins counted"), say("Points, lowest total wins")),
        "",
    ),
    (
        "target",
        say("Target score"),
        (50, 100, 150, 200, 300, 500),
        (),
        say("Points scoring: the game ends at this total."),
    ),
    (
        "values",
        say("Card values"),
        ("american8", "classic", "maumau", "101"),
        (say("8 Américain"), say("Classic (8 = 50)"), say("Mau-Mau"), "101"),
        say("Points scoring: what the cards left in a hand count."),
    ),
    (
        "last_card_bonus",
        say("Last-card bonus"),
        ("none", "jack_double", "queen"),
        (say("None"), say("Out on a Jack doubles"), say("Out on a Queen takes off 20 (Q♠ 40)")),
        say("Points scoring: what going out on a certain card does."),
    ),
]
LABELS = {name: title for name, title, *_ in CUSTOM_OPTIONS}
# The option names inside a sentence ("choose Custom to change the deck").
LOWER_LABELS = {
    "deck": say("deck"),
    "jokers": say("jokers"),
    "hand_size": say("cards dealt"),
    "effects": say("special cards"),
    "wish8": say("8s are wild"),
    "reverse_ace": say("ace reverses"),
    "skip_jack": say("jack skips"),
    "draw2": say("2 draws two"),
    "draw4_joker": say("joker draws four"),
    "stacking": say("stacking"),
    "starter_effect": say("first card counts"),
    "free_draw": say("draw at will"),
    "play_after_draw": say("play after drawing"),
    "knock_penalty": say("forgetting the call"),
    "announce": say("last-card call"),
    "special_last_card": say("out on a special card"),
    "scoring": say("scoring"),
    "target": say("target score"),
    "values": say("card values"),
    "last_card_bonus": say("last-card bonus"),
}

POINTS_ONLY = ("target", "values", "last_card_bonus")
POINTS_ONLY_TEXT = {
    "target": say("A target score needs points scoring."),
    "values": say("Card values need points scoring."),
    "last_card_bonus": say("A last-card bonus needs points scoring."),
}


def _value_label(value: Any, labels: tuple[str, ...], values: tuple) -> str:
    if isinstance(value, tuple):  # a preset's hand sizes for 2, 3 and 4 players
        return say("7, or 5 with 3–4 players") if value == (7, 5, 5) else str(value[0])
    if labels:
        return labels[values.index(value)]
    if isinstance(value, bool):
        return say("On") if value else say("Off")
    return str(value)


def options_for(kind: str, modes: tuple[str, ...]) -> tuple[Option, ...]:
    """The options form of a kind: the mode, then every custom option (shown in custom mode
    only), each defaulting to "as in this kind's preset"."""
    preset = PRESETS[kind]
    out = [
        Option(
            "mode",
            modes,
            say("Rules"),
            say("A preset plays its rules as they are; Custom turns each rule on or off."),
            tuple(MODE_TITLES[m] for m in modes),
        )
    ]
    for name, title, values, labels, help_text in CUSTOM_OPTIONS:
        ours = _value_label(preset[name], labels, values)
        if name in POINTS_ONLY and preset["scoring"] == "wins":
            ours = say("{value} with points scoring", value=ours)
        out.append(
            Option(
                name,
                (PRESET, *values),
                title,
                help_text,
                (
                    say("As in {mode} ({value})", mode=MODE_TITLES[kind], value=ours),
                    *(_value_label(v, labels, values) for v in values),
                ),
                {"mode": CUSTOM},
            )
        )
    return tuple(out)


# ---- checking and resolving ------------------------------------------------------------------


def given(rules: dict[str, Any]) -> dict[str, Any]:
    """The custom options the players set (anything but "preset")."""
    return {k: v for k, v in rules.items() if k != "mode" and v != PRESET}


def check(rules: dict[str, Any], kind: str, players: int) -> None:
    """Refuse what can't make a game (rules §1.2): a changed preset, two given settings that
    contradict each other, or more cards dealt than the deck holds."""
    mode = rules["mode"]
    chosen = given(rules)
    if mode != CUSTOM and chosen:
        name = next(iter(chosen))
        raise IllegalAction(
            say(
                "{mode} plays fixed rules: choose Custom to change {option}.",
                mode=MODE_TITLES[mode],
                option=LOWER_LABELS[name],
            )
        )
    for problem in _contradictions(chosen):
        raise IllegalAction(problem)
    settings = resolve(rules, kind, players)
    needed = settings["hand_size"] * players + 1
    if needed > len(full_deck(settings)):
        raise IllegalAction(
            say(
                "{each} cards each for {players} players and a first discard need {needed} "
                "cards: the deck has {has}.",
                each=settings["hand_size"],
                players=players,
                needed=needed,
                has=len(full_deck(settings)),
            )
        )


def _contradictions(chosen: dict[str, Any]):
    """Sentences for pairs of given settings that can't both hold."""
    deck_size = chosen.get("deck")
    short = deck_size is not None and deck_size != 52
    if chosen.get("draw4_joker") is True and chosen.get("jokers") == 0:
        yield say("A joker can't make anyone draw four without jokers in the deck.")
    if short and chosen.get("jokers") == 2:
        yield say("Jokers only come with the 52-card deck.")
    if short and chosen.get("draw4_joker") is True:
        yield say("Joker draws four needs jokers, and jokers only come with the 52-card deck.")
    if short and chosen.get("draw2") is True:
        yield say("There are no 2s in a {size}-card deck.", size=deck_size)
    if deck_size == 32 and chosen.get("effects") == "101":
        yield say("The 101 special cards need the 6s, and a 32-card deck has none.")
    if chosen.get("effects") in EFFECT_TABLES:
        switched = [s for s in SWITCHES if s in chosen]
        if switched:
            yield say(
                "The {mode} special cards are fixed: leave “{option}” as in the preset.",
                mode=MODE_TITLES[chosen["effects"]],
                option=LABELS[switched[0]],
            )
    if chosen.get("stacking") is True:
        if chosen.get("effects") == "101":
            yield say("The 101 special cards have no draw card to stack.")
        elif chosen.get("draw2") is False and chosen.get("draw4_joker") is False:
            yield say("Stacking needs a draw card: turn on 2 draws two or joker draws four.")
    if chosen.get("scoring") == "wins":
        for name in POINTS_ONLY:
            if name in chosen:
                yield POINTS_ONLY_TEXT[name]
    if "announce" in chosen and chosen.get("knock_penalty") == 0:
        yield say("A last-card call needs a penalty for forgetting it.")


def resolve(rules: dict[str, Any], kind: str, players: int) -> dict[str, Any]:
    """The rules a table plays by: a preset as it is, or custom settings over the kind's
    own preset where a setting the players did not give yields to one they gave."""
    mode = rules["mode"]
    if mode != CUSTOM:
        values = dict(PRESETS[mode])
    else:
        chosen = given(rules)
        values = {**PRESETS[kind], **chosen, "totals": "plain"}
        # A default that contradicts a given setting yields to it (rules §1.2).
        if "jokers" not in chosen:
            if values["deck"] != 52:
                values["jokers"] = 0
            elif chosen.get("draw4_joker") is True:
                values["jokers"] = 2
        if "draw4_joker" not in chosen and values["jokers"] == 0:
            values["draw4_joker"] = False
        if "draw2" not in chosen and values["deck"] != 52:
            values["draw2"] = False
        if "scoring" not in chosen and set(POINTS_ONLY) & set(chosen):
            values["scoring"] = "points"
        if "knock_penalty" not in chosen and "announce" in chosen and not values["knock_penalty"]:
            values["knock_penalty"] = 4 if values["announce"] == "knock" else 2
        if values["hand_size"] == "auto":
            values["hand_size"] = PRESETS["crazy8"]["hand_size"]
    hand = values["hand_size"]
    points = values["scoring"] == "points"
    return {
        "mode": mode,
        "deck": values["deck"],
        "jokers": values["jokers"],
        "hand_size": hand[players - 2] if isinstance(hand, tuple) else hand,
        "effects": effects_table(values),
        "stacking": values["stacking"],
        "starter_effect": values["starter_effect"],
        "free_draw": values["free_draw"],
        "play_after_draw": values["play_after_draw"],
        "knock_penalty": values["knock_penalty"],
        "announce": values["announce"] if values["knock_penalty"] else None,
        "special_last_card": values["special_last_card"],
        "scoring": values["scoring"],
        "target": values["target"] if points else None,
        "values": values["values"] if points else None,
        "last_card_bonus": values["last_card_bonus"] if points else "none",
        "totals": values["totals"],
    }


def effects_table(values: dict[str, Any]) -> dict[str, str]:
    """Which rank (or exact card, or "JK") has which effect, only for cards in the deck."""
    if values["effects"] in EFFECT_TABLES:
        table = dict(EFFECT_TABLES[values["effects"]])
    else:
        table = dict(SWITCH_EFFECTS[s] for s in SWITCHES if values[s])
    ranks = deck_ranks(values["deck"])

    def in_deck(key: str) -> bool:
        if key == "JK":
            return values["jokers"] > 0
        return (key if key in RANKS else rank(key)) in ranks

    return {key: effect for key, effect in table.items() if in_deck(key)}


def deck_ranks(size: int) -> list[str]:
    """The ranks of a deck size: all 13, or the Ace and 6 (or 7) up."""
    return ["A", *RANKS[RANKS.index(DECK_LOW[size]) :]]


def full_deck(settings: dict[str, Any]) -> list[str]:
    """The table's cards in canonical order (suits S, H, D, C, each A up, then jokers)."""
    ranks = set(deck_ranks(settings["deck"]))
    return [c for c in deck(jokers=settings["jokers"]) if is_joker(c) or rank(c) in ranks]


# ---- card effects ------------------------------------------------------------------------------


def effect_key(effects: dict[str, str], card: str) -> str | None:
    """The key of ``effects`` that gives ``card`` its effect: the exact card, its rank, or
    "JK" for a joker; None for a plain card."""
    if is_joker(card):
        return "JK" if "JK" in effects else None
    if card in effects:
        return card
    r = rank(card)
    return r if r in effects else None


def effect_of(effects: dict[str, str], card: str) -> tuple[str, int] | None:
    """("wish", 0), ("draw", 2), ("draw_skip", 4), ... or None for a plain card."""
    key = effect_key(effects, card)
    if key is None:
        return None
    name, _, count = effects[key].partition(":")
    return name, int(count or 0)


def is_special(effects: dict[str, str], card: str) -> bool:
    """A card with an effect in these rules, or a joker (rules §1.3)."""
    return is_joker(card) or effect_key(effects, card) is not None


EFFECT_TEXT = {
    "wish": lambda n: say("wild: play it on anything and name the suit"),
    "reverse": lambda n: say("reverses the direction of play"),
    "skip": lambda n: say("the next player is skipped"),
    "draw": lambda n: say("the next player draws {n}", n=n),
    "draw_skip": lambda n: say("the next player draws {n} and is skipped", n=n),
    "cover": lambda n: say("must be covered at once by its player"),
}


def key_label(key: str) -> str:
    """ "8" -> "8", "KS" -> "K♠", "JK" -> "Joker"."""
    if key == "JK":
        return say("Joker")
    if key[-1] in SUIT_SYMBOLS and len(key) > 1 and key[:-1] in RANKS:
        return label(key)
    return RANK_LETTERS.get(key, key)


def describe_effects(effects: dict[str, str], stacking: bool) -> list[dict[str, Any]]:
    """The effects table for players: one row per rank or card, never a card string (a view
    names each card it shows once)."""
    rows = []
    for key, effect in effects.items():
        name, _, count = effect.partition(":")
        n = int(count or 0)
        text = EFFECT_TEXT[name](n)
        if name == "draw" and stacking:
            text = say(
                "{effect}, unless they answer with a {card}", effect=text, card=key_label(key)
            )
        exact = key != "JK" and key not in RANKS
        rows.append(
            {
                "rank": key[:-1] if exact else key,
                "suit": key[-1] if exact else None,
                "label": key_label(key),
                "effect": name,
                "count": n,
                "text": text,
            }
        )
    return rows
