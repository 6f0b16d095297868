"""The ten games as the site presents them. Rules live in the engines; this is the shop window."""

from dataclasses import dataclass

from gameplay.engine import registry


@dataclass(frozen=True)
class GameInfo:
    kind: str
    title: str
    players: str
    blurb: str
    cards: tuple[str, str]  # two cards that show the game on its tile
    solo: bool = False  # a one-player game (no computer opponents)

    @property
    def playable(self) -> bool:
        return self.kind in registry.kinds()

    @property
    def rated(self) -> bool:
        return self.playable and registry.get(self.kind).rated


GAMES = [
    GameInfo(
        "klondike",
        "Klondike",
        "1 player",
        "The classic solitaire: build four foundations from Ace to King.",
        ("KS", "QH"),
        solo=True,
    ),
    GameInfo(
        "war",
        "War",
        "2–4 players",
        "Flip, compare, and go to WAR on a tie. Jokers beat everything.",
        ("JK1", "AS"),
    ),
    GameInfo(
        "poker",
        "Poker",
        "2–4 players",
        "Five-card draw with wild jokers. Hold, draw, bluff.",
        ("JK2", "AH"),
    ),
    GameInfo(
        "blackjack",
        "Blackjack",
        "1–4 players",
        "Beat the dealer to 21 without going over. Blackjack pays 3:2.",
        ("AS", "KH"),
    ),
    GameInfo(
        "gin",
        "Gin Rummy",
        "2 players",
        "Meld sets and runs, knock low, and go Gin. First to 100.",
        ("7D", "8D"),
    ),
    GameInfo(
        "crazy8",
        "Crazy 8",
        "2–4 players",
        "Match the suit or rank; eights are wild. Empty your hand first.",
        ("8C", "8H"),
    ),
    GameInfo(
        "american8",
        "8 Américain",
        "2–4 players",
        "Crazy eights with action cards: reverse, skip, draw two, draw four.",
        ("2S", "JK1"),
    ),
    GameInfo(
        "gridcannon",
        "Gridcannon",
        "1 player",
        "A solitaire battle: build a 3×3 grid and take down twelve royals.",
        ("KD", "JC"),
        solo=True,
    ),
    GameInfo(
        "cardice",
        "Cardice",
        "2–6 players",
        "Trick-taking with five suits: a die picks trumps, bid exactly.",
        ("AB", "KB"),
    ),
    GameInfo(
        "thirteen",
        "Thirteen",
        "2–4 players",
        "Thirteen rounds of rummy with a new wild rank every round.",
        ("QC", "3S"),
    ),
]

BY_KIND = {game.kind: game for game in GAMES}
