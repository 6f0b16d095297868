"""The Gin Rummy and Thirteen tables tell every way a hand ends (knock, undercut, gin, a drawn
hand, a round whose stock ran out) from the view alone, for a player and for a watcher.
Rendered from stacked engine states; the browser tests play the common paths."""

import re
from types import SimpleNamespace

import pytest
from django.template.loader import get_template

from gameplay.engine import registry
from tests.engine import test_gin as gin_cases
from tests.engine import test_thirteen as thirteen_cases

GIN = registry.get("gin")
THIRTEEN = registry.get("thirteen")


def render(engine, state, seat, names=("Ann", "Cubot", "Pixel")) -> str:
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat) if seat is not None else []
    to_act = engine.to_act(state)
    seats = [
        {
            "index": i,
            "name": names[i],
            "bot": i > 0,
            "was_person": False,
            "you": i == seat,
            "to_act": i in to_act,
            "last_action": "",
        }
        for i in range(len(state["hands"]))
    ]
    context = {
        "view": view,
        "legal": legal,
        "legal_types": sorted({a["type"] for a in legal}),
        "seats": seats,
        "seat": seat,
        "seq": 5,
        "over": engine.is_over(state),
        "game": SimpleNamespace(pk=1, kind=engine.kind),
    }
    return get_template(f"tables/{engine.kind}.html").render(context)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" .", ".").strip()


def summary(html: str) -> str:
    return text(re.search(r"<summary>(.*?)</summary>", html, re.S).group(1))


def test_gin_tells_a_knock_an_undercut_a_gin_and_a_draw():
    table = gin_cases.table
    state = table([gin_cases.KNOCKER_11, gin_cases.DEFENDER_5])
    GIN.apply(state, 0, {"type": "knock", "card": "KS"})
    html = render(GIN, state, 0)
    assert summary(html) == "Hand 1: you knocked — you score 24."
    assert 'class="rm-group laid"' in html  # the other hand laid off on your melds

    knocker = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "8C", "KS"]
    defender = ["JC", "QC", "KC", "5S", "5D", "5C", "9H", "10H", "JH", "6C"]
    state = table([knocker, defender])
    GIN.apply(state, 0, {"type": "knock", "card": "KS"})
    assert summary(render(GIN, state, 1)) == "Hand 1: Ann knocked, you undercut — you score 27."

    defender = ["5C", "5D", "5H", "9S", "9D", "9C", "2H", "3H", "KD", "8C"]
    state = table([gin_cases.GIN_HAND + ["10D"], defender])
    GIN.apply(state, 0, {"type": "knock", "card": "10D"})
    html = render(GIN, state, None)
    assert summary(html) == "Hand 1: Ann went gin — Ann scores 48."
    assert 'class="rm-group laid"' not in html  # no lay-offs on a gin

    hand = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "2C", "AD", "KC"]
    rest = [c for c in gin_cases.DECK if c not in hand + gin_cases.DEFENDER_5]
    state = table([hand, gin_cases.DEFENDER_5], step="draw", discard=rest[3:], stock=rest[:3])
    GIN.apply(state, 0, {"type": "draw", "from": "stock"})
    GIN.apply(state, 0, {"type": "discard", "card": "KC"})
    html = render(GIN, state, 1)
    assert summary(html).startswith("Hand 1: a draw: the stock ran down to 2")
    assert "1 drawn" in text(html) and "No hand scored yet." in text(html)


def test_gin_a_watcher_gets_no_hand_and_no_buttons():
    state = GIN.new_game(2, "watch")
    html = render(GIN, state, None)
    assert "data-hand" not in html and "data-bar" not in html and "data-throw" not in html
    assert html.count('class="rm-seat') == 2
    assert "Your turn" not in html


def test_thirteen_tells_a_round_whose_stock_ran_out():
    hands = [thirteen_cases.OTHER, ["2S", "3S", "4S", "5S", "6S", "KD", "QC"]]
    rest = [c for c in thirteen_cases.DECK if c not in sum(hands, [])]
    state = thirteen_cases.table(hands, round_no=4, step="draw", discard=rest, stock=[])
    state["rebuilds"] = 2
    THIRTEEN.apply(state, 0, {"type": "draw", "from": "stock"})
    html = render(THIRTEEN, state, 1)
    assert summary(html) == "Round 4 (4 wild): the stock ran out; everyone scores what they hold."
    assert "Wild 5" in text(html)
    last = state["last_round"]
    assert f"+{last['points'][1]}" in text(html)


@pytest.mark.parametrize(("engine", "players"), [(GIN, 2), (THIRTEEN, 3)])
def test_a_finished_game_shows_its_last_hand_and_the_whole_sheet(engine, players):
    state = engine.new_game(players, "to-the-end")
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat))
    for seat in (0, None):
        html = render(engine, state, seat)
        assert "data-bar" not in html and "data-hint" not in html
        assert re.search(r"<details class=\"rm-last\" data-last-hand\s+open>", html)
        body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
        assert body.count("<tr") == len(state["sheet"])
        totals = re.search(r"<tfoot>(.*?)</tfoot>", html, re.S).group(1)
        assert [int(n) for n in re.findall(r"<th>(\d+)</th>", totals)] == engine.result(state)[
            "scores"
        ]
