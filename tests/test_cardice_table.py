"""The Cardice table drawn from the engine's view at each step of a hand: the roll, both rounds
of bidding, a trick, the score sheet (one column per seat, or per team), a decider with a seat
sitting out, and a spectator who sees no hand."""

import html
import json
import re
from types import SimpleNamespace

from django.template.loader import get_template

from tests.engine.test_cardice import (
    ENGINE,
    PARTNERS,
    bid_all,
    game,
    last_trick,
    play,
    playing,
    roll,
    stack,
    to_decider,
)

NAMES = ["Ann", "Cubot", "Pixel", "Gizmo", "Bolt", "Sprocket"]


def draw(state: dict, seat: int | None) -> str:
    """The table for ``seat`` as the room page draws it (the context lobby.tables builds)."""
    legal = ENGINE.legal_actions(state, seat) if seat is not None else []
    to_act = ENGINE.to_act(state)
    seats = [
        {"index": i, "name": NAMES[i], "bot": i > 0, "you": i == seat, "to_act": i in to_act}
        for i in range(state["players"])
    ]
    context = {
        "view": ENGINE.view(state, seat),
        "legal": legal,
        "legal_types": sorted({a["type"] for a in legal}),
        "seats": seats,
        "seat": seat,
        "seq": 5,
        "over": ENGINE.is_over(state),
        "game": SimpleNamespace(pk=1),
        "engine": ENGINE,
    }
    return html.unescape(get_template("tables/cardice.html").render(context))


def sent(page: str) -> list[dict]:
    """The actions the page's buttons send."""
    return [json.loads(m)["action"] for m in re.findall(r"hx-vals='([^']+)'", page)]


def test_the_roller_rolls_and_the_others_wait():
    state = game(4, dealer=1)
    page = draw(state, 0)
    assert 'aria-label="The die is not rolled yet"' in page
    assert sent(page) == [{"type": "roll"}] and "Roll the die" in page
    assert "Your roll: the die picks trump." in page
    other = draw(state, 2)
    assert sent(other) == [] and "Waiting for Ann to roll the die" in other


def test_two_rounds_of_bidding():
    state = game(4, dealer=3)  # seat 0 bids first
    roll(state, "B")
    page = draw(state, 0)
    assert 'aria-label="The die shows Bells: trump"' in page and "Trump:" in page
    assert sent(page) == [{"type": "bid", "n": n} for n in range(13)]
    assert 'data-hotkey="9"' in page and 'data-hotkey="10"' not in page
    hand = ENGINE.view(state, 0)["you"]["hand"]
    marked = re.findall(r'class="cd-card( trump)?">\s*<img[^>]+src="/cards/(\w+)\.svg', page)
    assert [(c, bool(t)) for t, c in marked] == [(h["card"], h["trump"]) for h in hand]
    for _ in range(4):
        ENGINE.apply(state, ENGINE.to_act(state)[0], {"type": "bid", "n": 2})
    page = draw(state, 0)
    assert "Your bid, round 2 of 2:\n            keep 2 or change it." in page
    assert re.search(r'class="button cd-bid first"[^>]*>2</button>', page)
    # Each seat's round-1 bid, read as words: "Bid 2 first round · took 0".
    assert page.count('Bid <b data-bid>2</b> <small class="cd-dim">first round</small>') == 4


def test_a_trick_by_seat_with_the_playable_cards():
    state = playing(4, dealer=0, trump="H")
    stack(state, {1: ["2S", "9C"], 2: ["5H", "3D"], 3: ["KS", "4D"], 0: ["JK1", "AS", "7S"]})
    play(state, "2S", "5H")  # Hearts trump: seat 2 is winning
    page = draw(state, 3)
    assert sent(page) == [{"type": "play", "card": "KS"}]  # follow suit
    assert re.search(r'class="cd-card unplayable">\s*<img[^>]+/cards/4D\.svg', page)
    assert re.search(r'class="cd-card trump winning">\s*<img[^>]+/cards/5H\.svg', page)
    assert re.search(r'class="cd-card">\s*<img[^>]+/cards/2S\.svg', page)
    assert '<span class="cd-tag lead">led</span>' in page
    assert '<span class="cd-tag win">winning</span>' in page
    assert "Trick 1 of 12" in page
    page = draw(state, 0)
    assert sent(page) == [] and "Waiting for Gizmo" in page
    assert "/cards/KS.svg" not in page and "/cards/4D.svg" not in page  # Gizmo's hand
    play(state, "KS", "7S")
    page = draw(state, 2)  # seat 2 took it and leads: the trick just taken stays in view
    assert "You took trick 1." in page and "Your lead." in page
    assert "Last trick: you took trick 1" in page
    assert re.search(r'class="cd-card was trump winning"', page)


def test_the_score_sheet_after_a_hand():
    state = game(4, dealer=0)
    roll(state, "X")
    bid_all(state, {0: 1, 1: 5, 2: 4, 3: 0}, {0: 1, 1: 4, 2: 4, 3: 0})
    last_trick(state, [5, 3, 3, 0], {1: ["2S"], 2: ["3S"], 3: ["4S"], 0: ["AS"]})
    play(state, "2S", "3S", "4S", "AS")
    page = draw(state, 0)
    assert "Round 1:\n        you bid 1, took 6:\n        <b>+1</b> (made)" in page
    assert "Score sheet · after round 1" in page
    found = re.findall(r'<span class="cd-pts (\w+)">([^<]+)</span>\s*<small>(.*?)</small>', page)
    cells = [(made, pts, re.sub(r"<[^>]+>", "", words)) for made, pts, words in found]
    assert cells == [
        ("made", "+1", "bid 1 · took 6"),
        ("broken", "-1", "bid 4 · took 3"),
        ("broken", "-1", "bid 4 · took 3"),
        ("made", "+5", "bid 0 · took 0"),
    ]


def test_teams_bid_and_score_together():
    state = playing(4, dealer=0, trump="S", rules=PARTNERS)
    page = draw(state, 0)
    teams = re.findall(
        r'class="cd-team (t\d)" title="Team \d">T\d</span>\s*took <b>0</b> of 2 bid', page
    )
    assert sorted(teams) == ["t1", "t1", "t2", "t2"]
    state = game(4, dealer=0, rules=PARTNERS)
    roll(state, "X")
    bid_all(state, {0: 1, 1: 5, 2: 4, 3: 0})
    last_trick(state, [5, 3, 3, 0], {1: ["2S"], 2: ["3S"], 3: ["4S"], 0: ["AS"]})
    play(state, "2S", "3S", "4S", "AS")
    page = draw(state, 0)
    assert "Ann (you) & Pixel" in page and "Cubot & Gizmo" in page
    assert "your team bid 5, took 9" in page
    cells = re.findall(r'<span class="cd-pts (\w+)">([^<]+)</span>', page)
    assert cells == [("made", "+5"), ("broken", "-2")]


def test_a_decider_and_a_spectator():
    state, _ = to_decider()
    page = draw(state, 2)
    assert "Decider 1" in page and "Sitting out this decider" in page
    assert "joker may lead" in page and sent(page) == []
    spectator = draw(state, None)
    assert spectator.count('<li class="cd-seat') == 3 and "cd-you" not in spectator
    hands = set(state["hands"][0] + state["hands"][1])
    assert not {c for c in re.findall(r"/cards/(\w+)\.svg", spectator)} & hands


def test_the_end_of_the_game_opens_the_sheet():
    state, _ = to_decider()
    roll(state, "H")
    bid_all(state, {1: 3, 0: 2})
    last_trick(state, [9, 2, 0], {1: ["2C"], 0: ["AC"]})
    play(state, "2C", "AC")
    assert ENGINE.is_over(state)
    page = draw(state, 0)
    assert "The game is over." in page and sent(page) == [] and "cd-controls" not in page
    assert '<details class="cd-sheet" data-keep="sheet" open>' in page
    assert re.search(r"<th scope=\"row\">D1", page)  # the decider's line
