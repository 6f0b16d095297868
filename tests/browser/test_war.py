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
    before = flip.bounding_box()

    flip.click()  # the cards come out: the button stays where it was
    expect(page.locator(".seat.you .seat-state")).to_have_text("Flipped ✓")
    after = page.locator("#flip").bounding_box()
    assert abs(after["y"] - before["y"]) < 2, (before, after)
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
