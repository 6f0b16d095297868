"""The computer players' four strengths in Poker, Blackjack, Thirteen and Cardice: each plays whole games with
legal moves, none reads what its seat can't see, and Easy makes no absurd move."""

from __future__ import annotations

import copy
import gc
import random

import pytest

from gameplay.engine import melds, registry
from gameplay.engine.core import STRENGTHS, clone
from gameplay.engine.games.blackjack import counting
from gameplay.engine.games.blackjack.engine import ENGINE as BLACKJACK
from gameplay.engine.games.blackjack.engine import card_value, hand_total
from gameplay.engine.games.blackjack.players import bot as blackjack_bot
from gameplay.engine.games.cardice import search as cardice_search
from gameplay.engine.games.cardice.engine import ENGINE as CARDICE
from gameplay.engine.games.poker import evaluator, holds
from gameplay.engine.games.poker import search as poker_search
from gameplay.engine.games.poker import strategy as poker_strategy
from gameplay.engine.games.poker.engine import ENGINE as POKER
from gameplay.engine.games.thirteen import search as thirteen_search
from gameplay.engine.games.thirteen import strategy as thirteen_strategy
from gameplay.engine.games.thirteen.engine import ENGINE as THIRTEEN
from gameplay.engine.games.thirteen.hands import leftover, wild_rank


@pytest.fixture(autouse=True)
def small_search(monkeypatch):
    """The searching levels look at a few deals only, so the suite stays fast."""
    monkeypatch.setattr(poker_search, "DEALS", 12)
    monkeypatch.setattr(poker_strategy, "SAMPLES", 12)
    monkeypatch.setattr(thirteen_search, "DEALS", 6)
    monkeypatch.setattr(cardice_search, "HARD_DEALS", 3)
    monkeypatch.setattr(cardice_search, "EXPERT_DEALS", 6)


def test_the_warm_up_builds_pokers_tables_once(monkeypatch):
    """What Hard and Expert read is built by ``registry.warm_up`` (a worker's start), once,
    and then what the process holds is frozen out of the full garbage collections."""
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(gc.get_count()))
    monkeypatch.setattr(poker_strategy, "_pool", {})
    monkeypatch.setattr(holds, "_tables", {})
    sorted_hands = []
    rule_hold = holds.rule_hold
    monkeypatch.setattr(holds, "rule_hold", lambda hand: sorted_hands.append(1) or rule_hold(hand))
    registry.warm_up()
    assert holds._tables
    assert sum(map(len, poker_strategy._pool.values())) == poker_strategy.POOL
    assert len(sorted_hands) == poker_strategy.POOL
    assert len(frozen) == 1
    registry.warm_up()
    assert len(sorted_hands) == poker_strategy.POOL  # not built again


def test_every_game_plays_all_four_strengths():
    for engine in (POKER, BLACKJACK, THIRTEEN, CARDICE):
        assert engine.strengths == STRENGTHS


def play_out(engine, state, strengths, moves: int = 6000) -> dict:
    for _ in range(moves):
        if engine.is_over(state):
            return state
        for seat in engine.to_act(state):
            if seat not in engine.to_act(state):
                continue  # a simultaneous stage moved on
            action = engine.bot_action(state, seat, strengths[seat % len(strengths)])
            assert action in engine.legal_actions(state, seat), action
            engine.apply(state, seat, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    "strengths", [("easy", "medium"), ("hard", "expert"), ("expert", "easy", "medium", "hard")]
)
def test_poker_strengths_play_whole_games_with_legal_moves(strengths):
    state = POKER.new_game(len(strengths), f"strengths-{'-'.join(strengths)}")
    assert POKER.is_over(play_out(POKER, state, strengths))


# ---- no peeking ------------------------------------------------------------------------------


def poker_hidden_shuffled(state: dict, seat: int, rng: random.Random) -> dict:
    """The same table with the cards ``seat`` can't see dealt again: the other hands and the
    deck mixed and dealt back in the same numbers."""
    other = clone(state)
    seats = [s for s in range(state["players"]) if s != seat]
    secret = [c for s in seats for c in state["hands"][s]] + state["deck"]
    rng.shuffle(secret)
    for s in seats:
        count = len(state["hands"][s])
        other["hands"][s], secret = secret[:count], secret[count:]
    other["deck"] = secret
    return other


def blackjack_hidden_shuffled(state: dict, seat: int, rng: random.Random) -> dict:
    """The same table with the shoe and a face-down hole card dealt again."""
    other = clone(state)
    hole = state["dealer"][1:2] if not state["hole_up"] else []
    secret = hole + state["shoe"]
    rng.shuffle(secret)
    if hole:
        other["dealer"][1] = secret.pop()
    other["shoe"] = secret
    return other


def positions(engine, count: int, seed: str, players: int = 2, strength: str = "medium"):
    """States met in play, at a seat about to act."""
    state = engine.new_game(players, seed)
    step = 0
    while not engine.is_over(state) and count:
        seat = engine.to_act(state)[0]
        if step % 2 == 0 or engine is BLACKJACK and state["phase"] == "play":
            count -= 1
            yield state, seat
        engine.apply(state, seat, engine.bot_action(state, seat, strength))
        step += 1


def differs_whatever_is_hidden(engine, shuffle, strength: str, bot=None, players=2) -> int:
    """Over positions in play, the action chosen from a state and from the same state with
    its hidden cards dealt again. Returns how many positions differed."""
    rng = random.Random(7)
    differ = 0
    for state, seat in positions(engine, 24, f"peek-{strength}", players, strength):
        other = shuffle(state, seat, rng)
        assert engine.view(other, seat) == engine.view(state, seat)
        choose = bot or engine.bot_action
        if choose(state, seat, strength) != choose(other, seat, strength):
            differ += 1
    return differ


@pytest.mark.parametrize("strength", STRENGTHS)
def test_no_poker_strength_reads_the_hidden_cards(strength):
    assert differs_whatever_is_hidden(POKER, poker_hidden_shuffled, strength, players=3) == 0


def test_a_poker_bot_that_peeks_is_caught():
    """The check above can fail: a bot handed the state (here: one that folds, or checks,
    whenever an opponent really holds the better hand) chooses differently."""

    def peeking(state, seat, strength):
        action = POKER.bot_action(state, seat, strength)
        if state["phase"] == "draw":
            return action
        mine = evaluator.evaluate_cards(state["hands"][seat])
        others = [
            evaluator.evaluate_cards(state["hands"][s])
            for s in range(state["players"])
            if s != seat and not state["folded"][s] and not state["out"][s]
        ]
        if max(others) > mine:
            legal = POKER.legal_actions(state, seat)
            return next(a for a in legal if a["type"] in ("check", "fold"))
        return action

    assert differs_whatever_is_hidden(POKER, poker_hidden_shuffled, "medium", peeking) > 0


@pytest.mark.parametrize("strength", STRENGTHS)
def test_no_blackjack_strength_reads_the_shoe_or_the_hole_card(strength):
    assert differs_whatever_is_hidden(BLACKJACK, blackjack_hidden_shuffled, strength) == 0


def test_a_blackjack_bot_that_peeks_is_caught():
    """A bot that reads the next card of the shoe (hits when it would not bust) is caught."""

    def peeking(state, seat, strength):
        action = BLACKJACK.bot_action(state, seat, strength)
        if state["phase"] != "play":
            return action
        total, _ = hand_total(state["seats"][seat]["cards"] + state["shoe"][:1])
        return {"type": "hit"} if total <= 21 else {"type": "stand"}

    assert differs_whatever_is_hidden(BLACKJACK, blackjack_hidden_shuffled, "hard", peeking) > 0


def test_blackjack_strengths_play_whole_games_with_legal_moves():
    for players, strengths in ((2, ("easy", "medium")), (4, STRENGTHS)):
        state = BLACKJACK.new_game(players, f"strengths-{players}")
        assert BLACKJACK.is_over(play_out(BLACKJACK, state, strengths, 20000))


def test_cards_left_is_what_nobody_has_seen_and_the_same_for_every_seat():
    state = BLACKJACK.new_game(3, "counting")
    for _ in range(600):
        if BLACKJACK.is_over(state):
            break
        views = [BLACKJACK.view(state, s) for s in (0, 1, 2, None)]
        left = views[0]["cards_left"]
        assert all(v["cards_left"] == left for v in views)
        unseen = state["shoe"] + ([] if state["hole_up"] else state["dealer"][1:2])
        assert sum(left) == len(unseen)
        assert left[9] == sum(card_value(c) == 10 for c in unseen)
        seat = BLACKJACK.to_act(state)[0]
        BLACKJACK.apply(state, seat, BLACKJACK.bot_action(state, seat, "hard"))


def test_hard_bets_more_and_deviates_only_when_the_count_says_so():
    bets = [5, 10, 25, 50]
    assert counting.bet_for(0.5, 100, bets) == 5
    assert counting.bet_for(2.2, 100, bets) == 10
    assert counting.bet_for(3.1, 100, bets) == 25
    assert counting.bet_for(5.0, 400, bets) == 50
    assert counting.bet_for(5.0, 60, bets) == 10  # never more than a quarter of the chips
    assert counting.bet_for(5.0, 12, bets) == 5
    assert counting.play(16, False, 10, False, 0.5) == "stand"
    assert counting.play(16, False, 10, False, -0.5) == "hit"
    assert counting.play(12, False, 4, False, -1.5) == "hit"
    assert counting.play(12, False, 4, False, 1.0) == "stand"
    assert counting.play(10, False, 10, True, 4.5) == "double"
    assert counting.play(10, False, 10, True, 0.0) == "hit"
    full = [8] * 9 + [32]  # a fresh 2-deck shoe counts 0
    assert counting.true_count(full) == 0
    low_gone = [8] + [4] * 5 + [8, 8, 8, 32]  # twenty small cards gone: a rich shoe
    assert counting.true_count(low_gone) > 10


def thirteen_hidden_shuffled(state: dict, seat: int, rng: random.Random) -> dict:
    """The same table with the others' face-down cards and the stock dealt again (the cards
    a seat was seen taking stay in its hand)."""
    other = clone(state)
    seats = [s for s in range(state["players"]) if s != seat]
    down = {s: [c for c in state["hands"][s] if c not in state["took"][s]] for s in seats}
    secret = [c for s in seats for c in down[s]] + state["stock"]
    rng.shuffle(secret)
    for s in seats:
        fresh, secret = secret[: len(down[s])], secret[len(down[s]) :]
        other["hands"][s] = [c if c in state["took"][s] else fresh.pop() for c in state["hands"][s]]
    other["stock"] = secret
    return other


@pytest.mark.parametrize("strength", STRENGTHS)
def test_no_thirteen_strength_reads_the_hidden_cards(strength):
    assert differs_whatever_is_hidden(THIRTEEN, thirteen_hidden_shuffled, strength, players=3) == 0


def test_a_thirteen_bot_that_peeks_is_caught():
    """A bot that takes the discard whenever the stock's top card is no use is caught."""

    def peeking(state, seat, strength):
        action = THIRTEEN.bot_action(state, seat, strength)
        legal = THIRTEEN.legal_actions(state, seat)
        if action["type"] == "draw" and {"type": "draw", "from": "discard"} in legal:
            wild = wild_rank(state["round"])
            top = state["stock"][0] if state["stock"] else None
            if top and melds.BIT[top] % 13 != wild - 1:
                return {"type": "draw", "from": "discard"}
        return action

    assert differs_whatever_is_hidden(THIRTEEN, thirteen_hidden_shuffled, "hard", peeking) > 0


def test_thirteen_strengths_play_whole_games_with_legal_moves():
    for players, strengths in ((2, ("hard", "expert")), (4, ("expert", "easy", "medium", "hard"))):
        state = THIRTEEN.new_game(players, f"strengths-{players}")
        assert THIRTEEN.is_over(play_out(THIRTEEN, state, strengths, 20000))


def plain_stock_expectation(mask: int, pool: list[int], wild: int) -> float:
    """Hard's expectation of the stock as defined: every card drawn, the worst card thrown."""
    if not pool:
        return float(leftover(mask, wild))
    return sum(thirteen_strategy.best_after_draw(mask | b, wild) for b in pool) / len(pool)


def test_hard_thirteen_weighs_a_card_far_from_the_hand_without_a_search(monkeypatch):
    """A card that can join nothing in the hand is left over on top of the hand's leftover:
    no hand holding it is solved, and the expectation is the one defined."""
    wild = wild_rank(13)  # kings
    mask = melds.hand_mask(["AS", "2S", "3S", "7H", "8H", "JD", "KC"])  # one wild
    far = melds.CARD_BIT["5C"]  # no 3C-7C, no other five in the hand
    near = melds.CARD_BIT["9H"]
    expected = plain_stock_expectation(mask, [far, near], wild)
    solved = []

    def counting(hand: int, wild: int) -> int:
        solved.append(hand)
        return leftover(hand, wild)

    monkeypatch.setattr(thirteen_strategy, "leftover", counting)
    assert thirteen_strategy.stock_expectation(mask, [far, near], wild) == expected
    assert not [hand for hand in solved if hand & far]
    assert [hand for hand in solved if hand & near]


def thirteen_decisions(games: int):
    """Hard's discards met in play: (view, legal, hand, pool, wild)."""
    for i in range(games):
        state = THIRTEEN.new_game(2, f"thirteen-bound-{i}", THIRTEEN.quick)
        while not THIRTEEN.is_over(state):
            seat = THIRTEEN.to_act(state)[0]
            legal = THIRTEEN.legal_actions(state, seat)
            view = THIRTEEN.view(state, seat)
            if legal[0]["type"] == "discard" and not any(a["type"] == "go_out" for a in legal):
                wild = wild_rank(state["round"])
                hand = melds.hand_mask(item["card"] for item in view["you"]["hand"])
                yield view, legal, hand, melds.bits(thirteen_strategy.unseen(view)), wild
            THIRTEEN.apply(state, seat, THIRTEEN.bot_action(state, seat, "hard"))


def test_hard_thirteen_weighs_only_the_discards_that_can_be_cheapest(monkeypatch):
    """The cheapest discards with ``keep`` are the full ranking's first, in its order, from
    the same expectation as defined; the discards that can't be among them are not weighed
    against the stock, and the move is the same whatever the seat's rng."""
    weighed = []
    expectation = thirteen_strategy.stock_expectation

    def counting(mask, pool, wild):
        weighed.append(mask)
        return expectation(mask, pool, wild)

    monkeypatch.setattr(thirteen_strategy, "stock_expectation", counting)
    spared = decisions = 0
    for view, legal, hand, pool, wild in thirteen_decisions(3):
        decisions += 1
        full = thirteen_strategy.ranked_discards(view, legal, hand, pool, wild)
        for keep in (1, 4):
            weighed.clear()
            cheapest = thirteen_strategy.ranked_discards(view, legal, hand, pool, wild, keep)
            assert cheapest == full[:keep]
            spared += len(legal) - len(weighed)
        rest = hand & ~melds.CARD_BIT[full[0][1]]
        assert expectation(rest, pool, wild) == plain_stock_expectation(rest, pool, wild)
        moves = {
            thirteen_strategy.hard(view, legal, random.Random(seed))["card"] for seed in range(3)
        }
        assert moves == {full[0][1]}
    assert decisions > 20 and spared > 0


def cardice_hidden_shuffled(state: dict, seat: int, rng: random.Random) -> dict:
    """The same table with the others' hands and the unused stockpile dealt again."""
    other = clone(state)
    seats = [s for s in range(len(state["hands"])) if s != seat]
    secret = [c for s in seats for c in state["hands"][s]] + state["stockpile"]
    rng.shuffle(secret)
    for s in seats:
        count = len(state["hands"][s])
        other["hands"][s], secret = secret[:count], secret[count:]
    other["stockpile"] = secret
    return other


@pytest.mark.parametrize("strength", STRENGTHS)
def test_no_cardice_strength_reads_the_hidden_cards(strength):
    assert differs_whatever_is_hidden(CARDICE, cardice_hidden_shuffled, strength, players=3) == 0


def test_a_cardice_bot_that_peeks_is_caught():
    """A bot that leads (or throws) a suit the next seat really lacks is caught."""

    def peeking(state, seat, strength):
        legal = CARDICE.legal_actions(state, seat)
        if legal[0]["type"] != "play":
            return CARDICE.bot_action(state, seat, strength)
        nxt = state["seats"][(state["seats"].index(seat) + 1) % len(state["seats"])]
        held = {c[-1] for c in state["hands"][nxt] if c != "JK1"}
        lacking = [a for a in legal if a["card"] != "JK1" and a["card"][-1] not in held]
        return (lacking or legal)[0]

    assert differs_whatever_is_hidden(CARDICE, cardice_hidden_shuffled, "medium", peeking, 3) > 0


def test_cardice_expert_bids_by_search_from_the_seats_view_only():
    """Expert's bid is searched (it is not always Medium's), and it is the same bid with the
    other hands and the stockpile dealt again."""
    rng = random.Random(5)
    searched = 0
    for i in range(6):
        state = CARDICE.new_game(3, f"expert-bids-{i}")
        while state["phase"] != "play":
            seat = CARDICE.to_act(state)[0]
            action = CARDICE.bot_action(state, seat, "expert")
            if action["type"] == "bid":
                other = cardice_hidden_shuffled(state, seat, rng)
                assert CARDICE.bot_action(other, seat, "expert") == action
                searched += action != CARDICE.bot_action(state, seat, "medium")
            CARDICE.apply(state, seat, action)
    assert searched


def test_cardice_strengths_play_whole_games_with_legal_moves():
    for players, strengths in ((2, ("hard", "expert")), (4, ("expert", "easy", "medium", "hard"))):
        state = CARDICE.new_game(players, f"strengths-{players}")
        assert CARDICE.is_over(play_out(CARDICE, state, strengths, 20000))


# ---- Easy makes no absurd move -------------------------------------------------------------------


def test_easy_poker_keeps_its_pairs_and_never_folds_for_free():
    for i in range(10):
        state = POKER.new_game(2, f"easy-poker-{i}")
        while not POKER.is_over(state) and state["hand_no"] <= 12:
            seat = POKER.to_act(state)[0]
            legal = POKER.legal_actions(state, seat)
            action = POKER.bot_action(state, seat, "easy" if seat == 0 else "medium")
            hand = state["hands"][seat]
            category, _ = evaluator.decode(evaluator.evaluate_cards(hand))
            if seat == 0 and action["type"] == "draw":
                ranks = [c[:-1] for c in hand if not c.startswith("JK")]
                paired = [c for c in hand if not c.startswith("JK") and ranks.count(c[:-1]) > 1]
                jokers = [c for c in hand if c.startswith("JK")]
                assert set(paired + jokers) <= set(action["hold"]), (hand, action)
                if category >= evaluator.STRAIGHT:
                    assert action["hold"] == hand  # a made hand stands pat
            elif seat == 0:
                if {"type": "check"} in legal:
                    assert action["type"] != "fold", (hand, action)
                if category >= evaluator.TWO_PAIR:
                    assert action["type"] != "fold", (hand, action)
                if category == evaluator.ONE_PAIR and state["round"]["raises"] <= 1:
                    assert action["type"] != "fold", (hand, action)
                if category == evaluator.HIGH_CARD and state["phase"] == "bet2":
                    assert action["type"] != "raise", (hand, action)
            POKER.apply(state, seat, action)


def test_easy_blackjack_stands_on_15_hits_below_and_doubles_only_10_or_11():
    seen = set()
    for i in range(6):
        state = BLACKJACK.new_game(2, f"easy-blackjack-{i}")
        while not BLACKJACK.is_over(state):
            for seat in BLACKJACK.to_act(state):
                if seat not in BLACKJACK.to_act(state):
                    continue
                action = BLACKJACK.bot_action(state, seat, "easy")
                view = BLACKJACK.view(state, seat)
                if state["phase"] == "play":
                    me = view["seats"][seat]
                    up = counting.upcard(view)
                    if action["type"] == "double":
                        assert not me["soft"] and me["total"] in (10, 11) and 2 <= up <= 9
                    elif me["total"] >= 15:
                        assert action["type"] == "stand", (me, action)
                    else:
                        assert action["type"] == "hit", (me, action)
                    seen.add(action["type"])
                elif action["type"] == "bet":
                    assert action["amount"] <= 10
                BLACKJACK.apply(state, seat, action)
    assert seen == {"hit", "stand", "double"}


def test_expert_blackjack_plays_by_the_cards_left():
    """Sixteen against a ten: with the small cards gone Expert stands, with only small cards
    left it hits; it doubles eleven against a six from a full shoe."""
    view = BLACKJACK.view(BLACKJACK.new_game(1, "expert"), 0)
    view["phase"] = "play"
    view["dealer"]["cards"] = ["KS", "??"]
    view["seats"][0].update(cards=["10H", "6D"], total=16, soft=False)
    legal = [{"type": "hit"}, {"type": "stand"}]
    view["cards_left"] = [0, 0, 0, 0, 0, 10, 0, 0, 0, 20]  # sixes and tens: the dealer busts
    assert blackjack_bot(view, legal, random.Random(1), "expert") == {"type": "stand"}
    view["cards_left"] = [4, 8, 8, 8, 8, 2, 1, 1, 1, 2]
    assert blackjack_bot(view, legal, random.Random(1), "expert") == {"type": "hit"}
    view["dealer"]["cards"] = ["6S", "??"]
    view["seats"][0].update(cards=["5H", "6D"], total=11, soft=False)
    view["cards_left"] = [8, 8, 8, 8, 7, 7, 8, 8, 8, 32]
    legal.append({"type": "double"})
    assert blackjack_bot(view, legal, random.Random(1), "expert") == {"type": "double"}


def test_easy_thirteen_goes_out_and_keeps_its_combinations_and_wild_cards():
    for i in range(3):
        state = THIRTEEN.new_game(2, f"easy-thirteen-{i}")
        while not THIRTEEN.is_over(state) and state["round"] <= 6:
            seat = THIRTEEN.to_act(state)[0]
            legal = THIRTEEN.legal_actions(state, seat)
            action = THIRTEEN.bot_action(state, seat, "easy")
            if state["step"] == "discard":
                if any(a["type"] == "go_out" for a in legal):
                    assert action["type"] == "go_out"
                else:
                    wild = wild_rank(state["round"])
                    hand = state["hands"][seat]
                    arrangement = melds.arrange(hand, wild)
                    loose = [
                        c
                        for c in arrangement.deadwood
                        if c != state["taken"] and melds.BIT[c] % 13 != wild - 1
                    ]
                    if loose:  # a plain card left over: it throws one of those
                        assert action["card"] in loose, (hand, action)
            THIRTEEN.apply(state, seat, action)


def test_easy_cardice_bids_its_honours_and_plays_high_only_while_short():
    for i in range(3):
        state = CARDICE.new_game(3, f"easy-cardice-{i}")
        while not CARDICE.is_over(state) and state["round"] <= 3:
            seat = CARDICE.to_act(state)[0]
            legal = CARDICE.legal_actions(state, seat)
            action = CARDICE.bot_action(state, seat, "easy")
            view = CARDICE.view(state, seat)
            hand = state["hands"][seat]
            if action["type"] == "bid":
                honours = sum(1 for c in hand if c == "JK1" or c[:-1] in ("A", "K"))
                assert action["n"] == min(max(honours, 1), state["hand_size"])
            elif action["type"] == "play" and len(legal) > 1:
                side = next(c for c in view["contracts"] if seat in c["seats"])
                plain = [a["card"] for a in legal if a["card"] != "JK1"]
                if side["won"] >= side["bid"] and plain:  # made (or nil): never the joker
                    assert action["card"] != "JK1"
            CARDICE.apply(state, seat, action)


def test_poker_views_remember_showdowns_and_own_discards():
    state = POKER.new_game(2, "reads")
    for _ in range(400):
        if POKER.is_over(state):
            break
        seat = POKER.to_act(state)[0]
        action = POKER.bot_action(state, seat, "medium")
        POKER.apply(state, seat, action)
        if action["type"] == "draw" and state["phase"] != "over":
            thrown = POKER.view(state, seat)["you"]["discarded"]
            assert len(thrown) == 5 - len(action["hold"])
            assert POKER.view(state, 1 - seat)["you"]["discarded"] != thrown or not thrown
            assert "discarded" not in POKER.view(state, None).get("you", {})
    shows = POKER.view(state, None)["showdowns"]
    assert len(shows) == 2 and all(r["bluffed"] <= r["raised"] for r in shows)
    assert sum(r["raised"] for r in shows) > 0


def _expert_to_draw_with_junk_after_a_big_draw() -> dict:
    """A two-seat hand where seat 0 is to draw with a junk hand (under ``SNOW_JUNK``) and
    seat 1 has drawn ``SNOW_DREW`` cards or more; both seats play as Medium up to there."""
    for i in range(400):
        state = POKER.new_game(2, f"snow-{i}")
        while state["phase"] in ("bet1", "draw") and state["hand_no"] == 1:
            seat = POKER.to_act(state)[0]
            value = evaluator.evaluate_cards(state["hands"][0])
            junk = holds.percentile(value) < poker_search.SNOW_JUNK
            big_draw = (state["drawn"][1] or 0) >= poker_search.SNOW_DREW
            if seat == 0 and state["phase"] == "draw" and junk and big_draw:
                return state
            POKER.apply(state, seat, POKER.bot_action(state, seat, "medium"))
    raise AssertionError("no such hand in 400 deals")


def test_expert_poker_snows_junk_heads_up_after_a_big_draw_until_caught_twice():
    rng = random.Random(1)
    state = _expert_to_draw_with_junk_after_a_big_draw()
    hand = list(state["hands"][0])
    # Caught bluffing twice this game: it draws to the hand like any other.
    caught = copy.deepcopy(state)
    caught["showdowns"] = [{"raised": 2, "bluffed": 2}, {"raised": 0, "bluffed": 0}]
    action = poker_search.expert(POKER.view(caught, 0), POKER.legal_actions(caught, 0), rng)
    assert action["type"] == "draw" and len(action["hold"]) < 5
    # Otherwise it stands pat on the junk ...
    action = poker_search.expert(POKER.view(state, 0), POKER.legal_actions(state, 0), rng)
    assert action == {"type": "draw", "hold": hand}
    POKER.apply(state, 0, action)
    # ... and after the draw bets it when nothing was raised, and gives up to a raise.
    acted = 0
    while state["phase"] == "bet2":
        seat = POKER.to_act(state)[0]
        if seat == 0:
            acted += 1
            legal = POKER.legal_actions(state, 0)
            action = poker_search.expert(POKER.view(state, 0), legal, rng)
            if state["round"]["raises"] == 0 and {"type": "raise"} in legal:
                assert action["type"] == "raise"
            else:
                assert action["type"] in ("check", "fold")
        else:
            action = POKER.bot_action(state, 1, "medium")
        POKER.apply(state, seat, action)
    assert acted


def test_expert_poker_never_snows_at_a_table_of_three():
    tempting = 0  # junk to draw to after a big draw: heads-up, a snow
    for i in range(30):
        state = POKER.new_game(3, f"no-snow-{i}")
        while state["hand_no"] == 1 and not POKER.is_over(state):
            seat = POKER.to_act(state)[0]
            view = POKER.view(state, seat)
            if sum(view["in_hand"]) > 2 and state["phase"] == "draw":
                hand = view["hands"][seat]
                drew = [d or 0 for s, d in enumerate(view["drawn"]) if s != seat]
                value = evaluator.evaluate_cards(hand)
                if (
                    holds.percentile(value) < poker_search.SNOW_JUNK
                    and max(drew) >= poker_search.SNOW_DREW
                ):
                    tempting += 1
                assert not poker_search.snow(poker_strategy.Reads(view))
            POKER.apply(state, seat, POKER.bot_action(state, seat, "medium"))
    assert tempting
