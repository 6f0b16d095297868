"""Thirteen in the browser, on a phone, against two computer players: the wild rank, your best
arrangement, draw, stage a discard on the pile and press Turn done, take the discard, go out,
and the round's reveal and the score sheet."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from gameplay.engine import registry
from lobby import services

from .phone import box
from .test_gin import PHONE, acted, assert_hidden, bar_in_view, hand, room_of, seq, state_of, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"
ENGINE = registry.get("thirteen")
# Three seats, seat 0 first. It draws from the stock and throws what it drew; both computer
# players draw and throw, the second the J♠; seat 0 takes the J♠ and goes out throwing the 3♣.
SEED = "thirteen-ui-1519"


def test_a_round_against_two_computer_players_on_a_phone(
    browser: Browser, daphne_server, celery_worker_process
):
    page = browser.new_context(**PHONE).new_page()
    page.goto(daphne_server + "/play/thirteen/")
    page.select_option("select[name=seats]", "3")
    page.get_by_role("button", name="Play").click()
    page.wait_for_url("**/rooms/*/")
    room = room_of(page)
    services.back_to_lobby(room=room, player=room.host)
    game = services.start_game(room=room, player=room.host, kind="thirteen", seats=3, seed=SEED)
    page.wait_for_selector(f"section.rm[data-game='{game.pk}'][data-rm-ready]", state="attached")
    section = page.locator("section.rm")
    view = ENGINE.view(state_of(page), 0)

    # Round 1: aces are wild, shown big; my seven cards arranged with the wild ones marked;
    # two other hands of seven face down; who goes first.
    expect(page.locator("[data-wild]")).to_have_text(re.compile(r"Wild\s+A"))
    expect(page.locator(".rm-seat")).to_have_count(2)
    expect(page.locator(".rm-seat .rm-fan img.card")).to_have_count(14)
    expect(page.locator("[data-hand] > li")).to_have_count(7)
    wilds = [i["card"] for i in view["you"]["hand"] if i["wild"]]
    expect(page.locator("[data-hand] > li.wild")).to_have_count(len(wilds))
    melded = sum(len(m["positions"]) for m in view["you"]["melds"])
    expect(page.locator("[data-hand] > li.in-meld")).to_have_count(melded)
    expect(page.locator("[data-loose]")).to_have_text(str(view["you"]["leftover"]))
    expect(page.locator(".rm-pick-line")).to_contain_text("→ you")
    bar_in_view(page)
    assert_hidden(page, 0)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    SCREENS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENS / "thirteen-phone-start.png"))

    # The keyboard arranges too: Enter picks a card, the arrow keys move it.
    order = hand(page)
    page.locator(f"[data-hand] > li[data-card='{order[0]}'] .rm-pick").focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"[data-hand] > li[data-card='{order[0]}']")).to_have_class(
        re.compile(r"\bpicked\b")
    )
    page.keyboard.press("ArrowRight")
    assert hand(page) == [order[1], order[0], *order[2:]]

    # Draw from the stock (the bar's button), drag the new card onto the discard pile: it waits
    # there until Turn done.
    tap(page, page.get_by_role("button", name="Draw from stock"))
    expect(section).to_have_attribute("data-step", "discard")
    drawn = state_of(page)["hands"][0][-1]
    new = page.locator(f"[data-hand] > li[data-card='{drawn}']")
    done = page.get_by_role("button", name="Turn done")
    expect(done).to_be_disabled()
    start = box(new)
    pile = box(page.locator(".rm-discard"))
    page.mouse.move(start["x"] + 10, start["y"] + 20)
    page.mouse.down()
    page.mouse.move(start["x"], start["y"], steps=3)
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
    page.mouse.up()
    label = new.get_attribute("data-label")
    expect(page.locator("[data-staged]")).to_have_text(label)
    expect(done).to_be_enabled()
    assert state_of(page)["discard"][-1] != drawn  # not thrown yet
    tap(page, done)
    assert state_of(page)["discard"][-1] == drawn

    # Both computer players play; then it's my turn again.
    page.wait_for_selector("section.rm[data-step='draw']", state="attached")
    state = state_of(page)
    names = page.locator(".rm-seat .seat-name").all_inner_texts()
    assert [t["seat"] for t in state["turns"]] == [0, 1, 2]
    assert state["discard"][-1] == "JS"
    expect(page.locator("[data-say]")).to_contain_text(f"{names[1]} ")
    expect(page.locator("[data-say]")).to_contain_text("threw the J♠.")
    bar_in_view(page)
    assert_hidden(page, 0)

    # Take the J♠ by tapping the pile; the 3♣ now goes out.
    tap(page, page.locator(".rm-discard"))
    expect(page.locator("[data-hand] > li[data-card='JS']")).to_have_class(re.compile(r"\bkeep\b"))
    three = page.locator("[data-hand] > li[data-card='3C']")
    expect(three.locator(".rm-tag")).to_have_text("Out")
    expect(page.locator("[data-loose]")).to_have_text(
        str(ENGINE.view(state_of(page), 0)["you"]["leftover"])
    )
    # Hint: the advice is told, and its card picked for me.
    page.get_by_role("button", name="Hint").tap()
    expect(page.locator("#table-hint")).to_have_text("Go out: discard the 3♣.")
    expect(three).to_have_class(re.compile(r"\bpicked\b"))
    three.tap()  # put down, and picked again by hand
    expect(three).not_to_have_class(re.compile(r"\bpicked\b"))
    three.tap()
    go_out = page.get_by_role("button", name="Go out")
    expect(go_out).to_be_visible()
    expect(page.locator("[data-pick-say]")).to_have_text("Throwing the 3♣ leaves 0 left over.")
    bar_in_view(page)
    page.screenshot(path=str(SCREENS / "thirteen-phone-go-out.png"))
    before = seq(page)
    go_out.tap()
    acted(page, before)

    # Round 2: twos are wild. The reveal shows round 1's hands and points; the sheet has it.
    expect(page.locator("[data-wild]")).to_have_text(re.compile(r"Wild\s+2"))
    last = state_of(page)["last_round"]
    assert last["out"] == 0 and last["round"] == 1
    reveal = page.locator("[data-last-hand]")
    expect(reveal).to_have_attribute("open", "")
    expect(reveal.locator("summary")).to_contain_text("Round 1 (A wild): you went out")
    for s in range(3):
        shown = reveal.locator(f"[data-shown-seat='{s}']")
        expect(shown).to_contain_text(f"+{last['points'][s]}")
        expect(shown.locator(".rm-group.meld")).to_have_count(len(last["hands"][s]["melds"]))
    row = page.locator("[data-sheet] tbody tr").first
    expect(row.locator("td")).to_have_text(
        ["1", "A", re.compile("out"), *(re.compile(f"^{p}") for p in last["points"][1:])]
    )
    expect(page.locator("[data-sheet] tfoot th")).to_have_text(
        ["Total", *(str(t) for t in last["totals"])]
    )
    assert_hidden(page, 0)
    page.screenshot(path=str(SCREENS / "thirteen-phone-round-end.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(SCREENS / "thirteen-desktop-round-end.png"), full_page=True)
