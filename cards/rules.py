"""Short, player-facing rules pages, one per game kind.

Written from the exact rules in ``shared/rules/``: only what a player needs (goal, deal, a
turn, special cards, scoring, end), with example hands drawn with the real card images.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Example:
    """An example drawn with card images; a "|" in ``cards`` leaves a gap between groups."""

    caption: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Section:
    heading: str
    points: tuple[str, ...]
    examples: tuple[Example, ...] = ()


@dataclass(frozen=True)
class GameRules:
    kind: str
    title: str
    players: str
    summary: str
    sections: tuple[Section, ...] = field(default=())


def _s(heading: str, *points: str, examples: tuple[Example, ...] = ()) -> Section:
    return Section(heading, points, examples)


def _ex(caption: str, cards: str) -> Example:
    return Example(caption, tuple(cards.split()))


RULES: dict[str, GameRules] = {}


def _add(rules: GameRules) -> None:
    RULES[rules.kind] = rules


_add(GameRules(
    "klondike", "Solitaire (Klondike)", "1 player",
    "The classic patience game: sort the whole deck onto four foundations, A up to K.",
    (
        _s("Goal", "Move all 52 cards onto the 4 foundations, one per suit, building up from A to K.",
           examples=(_ex("A foundation grows one card at a time, in its own suit.", "AC 2C 3C 4C"),)),
        _s("The deal",
           "7 columns of 1 to 7 cards; only the top card of each column is face up.",
           "The other 24 cards are the stock, face down."),
        _s("Playing",
           "Build the columns down in alternating colours: a red 8 on a black 9, a black 10 on a red J.",
           "Move a face-up card together with the cards on top of it. A face-down card turns over when it is uncovered.",
           "Only a K can go into an empty column.",
           "Tap the stock to turn 1 card (or 3 in Draw 3) onto the waste. Only the waste's top card can be played. "
           "When the stock is empty, tap it to turn the waste back over, as often as you like.",
           examples=(_ex("Building down in alternating colours.", "10H 9S 8D 7C"),)),
        _s("Controls",
           "Tap a card, then tap where it should go. Double-tap a card to send it to its foundation, or else to the first column that takes it.",
           "Undo takes back moves, all the way to the deal.",
           "Finish appears once every card is face up and the stock is empty: it plays the rest home for you."),
        _s("Scoring and end",
           "There are no points: a game is won or not, and your moves and time are counted.",
           "The game ends when every card is on a foundation (you win) or when you resign."),
    ),
))  # fmt: skip

_add(GameRules(
    "war", "War", "2-4 players",
    "Flip, compare, collect. The highest card takes them all; ties go to WAR.",
    (
        _s("Goal", "Win all the cards."),
        _s("The deal",
           "All 54 cards, jokers included, are dealt face down: 27 each with 2 players, 18 with 3, 13 with 4 "
           "(the 2 leftover cards are set aside)."),
        _s("A round",
           "Everyone flips their top card. The highest card wins all the flipped cards, which go to the bottom of the winner's pile.",
           "Card order: 2 is lowest, then 3 up to 10, J, Q, K, A. A joker beats everything. Suits never matter.",
           examples=(_ex("The joker beats even the Ace.", "JK1 AS"),)),
        _s("WAR",
           "When the highest cards tie, the tied players each lay 1 card face down and flip another. The winner takes the whole pot; another tie means another war.",
           "A player who runs out of cards during a war is out.",
           examples=(_ex("Two Kings tie: each player lays one card down and flips one. The Queen takes all six.", "KD ?? 2C | KS ?? QS"),)),
        _s("End",
           "Run out of cards and you are out. The last player with cards wins.",
           "After 400 rounds, the biggest pile wins (equal piles share the win).",
           "Tap Flip (or press Space), or tick Auto-flip."),
    ),
))  # fmt: skip

_add(GameRules(
    "poker", "Poker (5-card draw, jokers wild)", "2-4 players",
    "Five cards, one draw, two rounds of betting. Jokers are wild.",
    (
        _s("Goal", "Win everyone's chips. Each player starts with 100 chips and antes 2 chips per hand."),
        _s("A hand",
           "Everyone gets 5 cards.",
           "First betting round: check, call, raise (by 5) or fold. At most 3 raises per round.",
           "Draw: tap HOLD under the cards you want to keep, then Draw replaces all the others. Hold all 5 to stand pat. "
           "Suggest holds picks a sensible set for you.",
           "Second betting round: raises are 10.",
           "Showdown: the best hand wins the pot, and ties split it. If everyone else folds, the last player in wins without showing."),
        _s("Jokers and limits",
           "Each joker becomes whatever card makes your hand best, so five of a kind is possible.",
           "No side pots: in each hand, nobody's total bet can go above the smallest stack at the table.",
           examples=(_ex("Five of a kind: the best hand there is.", "JK1 AS AH AD AC"),)),
        _s("Hands, best to worst",
           "Five of a kind · Straight flush · Four of a kind · Full house · Flush · Straight · Three of a kind · Two pair · One pair · High card.",
           "Straights are 5 cards in a row, from A-2-3-4-5 (the lowest) up to 10-J-Q-K-A (the highest). No wrapping round: Q-K-A-2-3 is not a straight.",
           examples=(
               _ex("Straight flush.", "10H JH QH KH AH"),
               _ex("Full house, the joker making the third nine.", "JK2 9S 9D 4C 4H"),
               _ex("The lowest straight.", "AS 2D 3C 4H 5S"),
           )),
        _s("End", "A player who loses all their chips is out. The last player with chips wins."),
    ),
))  # fmt: skip

_add(GameRules(
    "blackjack", "Blackjack", "1-4 players against the dealer",
    "Get closer to 21 than the dealer without going over.",
    (
        _s("Goal and chips",
           "Beat the dealer's total without going over 21.",
           "Everyone starts with 100 chips and bets 5, 10, 25 or 50 before each round. "
           "The shoe holds 2 creature decks and is reshuffled when it runs low."),
        _s("Card values",
           "2-10 are worth their number; J, Q and K are worth 10; an A is worth 1 or 11.",
           examples=(_ex("Blackjack: an A with a 10-value card as your first two cards.", "AS KD"),
                     _ex("A soft 17: the Ace counts 11.", "AH 6C"))),
        _s("The deal", "You get 2 cards face up. The dealer gets one face up and one face down. "
           "If the dealer shows an A or a 10-value card and has blackjack, the round ends at once."),
        _s("Your turn",
           "Hit to take a card, Hold to stand, or Double on your first two cards: double your bet and take exactly one more card.",
           "Go over 21 and you bust: your bet is lost at once. A hand that reaches 21 stands by itself.",
           "There is no splitting and no insurance.",
           examples=(_ex("Bust: 26.", "10H 6C KS"),)),
        _s("The dealer and payouts",
           "The dealer draws to 17 and stands on every 17, soft 17 included.",
           "Beat the dealer (or the dealer busts): you win your bet. Blackjack pays 3 to 2 (a 5-chip bet wins 8). A tie is a push: you get your bet back."),
        _s("End", "Cash out between rounds whenever you like. A player with fewer than 5 chips is out."),
    ),
))  # fmt: skip

_add(GameRules(
    "gin", "Gin Rummy", "2 players",
    "Draw, discard and build melds; knock when your deadwood is low. First to 100 wins.",
    (
        _s("Goal", "Be the first to 100 points."),
        _s("The deal", "10 cards each. One card starts the discard pile; the rest is the stock."),
        _s("Your turn",
           "Draw the top card of the stock or of the discard pile, then discard one card.",
           "You can't throw back the card you just took from the discard pile."),
        _s("Melds and deadwood",
           "Sets: 3 or 4 cards of the same rank. Runs: 3 or more cards in a row in one suit, from A-2-3 up to J-Q-K (the A is low only).",
           "Cards not in a meld are deadwood: A = 1, 2-10 = face value, J, Q, K = 10. The game lights up your melds in green and shows your deadwood.",
           examples=(_ex("A run and a set; the deadwood is 2 + 1 + 4 = 7, so you may knock.", "3H 4H 5H 6H | 8S 8D 8C | 2C AD 4C"),
                     _ex("Not a run: the A is low.", "QH KH AH"))),
        _s("Knocking and scoring",
           "Knock when your deadwood after discarding is 10 or less. Your opponent lays off deadwood on your melds; "
           "if your deadwood is lower, you score the difference.",
           "Gin: knock with 0 deadwood for 25 points plus your opponent's deadwood (no laying off).",
           "Undercut: if your opponent ends with deadwood equal to or lower than yours, they score the difference plus 25."),
        _s("End", "If the stock runs down to 2 cards, the hand is a draw and is dealt again. The first player to 100 points wins."),
    ),
))  # fmt: skip

_add(GameRules(
    "crazy8", "Crazy 8", "2-4 players",
    "Match the suit or the rank; 8s are wild. First to empty their hand wins.",
    (
        _s("Goal", "Be the first to get rid of all your cards."),
        _s("The deal", "7 cards each (5 each with 3 or 4 players). The top card of the draw pile starts the discard pile. No jokers."),
        _s("Your turn",
           "Play one card that matches the suit or the rank of the top discard: a 6 on a 6, a ♥ on a ♥.",
           "8s are wild: play an 8 on anything, then call the suit the next player must follow.",
           "Can't play, or would rather not? Draw one card. Then play it (or any card that fits), or Pass. "
           "When the draw pile runs out, the discards are shuffled back in.",
           examples=(_ex("On the 6 of Hearts you may play 6♠, 2♥ or an 8 (naming a suit), but not 9♣.", "6H | 6S 2H 8D"),)),
        _s("End",
           "The first player to play their last card wins. If nobody can play at all, the player with the fewest cards wins.",
           "Your wins are counted next to your name."),
    ),
))  # fmt: skip

_add(GameRules(
    "american8", "8 Américain", "2-4 players",
    "Crazy Eights with action cards: reverse, skip, draw two, draw four. Lowest score wins.",
    (
        _s("Goal", "Have the lowest score when someone reaches 100 points."),
        _s("The deal",
           "8 cards each from a 54-card deck (2 jokers). The first discard counts as played by the dealer, so its effect applies."),
        _s("Your turn",
           "Play a card that matches the suit or the rank of the top discard. 8s are wild: play one on anything and name a suit.",
           "A joker may be played on anything, and anything may be played on a joker.",
           "Can't play, or would rather not? Draw one card, then play or Pass."),
        _s("Action cards",
           "A: reverses the direction of play. J: the next player is skipped.",
           "2: the next player draws 2, unless they answer with a 2 and pass the total on.",
           "Joker: the next player draws 4, unless they answer with a joker. 2s and jokers don't mix.",
           examples=(_ex("Reverse, skip, draw two, wild, draw four.", "AC JD 2H 8S JK1"),)),
        _s("Last cards",
           "When you play your second-to-last card, press Knock, or you draw 4 cards as a penalty.",
           "You can't go out on a special card (8, A, J, 2 or joker)."),
        _s("Scoring and end",
           "When a player goes out, everyone else adds up the cards in their hand: 3-7, 9 and 10 = 5; J, Q, K = 10; "
           "A = 15; 2 = 15, but 2♠ = 25; every 8 = 25; joker = 50.",
           "When someone reaches 100, the lowest total wins (equal lowest totals share the win).",
           examples=(_ex("Left in your hand: 25 + 50 + 5 = 80 points.", "8C JK1 3D"),)),
    ),
))  # fmt: skip

_add(GameRules(
    "gridcannon", "Gridcannon", "1 player",
    "A solitaire by Tom Francis: fire number cards through a 3×3 grid to defeat the 12 royals.",
    (
        _s("Goal", "Kill all 12 royals (J, Q, K)."),
        _s("Setup",
           "Deal number cards (2-10) face up into a 3×3 grid. Aces and jokers you meet become Ploys, kept to one side.",
           "Royals are set aside, then placed outside the grid next to the card they are most like: same suit, "
           "else same colour, else the highest card.",
           "You may then send one grid card to the bottom of the deck and draw a replacement."),
        _s("Your turn",
           "Draw a card. A number card goes on a grid card of the same or lower value, whatever its suit. "
           "A royal is placed next to its most similar card. An ace or joker becomes a Ploy."),
        _s("Attacks",
           "A card you place fires along its row or column: if there are two grid cards between it and a royal on the far side, "
           "those two cards attack. The card you placed doesn't count.",
           "The royal dies if their sum reaches its health: J 11, Q 12, K 13. A K only counts cards of its suit, a Q cards of its colour, a J any cards.",
           examples=(_ex("A Jack above 5♣ and 6♦: placing 9♥ below them fires 5 + 6 = 11, and the Jack dies.", "JH | 5C 6D | 9H"),
                     _ex("A King needs its own suit: 9♠ and 5♠ make 14, enough for the K♠.", "KS | 9S 5S | 4C"))),
        _s("Ploys",
           "Ace (Extraction): pick up a whole grid stack and put it at the bottom of the deck.",
           "Joker (Reassignment): move the top card of one grid stack to another spot, where it attacks.",
           "Stuck with a card that fits nowhere and no Ploy that helps? It becomes Armour on the most similar royal, adding to its health."),
        _s("End and score",
           "You win when all 12 royals are dead; your score is the number of unspent Ploys (6 at most).",
           "You lose when the deck and your Ploys run out, or a royal gets too tough to ever kill."),
    ),
))  # fmt: skip

_add(GameRules(
    "cardice", "Cardice", "2-6 players, or 2-3 partnerships",
    "A trick-taking game with five suits and a joker. A die picks trumps; make exactly your bid.",
    (
        _s("Goal", "Score the most points over 12 rounds (10 rounds with 5 players)."),
        _s("The deck",
           "Five suits of 13 cards (♠, ♥, ♦, ♣ and Bells), A high, plus one joker: 66 cards.",
           examples=(_ex("The Bells: Cardice's fifth suit.", "AB KB QB JB 10B"),)),
        _s("The deal and trumps",
           "12 cards each (10 each with 6 players); the rest stay face down, unused.",
           "The player to the dealer's right rolls the die: a suit is trumps, or X means no trumps."),
        _s("Bidding",
           "Everyone bids how many tricks they will take, twice round the table. Nobody passes; 0 (nil) is allowed. "
           "The second bid is final. Partners add their bids into one team contract."),
        _s("Playing tricks",
           "The player to the dealer's left leads. Follow suit if you can; otherwise play anything (trumping is never required).",
           "The highest trump wins the trick, or else the highest card of the suit led. The winner leads next.",
           "The joker wins any trick it is played to, and it frees you from following suit. "
           "It can't be led, except in the final round (or when it is your last card).",
           examples=(_ex("Hearts are trumps: on a spade lead, the 2♥ beats the A♠.", "5S KS 2H AS"),)),
        _s("Scoring",
           "Make your bid: score exactly the bid (extra tricks earn nothing). Fall short: lose 1 point per missing trick.",
           "Nil made: +5. Nil broken: minus the tricks you took."),
        _s("End", "After the last round the highest total wins. A tie for first is settled by an extra decider round."),
    ),
))  # fmt: skip

_add(GameRules(
    "thirteen", "Thirteen", "2-4 players",
    "Thirteen rounds of rummy with a new wild rank each round. Lowest total wins.",
    (
        _s("Goal", "Have the lowest total after 13 rounds."),
        _s("Wild cards",
           "In round 1 the Aces are wild, in round 2 the 2s, and so on up to the Kings in round 13.",
           examples=(_ex("Round 5: the 5♣ stands in for the 5♥ in this run.", "4H 5C 6H"),)),
        _s("The deal", "7 cards each; one card face up starts the discard pile. A random card draw picks who goes first."),
        _s("Your turn",
           "Draw from the stock or the discard pile, then discard one card (not the one you just took from the pile)."),
        _s("Combinations",
           "Sets: 3 or more cards of the same rank. Runs: 3 or more cards in a row in one suit (A is low).",
           "Wild cards can stand for any card, but every combination needs at least one natural card."),
        _s("Going out and scoring",
           "When the 7 cards left after your discard all fit into combinations, go out.",
           "Everyone else scores the cards left out of their combinations: A = 1, 2-10 = face value, J, Q, K = 10, a wild card = 25.",
           examples=(_ex("Round 2: a run and four nines. Discard the Q♥ and go out.", "4S 5S 6S | 9D 9H 9C 9S | QH"),)),
        _s("End", "After round 13 the lowest total wins. If the lowest total is tied, nobody wins."),
    ),
))  # fmt: skip

GAP = "|"

KINDS = ("klondike", "war", "poker", "blackjack", "gin", "crazy8", "american8", "gridcannon",
         "cardice", "thirteen")  # fmt: skip
