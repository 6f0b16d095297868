"""The A.M.I.C. creature deck: who is on which card.

Every suit is one family of creatures with its own palette:

- Spades: night and stone (bats, owls, moths, standing stones), slate and indigo.
- Hearts: warmth and fire (sparks, salamanders, embers, hearths), red and amber.
- Diamonds: crystal and sea (jellyfish, crabs, pearls, geodes), aqua and sapphire.
- Clubs: the forest (sprouts, mushrooms, moss, oaks), green and bark brown.
- Bells (Cardice's fifth suit): the chiming creatures of the bell tower, brass and gold.

The 2-10, J, Q and K of each suit star one creature each (12 per suit, 48 in the four
standard suits). Each Ace shows its suit's King as a shadow: the same creature, dark, with
a violet glow. Both jokers show the A.M.I.C. logo.

A creature's ``look`` holds the parameters ``cards.art`` draws it from; colours are names in
its suit's palette (``PALETTES``), so every suit keeps one coherent look.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

from gameplay.engine import cards as c

STANDARD_SUITS = c.SUITS  # "SHDC"
ALL_SUITS = c.SUITS + c.BELLS  # "SHDCB"
CREATURE_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

# Translated where they are shown (cards.views).
FAMILIES = {
    "S": gettext_noop("Night & Stone"),
    "H": gettext_noop("Hearth & Fire"),
    "D": gettext_noop("Crystal & Sea"),
    "C": gettext_noop("Forest"),
    "B": gettext_noop("The Bell Tower"),
}

FAMILY_LINES = {
    "S": gettext_noop("Creatures of the night and of old stone: they wake when the moon rises."),
    "H": gettext_noop("Warm-hearted creatures of the hearth, the forge and the volcano."),
    "D": gettext_noop("Creatures of the reef and the crystal caves, all shine and splash."),
    "C": gettext_noop("Creatures of the deep green wood: moss, mushrooms and old oaks."),
    "B": gettext_noop("Cardice's fifth suit: the chiming creatures who live in the bell tower."),
}

# Each suit's palette: the only colours its creatures are painted in.
PALETTES: dict[str, dict[str, str]] = {
    "S": {
        "slate": "#6b7b9c",
        "granite": "#8c909f",
        "indigo": "#525c9c",
        "dusk": "#7f72ad",
        "charcoal": "#4d5268",
        "moonstone": "#aab5cd",
        "storm": "#5b7489",
        "moon": "#f3e39a",
        "silver": "#e2e8f3",
        "lilac": "#cbbcf0",
    },
    "H": {
        "ember": "#e2572f",
        "flame": "#f47f2b",
        "scarlet": "#e1434f",
        "amber": "#f5a623",
        "cinnamon": "#c96a34",
        "rose": "#ec6f82",
        "magma": "#c23b30",
        "gold": "#ffd166",
        "cream": "#ffe9c7",
        "sun": "#ffe36e",
    },
    "D": {
        "aqua": "#3fc6c8",
        "teal": "#279b9e",
        "sky": "#71c4ef",
        "lagoon": "#3e8ed3",
        "sapphire": "#3b62c4",
        "seafoam": "#7fd8b6",
        "coral": "#f28ca6",
        "pearl": "#dff1f7",
        "shine": "#f1fdff",
        "blush": "#ffc9d6",
    },
    "C": {
        "moss": "#6aa84f",
        "fern": "#4d9a5b",
        "leaf": "#8fc456",
        "pine": "#3f7d5c",
        "olive": "#9ba84b",
        "bark": "#8b6040",
        "acorn": "#b57b45",
        "toadstool": "#d9534f",
        "cream": "#f5edd2",
        "berry": "#c2416b",
    },
    "B": {
        "brass": "#d4a72c",
        "gold": "#f0c23b",
        "honey": "#e8ac4c",
        "bronze": "#b7793a",
        "copper": "#cf7a43",
        "butter": "#f6da7f",
        "bluebell": "#8fb3e8",
        "ribbon": "#d94b4b",
        "cream": "#fff3cf",
        "ivory": "#fffaf0",
    },
}

# The shadow Aces are painted from this palette instead of their suit's.
SHADOW = {
    "body": "#261c38",
    "belly": "#35284d",
    "accent": "#4a3868",
    "glow": "#a970ff",
    "eye": "#e2ccff",
}

BODIES = ("round", "egg", "pear", "block", "bean", "drop", "dome", "ghost", "tall", "star")
TOPS = (
    "none", "cat_ears", "bunny_ears", "bat_ears", "round_ears", "horns", "curl_horns",
    "antlers", "antennae", "flame", "sprout", "crystals", "fin", "mushroom_cap", "tuft",
    "spikes", "acorn_cap", "bell_hat", "coral", "stalk_eyes",
)  # fmt: skip
EYES = ("dots", "big", "one", "three", "sleepy", "angry", "glow", "wide")
MOUTHS = ("smile", "grin", "fang", "o", "beak", "tongue", "flat", "cat", "tusks")
ARMS = ("none", "stubby", "wings", "bat_wings", "fins", "claws", "leaves", "long")
FEET = ("stubby", "none", "tentacles", "roots", "paws")
TAILS = ("none", "flame", "fish", "leaf", "curl", "spiky", "lantern", "bell")
PATTERNS = (
    "none", "spots", "stripes", "belly", "scales", "cracks", "facets", "freckles",
    "suit", "patches",
)  # fmt: skip


@dataclass(frozen=True)
class Look:
    """How a creature is drawn (see ``cards.art``); colours name entries of its palette."""

    body: str
    colour: str
    accent: str
    top: str = "none"
    eyes: str = "big"
    mouth: str = "smile"
    arms: str = "stubby"
    feet: str = "stubby"
    tail: str = "none"
    pattern: str = "none"
    width: float = 1.0  # body width, relative to the usual
    height: float = 1.0  # body height, relative to the usual


@dataclass(frozen=True)
class Creature:
    name: str
    suit: str
    rank: str
    line: str
    look: Look = field(repr=False)

    @property
    def card(self) -> str:
        return self.rank + self.suit


def _creature(
    rank: str, suit: str, name: str, line: str, body: str, colour: str, accent: str, **look: object
) -> Creature:
    return Creature(name, suit, rank, line, Look(body, colour, accent, **look))  # type: ignore[arg-type]


# fmt: off
_ROSTER = [
    # ♠ Spades: night and stone.
    _creature("2", "S", "Pebblet", gettext_noop("A pocket-sized pebble that rolls home before sunrise."),
              "block", "granite", "silver", eyes="dots", mouth="smile", arms="none",
              pattern="cracks", width=0.78, height=0.7),
    _creature("3", "S", "Mothwick", gettext_noop("A dusty moth who reads all night by the glow of its own antennae."),
              "egg", "dusk", "moon", top="antennae", eyes="big", mouth="o", arms="wings",
              feet="none", pattern="stripes", width=0.8, height=0.95),
    _creature("4", "S", "Duskbat", gettext_noop("Hangs upside down and is sure the world is the wrong way up."),
              "round", "indigo", "lilac", top="bat_ears", eyes="wide", mouth="fang",
              arms="bat_wings", feet="none", pattern="belly", width=0.85, height=0.85),
    _creature("5", "S", "Cragbun", gettext_noop("A stone rabbit whose ears are two chips of slate."),
              "block", "slate", "silver", top="bunny_ears", eyes="dots", mouth="cat",
              arms="stubby", feet="paws", pattern="cracks", width=0.9, height=0.85),
    _creature("6", "S", "Hootstone", gettext_noop("A granite owl who blinks once a century, and means it."),
              "egg", "storm", "moon", top="tuft", eyes="big", mouth="beak", arms="wings",
              feet="stubby", pattern="scales", width=0.95, height=1.05),
    _creature("7", "S", "Lanternix", gettext_noop("Carries a tiny moon on its tail to find lost socks in the dark."),
              "pear", "charcoal", "moon", top="cat_ears", eyes="glow", mouth="smile",
              arms="stubby", feet="stubby", tail="lantern", pattern="belly"),
    _creature("8", "S", "Shalegrin", gettext_noop("A grinning boulder whose laugh sounds like a rockslide."),
              "block", "charcoal", "silver", top="none", eyes="angry", mouth="grin",
              arms="long", feet="stubby", pattern="cracks", width=1.15, height=0.9),
    _creature("9", "S", "Nightpaw", gettext_noop("A velvet cat who only walks where the moonlight isn't."),
              "pear", "indigo", "moon", top="cat_ears", eyes="sleepy", mouth="cat",
              arms="stubby", feet="paws", tail="curl", pattern="stripes"),
    _creature("10", "S", "Obsidoo", gettext_noop("A glassy black blob that turns your worries into jokes."),
              "ghost", "charcoal", "lilac", top="none", eyes="one", mouth="tongue",
              arms="stubby", feet="none", pattern="facets", width=0.95, height=1.0),
    _creature("J", "S", "Gargle", gettext_noop("A gargoyle squire who practises his scowl in puddles."),
              "round", "slate", "lilac", top="horns", eyes="angry", mouth="fang",
              arms="bat_wings", feet="stubby", tail="spiky", pattern="cracks"),
    _creature("Q", "S", "Selenna", gettext_noop("Queen of the moon moths, dusted all over in silver."),
              "egg", "moonstone", "lilac", top="antennae", eyes="three", mouth="smile",
              arms="wings", feet="none", pattern="spots", width=0.9, height=1.05),
    _creature("K", "S", "Monolith", gettext_noop("The standing-stone king. He has not moved in a thousand years, by choice."),
              "tall", "granite", "moon", top="curl_horns", eyes="glow", mouth="flat",
              arms="long", feet="stubby", pattern="cracks", width=1.0, height=1.1),
    # ♥ Hearts: warmth and fire.
    _creature("2", "H", "Sparkit", gettext_noop("A spark with legs, terribly afraid of puddles."),
              "drop", "amber", "sun", top="flame", eyes="dots", mouth="o", arms="stubby",
              feet="stubby", width=0.7, height=0.75),
    _creature("3", "H", "Embertoad", gettext_noop("Sits in warm ashes and croaks little smoke rings."),
              "bean", "ember", "gold", top="none", eyes="wide", mouth="smile", arms="none",
              feet="paws", pattern="spots", width=1.05, height=0.8),
    _creature("4", "H", "Cindermouse", gettext_noop("Hoards glowing coals the way other mice hoard cheese."),
              "pear", "rose", "cream", top="round_ears", eyes="big", mouth="cat",
              arms="stubby", feet="paws", tail="curl", pattern="belly", width=0.85, height=0.85),
    _creature("5", "H", "Toastling", gettext_noop("A cheerful loaf, slightly overdone, always warm to the touch."),
              "block", "cinnamon", "cream", top="none", eyes="sleepy", mouth="tongue",
              arms="stubby", feet="stubby", pattern="freckles", width=1.0, height=0.85),
    _creature("6", "H", "Blazepup", gettext_noop("Wags a tail of flame. Keep him away from the curtains."),
              "round", "flame", "cream", top="cat_ears", eyes="big", mouth="tongue",
              arms="stubby", feet="paws", tail="flame", pattern="patches"),
    _creature("7", "H", "Salamandy", gettext_noop("A lizard who goes sunbathing inside volcanoes."),
              "bean", "scarlet", "sun", top="fin", eyes="wide", mouth="smile", arms="stubby",
              feet="paws", tail="spiky", pattern="spots", width=1.1, height=0.8),
    _creature("8", "H", "Kindlebee", gettext_noop("Flits from candle to candle, gathering glow instead of pollen."),
              "egg", "amber", "magma", top="antennae", eyes="big", mouth="smile", arms="wings",
              feet="none", pattern="stripes", width=0.85, height=0.9),
    _creature("9", "H", "Magmaw", gettext_noop("A big-mouthed pot of lava that burps out sunsets."),
              "dome", "magma", "amber", top="flame", eyes="angry", mouth="grin", arms="stubby",
              feet="stubby", pattern="spots", width=1.1, height=0.95),
    _creature("10", "H", "Phoenixlet", gettext_noop("A phoenix chick on the first of its many, many lives."),
              "egg", "ember", "gold", top="tuft", eyes="big", mouth="beak", arms="wings",
              feet="stubby", tail="flame", pattern="scales"),
    _creature("J", "H", "Scorchet", gettext_noop("A dragonling page who lights the castle torches every dusk."),
              "pear", "scarlet", "gold", top="horns", eyes="big", mouth="fang",
              arms="bat_wings", feet="paws", tail="spiky", pattern="belly"),
    _creature("Q", "H", "Flamora", gettext_noop("The hearth queen: every kitchen fire is one of her curls."),
              "drop", "flame", "sun", top="flame", eyes="sleepy", mouth="smile", arms="long",
              feet="none", pattern="suit", width=1.0, height=1.05),
    _creature("K", "H", "Emberon", gettext_noop("The volcano king, warm of heart and short of temper."),
              "round", "magma", "gold", top="curl_horns", eyes="angry", mouth="tusks",
              arms="long", feet="stubby", tail="flame", pattern="suit", width=1.1, height=1.0),
    # ♦ Diamonds: crystal and sea.
    _creature("2", "D", "Glimmerfry", gettext_noop("A baby fish that glows like a dropped gem."),
              "drop", "sky", "shine", top="fin", eyes="big", mouth="o", arms="fins",
              feet="none", tail="fish", pattern="scales", width=0.75, height=0.75),
    _creature("3", "D", "Bubblin", gettext_noop("Lives inside a bubble it blew all by itself."),
              "round", "aqua", "shine", top="none", eyes="dots", mouth="o", arms="stubby",
              feet="none", pattern="freckles", width=0.75, height=0.75),
    _creature("4", "D", "Shellby", gettext_noop("A hermit crab who collects other crabs' shells, just in case."),
              "bean", "coral", "blush", top="stalk_eyes", eyes="dots", mouth="smile",
              arms="claws", feet="stubby", pattern="stripes", width=1.05, height=0.75),
    _creature("5", "D", "Jellop", gettext_noop("A wobbly jellyfish who hums in C major."),
              "dome", "blush", "coral", top="none", eyes="sleepy", mouth="smile", arms="none",
              feet="tentacles", pattern="spots", width=0.95, height=0.8),
    _creature("6", "D", "Prismite", gettext_noop("A crystal mite that splits the moonlight into rainbows."),
              "round", "lagoon", "shine", top="crystals", eyes="three", mouth="flat",
              arms="stubby", feet="stubby", pattern="facets", width=0.85, height=0.85),
    _creature("7", "D", "Coralot", gettext_noop("Grows coral antlers a little longer with every tide."),
              "pear", "seafoam", "coral", top="coral", eyes="big", mouth="cat", arms="stubby",
              feet="paws", pattern="spots"),
    _creature("8", "D", "Glassling", gettext_noop("Tumbled smooth by a hundred years of waves."),
              "ghost", "pearl", "sky", top="none", eyes="wide", mouth="smile", arms="fins",
              feet="none", pattern="facets", width=0.9, height=1.0),
    _creature("9", "D", "Octopo", gettext_noop("Eight arms, eight hobbies, no free time at all."),
              "dome", "sapphire", "blush", top="none", eyes="big", mouth="o", arms="none",
              feet="tentacles", pattern="spots", width=1.05, height=0.95),
    _creature("10", "D", "Geodette", gettext_noop("A geode: plain outside, all sparkle within."),
              "egg", "teal", "shine", top="crystals", eyes="one", mouth="smile", arms="stubby",
              feet="stubby", pattern="facets"),
    _creature("J", "D", "Tidesquire", gettext_noop("A seahorse page who rides the undertow to deliver letters."),
              "tall", "aqua", "coral", top="fin", eyes="big", mouth="beak", arms="fins",
              feet="none", tail="curl", pattern="stripes", width=0.8, height=1.05),
    _creature("Q", "D", "Nerissa", gettext_noop("Pearl queen of the reef; when she laughs, the tide turns."),
              "egg", "sky", "pearl", top="fin", eyes="sleepy", mouth="smile", arms="fins",
              feet="none", tail="fish", pattern="scales", width=0.95, height=1.05),
    _creature("K", "D", "Leviaquartz", gettext_noop("The crystal whale king, vast and ever so gentle."),
              "bean", "sapphire", "shine", top="crystals", eyes="dots", mouth="grin",
              arms="fins", feet="none", tail="fish", pattern="belly", width=1.25, height=0.95),
    # ♣ Clubs: the forest.
    _creature("2", "C", "Sproutlet", gettext_noop("A seedling who naps in flowerpots and wakes up taller."),
              "egg", "leaf", "cream", top="sprout", eyes="dots", mouth="smile", arms="none",
              feet="stubby", width=0.7, height=0.75),
    _creature("3", "C", "Acornelius", gettext_noop("An acorn with grand plans to become an oak one day."),
              "egg", "acorn", "cream", top="acorn_cap", eyes="big", mouth="smile",
              arms="stubby", feet="stubby", width=0.85, height=0.85),
    _creature("4", "C", "Mosshog", gettext_noop("A hedgehog upholstered in soft green moss."),
              "bean", "moss", "cream", top="spikes", eyes="dots", mouth="cat", arms="none",
              feet="paws", pattern="belly", width=1.05, height=0.8),
    _creature("5", "C", "Capsby", gettext_noop("A mushroom who politely tips his cap to everyone."),
              "tall", "cream", "toadstool", top="mushroom_cap", eyes="big", mouth="smile",
              arms="stubby", feet="stubby", width=0.9, height=0.95),
    _creature("6", "C", "Beetlenut", gettext_noop("A shiny beetle who rolls dewdrops uphill for fun."),
              "round", "pine", "leaf", top="antennae", eyes="wide", mouth="smile",
              arms="long", feet="stubby", pattern="stripes", width=1.0, height=0.9),
    _creature("7", "C", "Fernfox", gettext_noop("Hides in the bracken; only the tail gives it away."),
              "pear", "acorn", "cream", top="cat_ears", eyes="sleepy", mouth="cat",
              arms="stubby", feet="paws", tail="leaf", pattern="belly"),
    _creature("8", "C", "Toadstump", gettext_noop("A toad who is mostly stump, or a stump who is mostly toad."),
              "block", "bark", "moss", top="sprout", eyes="wide", mouth="grin", arms="none",
              feet="roots", pattern="stripes", width=1.1, height=0.85),
    _creature("9", "C", "Bramblekin", gettext_noop("Prickly on the outside, all berries on the inside."),
              "star", "fern", "berry", top="none", eyes="big", mouth="tongue", arms="stubby",
              feet="stubby", pattern="spots", width=0.95, height=0.95),
    _creature("10", "C", "Barkbear", gettext_noop("A bear with bark for fur and a bird's nest for a hat."),
              "round", "bark", "leaf", top="round_ears", eyes="dots", mouth="smile",
              arms="stubby", feet="paws", pattern="patches", width=1.1, height=1.0),
    _creature("J", "C", "Thornling", gettext_noop("The forest's squire, armed with a single rose thorn."),
              "pear", "olive", "berry", top="horns", eyes="angry", mouth="fang", arms="leaves",
              feet="roots", pattern="spots"),
    _creature("Q", "C", "Willowyn", gettext_noop("Queen of the willows, who braids the wind into her hair."),
              "ghost", "leaf", "cream", top="sprout", eyes="sleepy", mouth="smile",
              arms="leaves", feet="none", pattern="suit", width=0.95, height=1.05),
    _creature("K", "C", "Oakhart", gettext_noop("The old oak king, with acorns caught in his beard."),
              "tall", "bark", "moss", top="antlers", eyes="dots", mouth="flat", arms="leaves",
              feet="roots", pattern="stripes", width=1.1, height=1.05),
]

# Cardice's Bells: 12 chiming creatures, and a shadow Ace like the other suits.
_BELLS = [
    _creature("2", "B", "Tingaling", gettext_noop("The smallest bell of all; it rings only when nobody is looking."),
              "drop", "gold", "ribbon", top="none", eyes="dots", mouth="o", arms="none",
              feet="stubby", tail="bell", width=0.7, height=0.75),
    _creature("3", "B", "Chimbly", gettext_noop("A chimney-sweep sparrow who wears a bell for a hat."),
              "round", "bronze", "gold", top="bell_hat", eyes="big", mouth="beak", arms="wings",
              feet="stubby", pattern="belly", width=0.8, height=0.8),
    _creature("4", "B", "Dingbat", gettext_noop("A little bat that goes ding with every flap."),
              "round", "copper", "butter", top="bat_ears", eyes="big", mouth="fang",
              arms="bat_wings", feet="none", tail="bell", width=0.8, height=0.8),
    _creature("5", "B", "Clappet", gettext_noop("A bell's clapper that ran away to see the world."),
              "drop", "brass", "bluebell", top="tuft", eyes="wide", mouth="grin", arms="long",
              feet="stubby", pattern="stripes", width=0.85, height=0.9),
    _creature("6", "B", "Gongle", gettext_noop("A frog with a gong for a belly. Please do not drum on it."),
              "round", "honey", "butter", top="none", eyes="wide", mouth="grin", arms="long",
              feet="paws", pattern="belly", width=1.1, height=0.92),
    _creature("7", "B", "Jinglet", gettext_noop("A reindeer calf with sleigh bells tied to its antlers."),
              "pear", "bronze", "ribbon", top="antlers", eyes="sleepy", mouth="cat",
              arms="stubby", feet="paws", tail="bell", pattern="freckles"),
    _creature("8", "B", "Tollbert", gettext_noop("A tortoise who tolls the hours from inside his shell."),
              "dome", "bronze", "gold", top="bell_hat", eyes="sleepy", mouth="flat", arms="none",
              feet="paws", pattern="scales", width=1.15, height=0.85),
    _creature("9", "B", "Belfrowl", gettext_noop("An owl from the belfry who can tell the time by feel."),
              "egg", "honey", "cream", top="tuft", eyes="one", mouth="beak", arms="wings",
              feet="stubby", pattern="scales"),
    _creature("10", "B", "Pealbird", gettext_noop("A hummingbird who hums in perfect fifths."),
              "egg", "bluebell", "gold", top="tuft", eyes="big", mouth="beak", arms="wings",
              feet="none", tail="fish", pattern="belly", width=0.85, height=0.9),
    _creature("J", "B", "Bellhop", gettext_noop("Hops ahead to carry your luggage and your tune."),
              "tall", "ribbon", "gold", top="bunny_ears", eyes="big", mouth="tongue",
              arms="stubby", feet="paws", pattern="stripes", width=0.85, height=1.0),
    _creature("Q", "B", "Carilla", gettext_noop("Queen of the carillon; the whole tower sings when she nods."),
              "pear", "gold", "bluebell", top="bell_hat", eyes="sleepy", mouth="smile",
              arms="wings", feet="none", pattern="suit"),
    _creature("K", "B", "Tolliver", gettext_noop("King of the bell tower, whose crown rings at every step."),
              "dome", "bronze", "gold", top="round_ears", eyes="dots", mouth="grin",
              arms="long", feet="stubby", tail="bell", pattern="suit", width=1.1, height=1.05),
]

# fmt: on

CREATURES: dict[str, Creature] = {cr.card: cr for cr in _ROSTER}
"""The 48 creatures of the four standard suits, by card ("QH")."""

BELLS_CREATURES: dict[str, Creature] = {cr.card: cr for cr in _BELLS}
"""Cardice's 12 Bells creatures, by card ("QB")."""

JOKER_NAME = "the A.M.I.C. logo"


def king(suit: str) -> Creature:
    return (BELLS_CREATURES if suit == "B" else CREATURES)["K" + suit]


def shadow_name(suit: str) -> str:
    """An Ace's creature: 'Shadow Emberon'."""
    return "Shadow " + king(suit).name


def creature(card: str) -> Creature | None:
    """The creature drawn on a 2-K card (Bells included); None for Aces, jokers and '??'."""
    return CREATURES.get(card) or BELLS_CREATURES.get(card)


def figure_name(card: str) -> str:
    """Who is pictured on a card: a creature's name, 'Shadow <King>' or the logo."""
    if c.is_joker(card):
        return JOKER_NAME
    if c.rank(card) == "A":
        return shadow_name(c.suit(card))
    cr = creature(card)
    if cr is None:
        raise KeyError(card)
    return cr.name


def figure_line(card: str) -> str:
    """The one-line description of who is on the card."""
    if c.is_joker(card):
        return "Both jokers carry the A.M.I.C. logo."
    if c.rank(card) == "A":
        return f"{king(c.suit(card)).name}'s shadow, dark and glowing violet. Plays like any Ace."
    cr = creature(card)
    if cr is None:
        raise KeyError(card)
    return cr.line


def describe(card: str) -> str:
    """Alt text for a card image: 'Queen of Hearts (Flamora)', 'Face-down card'."""
    if card == c.HIDDEN:
        return "Face-down card"
    if not c.is_card(card):
        raise KeyError(card)
    if c.is_joker(card):
        return "Joker (A.M.I.C. logo)"
    return f"{c.card_name(card)} ({figure_name(card)})"
