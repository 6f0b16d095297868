"""War on a 390×844 phone with four seats: the short game (50 rounds) played by Auto-flip at
Speed Play Instant reaches its end screen, the Flip bar stays on screen, and the Flip button
does not move when the cards come out."""

import re

import pytest
from playwright.sync_api import Browser, expect

from .test_look import SCREENS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_a_short_game_by_auto_flip_to_the_end(
    browser: Browser, daphne_server, celery_worker_process
):
    page = browser.new_context(**PHONE).new_page()
    page.goto(daphne_server + "/play/war/")
    page.get_by_label("Players (you and the computer)").select_option("4")
    page.get_by_label("Game length").select_option(label="Quick: 50 rounds")
    with page.expect_websocket() as socket:
        page.get_by_role("button", name="Play", exact=True).click()
    socket.value.wait_for_event("framereceived")  # the table is live: its first view came
    expect(page).to_have_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    flip = page.locator("#flip")
    expect(flip).to_be_enabled()
    expect(page.locator(".table-status")).to_contain_text("Round 1 of 50")
    expect(page.locator(".war .controls")).to_be_in_viewport(ratio=1)
    # Read in the page in one step: a redraw (the computer players move at once) may replace
    # the button between a locator's finding it and measuring it.
    top = "document.getElementById('flip').getBoundingClientRect().top"
    before = page.evaluate(top)

    # The computer players flip at once; mine is the last flip of the round.
    expect(page.locator(".seat:not(.you) .seat-state", has_text="Flipped ✓")).to_have_count(3)
    flip.click()  # the cards come out: the button stays where it was
    expect(page.locator(".seat.you .battle img.card").first).to_be_visible()
    after = page.evaluate(top)
    assert abs(after - before) < 2, (before, after)
    expect(page.locator(".war .controls")).to_be_in_viewport(ratio=1)

    page.get_by_label("How fast the computer players move").select_option("instant")
    page.get_by_label("Auto-flip").check()
    over = page.locator(".game-over h2")
    expect(over).to_be_visible(timeout=90_000)
    expect(over).to_have_text(re.compile(r"(wins|share the win)!"))
    expect(page.get_by_role("button", name="Play again")).to_be_in_viewport()
    # Auto-flip sent one flip per state: none arrived after the end.
    expect(page.locator("#table-error")).not_to_contain_text("The game is over")
    page.screenshot(path=str(SCREENS / "war-phone-over.png"), full_page=True)
    page.context.close()


def test_after_a_slow_down_auto_flip_goes_on_and_the_toast_shows_once(
    browser: Browser, daphne_server, celery_worker_process
):
    """More flips at once than the socket takes: the refused ones come back as "Slow down".
    Auto-flip must send its flip again (it once stopped for good), and that error must not
    come back with every later update (it once reappeared on each one)."""
    page = browser.new_context().new_page()
    page.goto(daphne_server + "/play/war/")
    with page.expect_websocket() as socket:
        page.get_by_role("button", name="Play", exact=True).click()
    frames: list[str] = []
    socket.value.on("framereceived", lambda frame: frames.append(str(frame)))
    socket.value.wait_for_event("framereceived")
    expect(page.locator("#flip")).to_be_enabled()
    page.get_by_label("How fast the computer players move").select_option("instant")
    page.get_by_label("Auto-flip").check()
    # The socket counts its allowance as it handles each message, and a flip costs a trip to
    # the database: on a busy machine flips alone may never use it up (CI once saw none
    # refused). Pings cost nothing, so 30 of them spend it for certain, then the flips come.
    page.evaluate(
        """() => {
             for (let i = 0; i < 30; i++) window.cubic.send({ type: "ping" });
             for (let i = 0; i < 10; i++) document.getElementById('flip').click();
           }"""
    )
    toast = page.locator("#table-error")
    expect(toast).to_be_visible()
    refused = "Slow down: too many messages. Your move was not applied"
    for _ in range(50):  # up to 5 s for the burst's answers
        if any(refused in frame for frame in frames):
            break
        page.wait_for_timeout(100)
    assert any(refused in frame for frame in frames)
    seq = "Number(document.getElementById('room-main').dataset.seq)"
    # The toast goes after its 4 s while the table plays on (a 400-round game).
    expect(toast).to_be_hidden(timeout=10_000)
    after = page.evaluate(seq)
    page.wait_for_function(f"() => {seq} >= {after + 20}", timeout=20_000)
    expect(toast).to_be_hidden()
    expect(page.locator(".game-over")).to_have_count(0)
    page.context.close()


@pytest.mark.parametrize("cards", [3, 5, 9])
def test_a_war_pot_stays_inside_a_phone(
    browser: Browser, daphne_server, celery_worker_process, cards
):
    """After a war each seat shows several overlapping cards (three for one war, five for two):
    on a phone's two columns they must not push the page sideways (they once did, by ~30 px)."""
    small_phone = {**PHONE, "viewport": {"width": 360, "height": 740}}
    page = browser.new_context(**small_phone).new_page()
    page.goto(daphne_server + "/play/war/")
    page.get_by_label("Players (you and the computer)").select_option("2")
    with page.expect_websocket() as socket:
        page.get_by_role("button", name="Play", exact=True).click()
    socket.value.wait_for_event("framereceived")
    page.locator("#flip").click()
    expect(page.locator(".seat.you .battle img.card").first).to_be_visible()  # the round was played
    # The computer has flipped for the next round too: the table now waits on me, no redraw.
    expect(page.locator(".seat:not(.you) .seat-state")).to_have_text("Flipped ✓")
    # A pot as a war leaves it: each seat's battle holds `cards` cards.
    page.evaluate(
        """n => document.querySelectorAll('.battle').forEach(b => {
             const card = document.querySelector('.seat.you .battle img.card');
             while (b.querySelectorAll('img.card').length < n) b.appendChild(card.cloneNode());
           })""",
        cards,
    )
    expect(page.locator(".seat.you .battle img.card")).to_have_count(cards)
    # The cards have landed (a war's banner pulses for as long as it shows: not waited for).
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect.getTiming().iterations === Infinity)"
    )
    # Against the screen's width: a phone's layout viewport widens to fit what overflows.
    outside = page.evaluate(
        "w => [...document.querySelectorAll('.seat, .battle')]"
        ".filter(e => e.getBoundingClientRect().right > w + 1).length",
        small_phone["viewport"]["width"],
    )
    assert outside == 0, f"{outside} seats or pots cut off by the screen's edge with {cards} cards"
    page.screenshot(path=str(SCREENS / f"war-phone-pot-{cards}.png"))
    page.context.close()
