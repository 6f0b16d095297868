"""The computer players' four strengths in Gin, Crazy 8 (and its presets) and 8 Américain:
each plays whole games with legal moves, none reads what its seat can't see, and Easy makes
no absurd move."""

from __future__ import annotations

import random

import pytest

from gameplay.engine import melds
from gameplay.engine.core import STRENGTHS, clone
from gameplay.engine.games.gin import search as gin_search
from gameplay.engine.games.gin import strategy as gin_strategy
from gameplay.engine.games.gin.engine import ENGINE as GIN
from gameplay.engine.games.shedding import search as shedding_search
from gameplay.engine.games.shedding import strategy as shedding_strategy
from gameplay.engine.games.shedding.engine import AMERICAN8, CRAZY8
from gameplay.engine.games.shedding.ruleset import full_deck

# (engine, rules) for every kind and preset
TABLES = [
    (GIN, None),
    (CRAZY8, None),
    (CRAZY8, {"mode": "maumau"}),
    (CRAZY8, {"mode": "101"}),
    (AMERICAN8, None),
]
IDS = ["gin", "crazy8", "maumau", "101", "american8"]


@pytest.fixture(autouse=True)
def small_search(monkeypatch):
    """Hard and Expert search a few deals only, so the suite stays fast (the CPU caps are
    never hit)."""
    monkeypatch.setattr(gin_search, "DEALS", 3)
    monkeypatch.setattr(gin_search, "QUICK_DEALS", 3)
    monkeypatch.setattr(gin_strategy, "GUESS_POOL", 12)
    monkeypatch.setattr(shedding_search, "DEALS", 3)


def test_every_game_plays_all_four_strengths():
    for engine in (GIN, CRAZY8, AMERICAN8):
        assert engine.strengths == STRENGTHS


def play_out(engine, state, strengths, moves: int = 4000) -> dict:
    for _ in range(moves):
        if engine.is_over(state):
            return state
        seat = engine.to_act(state)[0]
        action = engine.bot_action(state, seat, strengths[seat % len(strengths)])
        assert action in engine.legal_actions(state, seat), action
        engine.apply(state, seat, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("engine", "rules"), TABLES, ids=IDS)
def test_each_strength_plays_whole_games_with_legal_moves(engine, rules):
    pairs = [("easy", "medium"), ("hard", "expert"), ("expert", "easy")]
    if engine is GIN:
        pairs = pairs[1:2]  # a whole Gin game to 100 is long: one game, the searching levels
    for i, strengths in enumerate(pairs):
        state = engine.new_game(2, f"strengths-{i}", rules)
        assert engine.is_over(play_out(engine, state, strengths))


def test_gin_games_end_for_the_other_strengths():
    state = GIN.new_game(2, "gin-easy-medium")
    assert GIN.is_over(play_out(GIN, state, ("easy", "medium")))


def test_shedding_with_three_and_four_seats():
    for players in (3, 4):
        state = AMERICAN8.new_game(players, f"seats-{players}")
        play_out(AMERICAN8, state, ("expert", "hard", "easy", "medium")[:players])


# ---- no peeking ------------------------------------------------------------------------------


def hidden_shuffled(engine, state: dict, seat: int, rng: random.Random) -> dict:
    """The same table with the cards ``seat`` can't see dealt again: the other hands' hidden
    cards and the stock mixed and dealt back in the same numbers."""
    other = clone(state)
    if engine is GIN:
        opponent = 1 - seat
        known = list(state["took"][opponent])
        secret = [c for c in state["hands"][opponent] if c not in known] + state["stock"]
        rng.shuffle(secret)
        cut = len(state["hands"][opponent]) - len(known)
        other["hands"][opponent] = known + secret[:cut]
        other["stock"] = secret[cut:]
        return other
    seats = [s for s in range(len(state["hands"])) if s != seat]
    secret = [c for s in seats for c in state["hands"][s]] + state["stock"]
    rng.shuffle(secret)
    for s in seats:
        count = len(state["hands"][s])
        other["hands"][s], secret = secret[:count], secret[count:]
    other["stock"] = secret
    return other


def positions(engine, rules, count: int, seed: str):
    """States met in play (by medium players), at a seat about to act."""
    state = engine.new_game(2, seed, rules)
    step = 0
    while not engine.is_over(state) and count:
        seat = engine.to_act(state)[0]
        if step % 3 == 0:
            count -= 1
            yield state, seat
        engine.apply(state, seat, engine.bot_action(state, seat))
        step += 1


def same_choice_whatever_is_hidden(engine, rules, strength: str, bot=None) -> int:
    """Over positions in play, the action chosen from a state and from the same state with
    its hidden cards dealt again. Returns how many positions differed."""
    rng = random.Random(7)
    differ = 0
    for state, seat in positions(engine, rules, 12, f"peek-{strength}"):
        other = hidden_shuffled(engine, state, seat, rng)
        assert engine.view(other, seat) == engine.view(state, seat)
        assert other["hands"] != state["hands"] or other["stock"] != state["stock"]
        choose = bot or engine.bot_action
        if choose(state, seat, strength) != choose(other, seat, strength):
            differ += 1
    return differ


@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize(("engine", "rules"), TABLES, ids=IDS)
def test_no_strength_reads_the_hidden_cards(engine, rules, strength):
    assert same_choice_whatever_is_hidden(engine, rules, strength) == 0


def test_a_bot_that_peeks_is_caught():
    """The check above can fail: a bot handed the state (here: one that throws the card the
    opponent could meld, read from the opponent's real hand) chooses differently."""

    def peeking(state, seat, strength):
        action = GIN.bot_action(state, seat, strength)
        if action["type"] != "discard":
            return action
        opponent = melds.hand_mask(state["hands"][1 - seat])
        legal = GIN.legal_actions(state, seat)
        fed = [a for a in legal if gin_strategy.fits(melds.BIT[a.get("card", "AS")], opponent)]
        return fed[0] if fed else action

    assert same_choice_whatever_is_hidden(GIN, None, "medium", peeking) > 0


def test_a_shedding_bot_that_peeks_is_caught():
    """The same check for Crazy 8: a bot that draws when the next hand really holds an
    eight (read from that hand) chooses differently when the hidden cards are dealt again."""

    def peeking(state, seat, strength):
        action = CRAZY8.bot_action(state, seat, strength)
        eight = any(c.startswith("8") for c in state["hands"][1 - seat])
        legal = CRAZY8.legal_actions(state, seat)
        return {"type": "draw"} if eight and {"type": "draw"} in legal else action

    assert same_choice_whatever_is_hidden(CRAZY8, None, "hard", peeking) > 0


def test_hard_remembers_what_the_next_hand_showed():
    """A suit the next player drew on is unlikely in its hand, the suit it named with its
    eight likely; the chances add up to the cards it holds."""
    state = CRAZY8.new_game(2, "memory")
    seat = state["turn"]
    state["drew_on"][1 - seat] = ["H"]
    state["history"].append({"seat": 1 - seat, "did": "play", "card": "8C", "suit": "S"})
    view = CRAZY8.view(state, seat)
    hand = [h["card"] for h in view["you"]["hand"]]
    effects = shedding_strategy.effects_of_view(view)
    memory = shedding_strategy.Memory(view, shedding_strategy.Unseen(view, hand, effects), effects)
    by_suit = {s: 0.0 for s in "SHDC"}
    for card, chance in memory.chance.items():
        if not card.startswith("8"):
            by_suit[card[-1]] += chance
    assert by_suit["H"] < by_suit["D"] < by_suit["S"]
    assert sum(memory.chance.values()) == pytest.approx(view["hand_counts"][1 - seat])


def to_play(engine, hand: list[str], discards: list[str], next_hand: int, history=()):
    """A two-seat table where the seat to act holds ``hand`` on ``discards`` (the last one on
    top, its suit to follow) and the next player ``next_hand`` cards of the rest: what Medium
    and Hard play."""
    state = engine.new_game(2, "to-play")
    seat = state["turn"]
    used = set(hand) | set(discards)
    stock = [c for c in full_deck(state["ruleset"]) if c not in used]
    state["hands"][seat], state["hands"][1 - seat] = list(hand), stock[:next_hand]
    state.update(
        discards=list(discards),
        stock=stock[next_hand:],
        suit=discards[-1][-1],
        suit_named=False,
        pending=0,
        drew=False,
        drew_on=[[], []],
    )
    state["history"] += [{"seat": 1 - seat, **seen} for seen in history]
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat)
    return shedding_strategy.choose(view, legal), shedding_strategy.hard(view, legal)


def test_hard_names_a_suit_the_next_hand_is_not_expected_to_hold():
    """With only its eight to play, holding as many spades as hearts, after the next player
    (ten cards) named spades with an eight, Medium names spades (the first of a tie) and Hard
    hearts; with one spade more, both name spades: the spades the next hand is expected to
    hold weigh less than a card in the hand."""

    def named(hand: list[str]) -> tuple[str, str]:
        named_spades = [{"did": "play", "card": "8C", "suit": "S"}]
        medium, hard = to_play(CRAZY8, hand, ["8C", "KD"], 10, named_spades)
        return medium["suit"], hard["suit"]

    assert named(["8D", "3S", "5S", "4H", "7H", "9H", "JC"]) == ("H", "H")
    assert named(["8D", "3S", "5S", "QS", "4H", "9H", "JC"]) == ("S", "S")
    assert named(["8D", "3S", "5S", "4H", "9H", "JC"]) == ("S", "H")


def test_hard_sheds_points_when_the_next_hand_is_nearly_out():
    """8 Américain counts the cards left in a hand: with the next player down to two cards,
    Hard plays its King (10 points) where Medium keeps to its threes (5); with five cards
    there, both play a three."""

    def played(next_hand: int) -> tuple[str, str]:
        medium, hard = to_play(AMERICAN8, ["KS", "3H", "3D", "9C"], ["3S"], next_hand)
        return medium["card"], hard["card"]

    assert played(2) == ("3H", "KS")
    assert played(5) == ("3H", "3H")


def after_the_other_seat_played(hand: list[str], top: str, card: str, named: str | None = None):
    """A two-seat Crazy 8 table where seat 1, holding ``hand``, has just played ``card`` on
    ``top``: seat 0's view, and the public state Expert's search rebuilds from it."""
    mine = ["KC", "QD", "5C", "6D", "JC"]
    state = CRAZY8.new_game(2, "reads")
    used = set(mine) | set(hand) | {top}
    state.update(
        hands=[mine, list(hand)],
        discards=[top],
        stock=[c for c in full_deck(state["ruleset"]) if c not in used],
        suit=top[-1],
        suit_named=False,
        direction=1,
        phase="play",
        turn=1,
        drew=False,
        drew_on=[[], []],
        history=[],
    )
    action = {"type": "play", "card": card, **({"suit": named} if named else {})}
    assert action in CRAZY8.legal_actions(state, 1)
    CRAZY8.apply(state, 1, action)
    view = CRAZY8.view(state, 0)
    return view, shedding_search.rebuild(view)


def test_expert_reads_the_other_seats_play_as_todays_rule_would_make_it():
    """Seat 1 left spades for hearts with a 7: today's rule keeps to the suit it holds most
    of, so a guessed hand rich in spades and poor in hearts would not have made that play;
    an eight that named diamonds says the same of a hand without diamonds."""
    view, base = after_the_other_seat_played(["7H", "2H", "4H", "9H", "3S"], "7S", "7H")
    reads = shedding_search.Reads.read(CRAZY8, base, view)
    mine = [h["card"] for h in view["you"]["hand"]]
    assert reads is not None
    assert reads.misses([mine, ["2H", "4H", "9H", "3S"]], []) == 0
    assert reads.misses([mine, ["2S", "4S", "9S", "3D"]], []) == 1
    view, base = after_the_other_seat_played(["8C", "2D", "4D", "9S"], "7H", "8C", "D")
    reads = shedding_search.Reads.read(CRAZY8, base, view)
    assert reads.misses([mine, ["2D", "4D", "9S"]], []) == 0
    assert reads.misses([mine, ["2S", "4S", "9C"]], []) == 1


def test_expert_deals_hands_that_explain_the_play():
    """Expert's deals are hands that would have made the play read, where a deal that does
    not read it often is not: seat 1 played an eight on hearts and named diamonds, so it held
    no plain card that fitted and more diamonds than any other suit."""
    view, base = after_the_other_seat_played(["8C", "2D", "4D", "9S"], "7H", "8C", "D")
    reads = shedding_search.Reads.read(CRAZY8, base, view)
    rng = random.Random(3)

    def explained(clue) -> int:
        deals = [shedding_search.determinize(base, view, rng, clue) for _ in range(200)]
        return sum(reads.misses(deal["hands"], deal["stock"]) == 0 for deal in deals)

    assert explained(reads) > 150  # a few times no hand tried explains it (READ_TRIES)
    assert explained(None) < 50


# ---- Easy makes no absurd move -------------------------------------------------------------------


def test_easy_gin_keeps_its_melds_and_takes_gin():
    for i in range(6):
        state = GIN.new_game(2, f"easy-gin-{i}")
        for _ in range(300):
            if GIN.is_over(state) or state["hand_no"] > 2:
                break
            seat = state["turn"]
            action = GIN.bot_action(state, seat, "easy")
            if state["step"] == "discard":
                hand = state["hands"][seat]
                arrangement = melds.arrange(hand)
                in_meld = {c for m in arrangement.melds for c in m}
                if arrangement.deadwood and action["type"] == "discard":
                    # Never breaks a meld while it holds deadwood it may throw instead.
                    throwable = [c for c in arrangement.deadwood if c != state["taken"]]
                    assert not throwable or action["card"] not in in_meld, (hand, action)
                gin = [
                    a
                    for a in GIN.legal_actions(state, seat)
                    if a["type"] == "knock"
                    and melds.deadwood([c for c in hand if c != a["card"]]) == 0
                ]
                if gin:  # gin on offer: it goes gin
                    assert action["type"] == "knock"
                    assert melds.deadwood([c for c in hand if c != action["card"]]) == 0
            GIN.apply(state, seat, action)


@pytest.mark.parametrize(("engine", "rules"), TABLES[1:], ids=IDS[1:])
def test_easy_shedding_plays_what_fits_and_calls_its_last_card(engine, rules):
    for i in range(8):
        state = engine.new_game(2, f"easy-shed-{i}", rules)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            action = engine.bot_action(state, seat, "easy")
            plays = [a for a in legal if a["type"] == "play"]
            if plays:
                # It plays when it can (never draws or takes instead) ...
                assert action["type"] == "play", (legal, action)
                # ... calls its last card whenever it may ...
                if any(a.get("knock") for a in plays):
                    assert action.get("knock") is True
                # ... and keeps its wild cards while a plain card fits.
                effects = shedding_strategy.effects_of_view(engine.view(state, seat))
                wild = {
                    a["card"]
                    for a in plays
                    if a["card"].startswith("JK")
                    or shedding_strategy.effect_of(effects, a["card"]) == ("wish", 0)
                }
                if len(state["hands"][seat]) > 2 and {a["card"] for a in plays} - wild:
                    assert action["card"] not in wild, (legal, action)
            engine.apply(state, seat, action)


def test_views_show_every_gin_turn_of_the_hand_to_everyone():
    state = GIN.new_game(2, "record")
    seat = state["turn"]
    top = state["discard"][-1]
    GIN.apply(state, seat, {"type": "draw", "from": "stock"})
    card = state["hands"][seat][0]
    GIN.apply(state, seat, {"type": "discard", "card": card})
    GIN.apply(state, 1 - seat, {"type": "draw", "from": "discard"})
    for viewer in (0, 1, None):
        seats = GIN.view(state, viewer)["seats"]
        assert seats[seat]["moves"] == [[None, top, card]]
        assert seats[1 - seat]["moves"] == [[card, None, None]]
