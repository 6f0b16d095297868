"""Cardice in the browser on a phone: six seats against the computer, the roll of the die,
two rounds of bidding (keys and buttons), a whole hand of tricks, and the score sheet after
it; the other seats' cards never reach the page."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from gameplay import store
from gameplay.engine import registry
from lobby import services
from lobby.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
# Six seats: the cut makes seat 1 deal, so seat 0 (the person) rolls first; the die shows Bells.
SEED = "cardice-ui-23"
ENGINE = registry.get("cardice")


def _game(page: Page):
    code = re.search(r"/rooms/([A-Z]{5})/", page.url).group(1)
    return Room.objects.get(code=code).game


def _state(page: Page) -> dict:
    """The true state behind the page (the test reads the log; the page never may)."""
    return store.replay(_game(page))


def _seq(page: Page) -> int:
    return int(page.locator("#room-main").get_attribute("data-seq"))


def _after(page: Page, before: int) -> None:
    page.wait_for_function(
        f"() => Number(document.getElementById('room-main').dataset.seq) > {before}"
    )


def _in_view(page: Page, selector: str) -> None:
    # A view arriving between finding the control and measuring it replaces it: measure again.
    for _ in range(20):
        page.locator(selector).wait_for(state="visible")
        box = page.locator(selector).bounding_box()
        if box:
            break
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1, box


def _assert_others_hidden(page: Page) -> None:
    """No card another seat holds is drawn anywhere on the page."""
    state = _state(page)
    html = page.content()
    for seat, hand in enumerate(state["hands"]):
        if seat != 0:
            shown = [c for c in hand if f"/cards/{c}.svg" in html]
            assert not shown, f"seat {seat}'s cards on the page: {shown}"


def _check_trick(page: Page) -> None:
    """Each card of the trick in play sits in its player's seat, trumps marked, the winning
    one tagged."""
    view = ENGINE.view(_state(page), 0)
    trick = view["trick"]
    for play in trick["plays"]:
        card = page.locator(
            f"[data-seat='{play['seat']}'] .cd-slot .cd-card:has(img[src^='/cards/{play['card']}.svg'])"
        )
        expect(card).to_have_count(1)
        expect(card).to_have_class(
            re.compile(r"\btrump\b" if play["trump"] else r"^(?!.*\btrump\b)")
        )
    if trick["plays"]:
        winning = page.locator(f"[data-seat='{trick['winning']}'] .cd-tag.win")
        expect(winning).to_have_text("winning")
        expect(page.locator(f"[data-seat='{trick['leader']}'] .cd-tag.lead")).to_have_text("led")


@pytest.fixture
def quick_worker(monkeypatch):
    """The worker's computer players think as briefly as the server's: a computer's move
    schedules the next one from the worker, so six seats would otherwise wait a second each."""
    monkeypatch.setenv("BOT_DELAY", os.environ.get("BOT_DELAY", "0.05"))


def test_six_seats_on_a_phone(page: Page, quick_worker, daphne_server, celery_worker_process):
    SCREENS.mkdir(exist_ok=True)
    page.set_viewport_size(PHONE)
    page.goto(daphne_server + "/play/cardice/")
    page.select_option("select[name=seats]", "6")
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".cd")).to_be_visible()
    # Once the table socket is up, swap the random deal for a known one in the same room.
    while not frames:
        page.wait_for_timeout(50)
    room = Room.objects.get(code=re.search(r"/rooms/([A-Z]{5})/", page.url).group(1))
    services.back_to_lobby(room=room, player=room.host)
    game = services.start_game(room=room, player=room.host, kind="cardice", seats=6, seed=SEED)
    table = page.locator(f".cd[data-game='{game.pk}']")
    expect(table).to_have_attribute("data-phase", "roll")

    # Five computer players, the die not rolled, ten cards in hand; Bells are a suit of their own.
    expect(page.locator(".cd-seat")).to_have_count(5)
    expect(page.locator(".cd-seat .bot-tag")).to_have_count(5)
    expect(page.locator(".cd-die")).to_have_attribute("aria-label", "The die is not rolled yet")
    hand = page.locator("[data-hand] .cd-card")
    expect(hand).to_have_count(10)
    expect(page.locator("[data-hand] img[alt*='of Bells']").first).to_be_visible()
    expect(page.locator("button.cd-card")).to_have_count(0)  # nothing to play yet
    _assert_others_hidden(page)
    _in_view(page, "#roll")
    page.screenshot(path=str(SCREENS / "cardice-phone-roll.png"))

    # The roll: the die tumbles to Bells, and every Bell in hand is marked trump.
    before = _seq(page)
    page.get_by_role("button", name="Roll the die").click()
    _after(page, before)
    die = page.locator(".cd-die")
    expect(die).to_have_attribute("data-die", "B")
    expect(die).to_have_attribute("aria-label", "The die shows Bells: trump")
    expect(die).to_have_class(re.compile(r"\brolling\b"))
    expect(page.locator(".cd-trump")).to_contain_text("Trump: Bells")
    alts = hand.locator("img").evaluate_all("els => els.map(e => e.alt)")
    marks = hand.evaluate_all("els => els.map(e => e.classList.contains('trump'))")
    assert any(marks) and marks == ["of Bells" in alt for alt in alts], (alts, marks)

    # Bidding, round 1: 0 to 10, by key.
    expect(page.locator(".cd-bid")).to_have_count(11)
    expect(page.locator(".cd-bid").first).to_have_text("0")
    expect(page.locator(".cd-bid").last).to_have_text("10")
    _in_view(page, ".cd-controls")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SCREENS / "cardice-phone-bid1.png"))
    page.keyboard.press("2")
    expect(table).to_have_attribute("data-bid-round", "2")
    expect(page.locator(".cd-bid")).to_have_count(11)

    # Round 2: everyone's round-1 bid is on the table; mine is marked on the pad.
    first_bids = _state(page)["first_bids"]
    assert first_bids[0] == 2 and None not in first_bids
    for seat, bid in enumerate(first_bids):
        # "Bid 2 first round", or "Bid 2" from those who have bid again already
        expect(page.locator(f"[data-seat='{seat}'] .cd-bids")).to_contain_text(f"Bid {bid}")
    expect(page.locator(".cd-bid.first")).to_have_text("2")
    expect(page.locator(".cd-bid.first")).to_be_focused()  # Enter keeps the round-1 bid
    page.screenshot(path=str(SCREENS / "cardice-phone-bid2.png"))
    three = page.get_by_role("button", name="Bid 3", exact=True)
    three.focus()
    page.keyboard.press("Enter")
    expect(table).to_have_attribute("data-phase", "play")
    expect(page.locator(".cd-you .cd-bids")).to_have_text(re.compile(r"^Bid 3\s+\(was 2\)$"))
    expect(page.locator(".cd-you .cd-won")).to_have_text("· took 0")
    bids = _state(page)["bids"]
    for seat, bid in enumerate(bids):
        expect(page.locator(f"[data-seat='{seat}'] .cd-bids [data-bid]")).to_have_text(str(bid))
    expect(page.locator(".cd-you [data-status]")).to_have_count(1)

    # The hand: each time it is my turn the glowing cards are exactly the legal ones.
    for trick in range(1, 11):
        page.wait_for_selector("button.cd-card.playable")
        assert int(table.get_attribute("data-trick")) == trick
        state = _state(page)
        legal = sorted(a["card"] for a in ENGINE.legal_actions(state, 0))
        glowing = page.locator("button.cd-card.playable img").evaluate_all(
            "els => els.map(e => e.src.match(/cards\\/([^.]+)\\.svg/)[1])"
        )
        assert sorted(glowing) == legal
        _check_trick(page)
        _assert_others_hidden(page)
        _in_view(page, ".cd-controls")
        if trick == 2:
            # The last trick can be looked at: six cards, its winner marked.
            last = page.locator(".cd-last")
            last.locator("summary").click()
            expect(last.locator(".cd-trick li")).to_have_count(6)
            expect(last.locator(".cd-trick li.won")).to_have_count(1)
            page.screenshot(path=str(SCREENS / "cardice-phone-trick.png"))
            last.locator("summary").click()
        before = _seq(page)
        page.locator("button.cd-card.playable").first.click()
        _after(page, before)

    # The hand is scored and the next one dealt (the computer rolls, then it is my bid); the
    # sheet shows the first hand.
    expect(table).to_have_attribute("data-round", "2")
    expect(page.locator(".cd-bid")).to_have_count(11)
    row = _state(page)["sheet"][0]
    mine = row["points"][0]
    expect(page.locator("[data-scored]")).to_contain_text(
        f"Round 1: you bid 3, took {row['won'][0]}: {mine:+d}"
    )
    page.locator(".cd-sheet summary").click()
    sheet = page.locator(".cd-sheet-table")
    expect(sheet.locator("thead th")).to_have_count(7)
    expect(sheet.locator("thead th.you")).to_have_text("You")
    expect(sheet.locator("tbody tr")).to_have_count(1)
    cells = sheet.locator("tbody tr td")
    for seat in range(6):
        expect(cells.nth(seat).locator(".cd-pts")).to_have_text(f"{row['points'][seat]:+d}")
        expect(cells.nth(seat).locator("small")).to_have_text(
            f"bid {row['bids'][seat]} · took {row['won'][seat]}"
        )
    expect(sheet.locator("tfoot td").first).to_have_text(str(mine))
    expect(page.locator(".cd-you .cd-total")).to_contain_text(f"{mine} pts")
    page.locator(".cd-sheet").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / "cardice-phone-sheet.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(SCREENS / "cardice-desktop.png"), full_page=True)

    # With reduced motion the die does not tumble.
    page.emulate_media(reduced_motion="reduce")
    animation = die.evaluate(
        "d => { d.classList.add('rolling'); return getComputedStyle(d).animationName; }"
    )
    assert animation == "none"
