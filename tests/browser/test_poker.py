"""The Poker table in a browser: check/call, HOLD toggles, Suggest holds, the draw, the
result of the hand; the other seat's cards never reach the page before the showdown."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from gameplay import store
from lobby.models import Room

from .phone import box

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FACE_DOWN = "Face-down card"


def _state(page: Page) -> dict:
    """The true game state behind the page (the test reads the log; the page never may)."""
    code = re.search(r"/rooms/([A-Z]{5})/", page.url).group(1)
    return store.replay(Room.objects.get(code=code).game)


def _assert_others_hidden(page: Page) -> None:
    """Every card in the other seats' areas is face down, and no image of a card another seat
    holds now is anywhere in those areas (nor, before the first showdown, on the page)."""
    alts = page.locator("[data-seat] img.card").evaluate_all("els => els.map(e => e.alt)")
    assert alts and set(alts) == {FACE_DOWN}, alts
    state = _state(page)
    me = int(page.locator(".pk").get_attribute("data-you-seat"))
    seats_html = page.locator(".pk-seats").inner_html()
    whole = page.content()
    for s, hand in enumerate(state["hands"]):
        if s == me:
            continue
        for card in hand:
            assert f"/cards/{card}.svg" not in seats_html
            if state["last_hand"] is None:
                assert f"/cards/{card}.svg" not in whole


def _click(page: Page, locator) -> None:
    """Click a button that sends an action and wait until the table shows a newer state."""
    seq = page.locator("#room-main").get_attribute("data-seq")
    locator.click()
    page.wait_for_function(
        "seq => document.getElementById('room-main').dataset.seq !== seq", arg=seq
    )


def _check_or_call(page: Page) -> None:
    button = page.locator(".pk-row button[ws-send]").filter(has_text=re.compile("^(Check|Call)"))
    _click(page, button.first)


def _wait_for_me(page: Page) -> str:
    """Wait until I may act (bet or draw); returns the phase. The socket's first view comes
    first: it replaces the page's table, controls and all."""
    page.wait_for_selector("#room[data-live]", state="attached")
    page.wait_for_selector(".pk-row button[ws-send], #draw:not([disabled])")
    return page.locator(".pk").get_attribute("data-phase")


def test_solo_poker_bet_hold_draw(page: Page, daphne_server, celery_worker_process, tmp_path):
    page.set_viewport_size({"width": 1280, "height": 850})
    page.goto(daphne_server + "/")
    page.locator("[data-kind=poker] [data-length=classic]").click()  # 100 chips each
    expect(page.locator(".pk")).to_be_visible()

    # The table: one computer player with five face-down cards, the pot of two antes, my hand.
    other = page.locator(".pk-seat")
    expect(other).to_have_count(1)
    expect(other.locator(".bot-tag")).to_have_text(
        "CPU · Medium"
    )  # the strength the host left as it was
    # Two antes, and the computer's opening bet when it is first to act and bets at once.
    expect(page.locator("[data-pot]")).to_have_text(re.compile(r"^\s*\d+\s*$"))
    assert int(page.locator("[data-pot]").inner_text()) >= 4
    expect(page.locator("[data-myhand] img.card")).to_have_count(5)
    expect(page.locator("[data-hand-name]")).not_to_be_empty()
    expect(page.locator(".pk-button")).to_have_count(1)  # the dealer button
    _assert_others_hidden(page)

    # Bet 1: check or call until the draw (a fold by the computer starts a new hand).
    for _ in range(12):
        phase = _wait_for_me(page)
        _assert_others_hidden(page)
        if phase == "draw":
            break
        labels = page.locator(".pk-row button[ws-send]").all_inner_texts()
        assert any(re.match(r"(Check|Call \d+)$", t) for t in labels), labels
        # Fold only when there is something to call: checking is free otherwise.
        assert ("Fold" in labels) == any(t.startswith("Call") for t in labels), labels
        _check_or_call(page)
    else:
        pytest.fail("The draw never came.")

    # The draw: HOLD toggles on the client, then one draw action.
    holds = page.locator(".pk-hold")
    draw = page.locator("#draw")
    expect(holds).to_have_count(5)
    expect(draw).to_have_text("Draw 5")
    holds.nth(0).click()
    expect(holds.nth(0)).to_have_attribute("aria-pressed", "true")
    expect(draw).to_have_text("Draw 4")
    page.locator("[data-myhand] .pk-card").nth(1).click()  # tapping the card works too
    expect(holds.nth(1)).to_have_attribute("aria-pressed", "true")
    expect(draw).to_have_text("Draw 3")
    holds.nth(0).click()
    expect(holds.nth(0)).to_have_attribute("aria-pressed", "false")
    expect(draw).to_have_text("Draw 4")

    # Suggest holds sets the toggles to the view's suggestion and tells its strength.
    suggest = page.locator("[data-suggest]")
    positions = json.loads(suggest.get_attribute("data-suggest"))
    suggest.click()
    for i in range(5):
        expect(holds.nth(i)).to_have_attribute(
            "aria-pressed", "true" if i in positions else "false"
        )
    expect(draw).to_have_text("Stand pat" if len(positions) == 5 else f"Draw {5 - len(positions)}")
    expect(page.locator("[data-advice]")).to_contain_text("Suggested")
    # Its strength is the chance of beating three random hands: not said against one.
    expect(page.locator("[data-advice]")).not_to_contain_text("three random hands")
    page.screenshot(path="/tmp/test-poker-desktop-draw.png")

    cards = page.locator("[data-myhand] li").evaluate_all("els => els.map(e => e.dataset.card)")
    kept = [c for i, c in enumerate(cards) if i in positions]
    hand_no = page.locator(".pk").get_attribute("data-hand")
    _click(page, draw)
    expect(page.locator(".pk-hold")).to_have_count(0)
    if page.locator(".pk").get_attribute("data-hand") == hand_no:
        after = page.locator("[data-myhand] li").evaluate_all("els => els.map(e => e.dataset.card)")
        discarded = set(cards) - set(kept)
        assert set(kept) <= set(after) and len(after) == 5 and not discarded & set(after)

    # Bet 2: check or call until the hand is over; its result stays on the table.
    for _ in range(12):
        if page.locator(".pk").get_attribute("data-hand") != hand_no:
            break
        _wait_for_me(page)
        if page.locator(".pk").get_attribute("data-hand") != hand_no:
            break
        _assert_others_hidden(page)
        _check_or_call(page)
    result = page.locator("[data-last-hand]")
    expect(result).to_contain_text(f"Hand {hand_no}:")
    expect(result).to_contain_text(re.compile(r"wins? the pot of \d+|split the pot"))
    state = _state(page)
    last = state["last_hand"]
    if not last["by_fold"]:
        # The showdown opens over the table: every hand still in face up at full size, the
        # winning hand named, until Next hand (or a few seconds).
        panel = page.locator(".pk-showdown.open")
        expect(panel).to_be_visible()
        expect(panel.locator(".pk-shown li")).to_have_count(sum(1 for h in last["shown"] if h))
        expect(panel.locator(".win")).to_contain_text(last["description"])
        assert box(panel.locator("img.card").first)["width"] >= 60
        page.screenshot(path="/tmp/test-poker-desktop-showdown.png")
        panel.get_by_role("button", name="Next hand").click()
        expect(page.locator(".pk-showdown.open")).to_have_count(0)
        expect(result).to_contain_text(last["description"])
    _assert_others_hidden(page)
    page.screenshot(path="/tmp/test-poker-desktop-result.png")


def test_poker_on_a_phone(page: Page, daphne_server, celery_worker_process, tmp_path):
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(daphne_server + "/play/poker/")
    page.select_option("select[name=seats]", "4")
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".pk-seat")).to_have_count(3)
    phase = _wait_for_me(page)
    _assert_others_hidden(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # The buttons stay in reach at the bottom of the screen.
    controls = box(page.locator(".pk-controls"))
    assert controls["y"] + controls["height"] <= 740 + 1
    if phase != "draw":
        texts = page.locator(".pk-row button[ws-send]").all_inner_texts()
        assert any(t.startswith(("Check", "Call")) for t in texts), texts
    page.screenshot(path="/tmp/test-poker-phone.png")
