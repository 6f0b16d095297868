"""Two people in two browsers: one creates a room, the other joins by its code, War, flip."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"


def test_two_browsers_create_join_start_and_flip(browser: Browser, daphne_server):
    host = browser.new_context(viewport={"width": 1280, "height": 850}).new_page()
    guest = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True).new_page()

    host.goto(daphne_server + "/")
    host.get_by_role("button", name="Create a room").click()
    expect(host).to_have_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    code = host.locator("[data-room-code]").inner_text()
    # The host picks a game before anyone arrives; the lobby redrawn for the newcomer must
    # not undo the choice.
    host.get_by_label(re.compile("War")).check()

    guest.goto(daphne_server + "/")
    guest.get_by_label("Room code").fill(code.lower())
    guest.get_by_role("button", name="Join").click()
    expect(guest).to_have_url(re.compile(f"/rooms/{code}/$"))
    # The host sees the guest arrive without reloading.
    expect(host.locator(".members li")).to_have_count(2)
    expect(host.get_by_label(re.compile("War"))).to_be_checked()
    host.get_by_role("button", name="Start game").click()
    for page in (host, guest):
        expect(page.locator("#flip")).to_be_enabled()
    expect(guest.locator(".seat.you .seat-name")).to_contain_text("(you)")

    host.locator("#flip").click()
    # The suite's other half runs beside this one: a move's answer may wait a few seconds.
    expect(host.locator(".seat.you .seat-state")).to_have_text("Flipped ✓", timeout=15_000)
    guest.keyboard.press("Space")  # Space flips too
    # A tie is a war (about one deal in seventeen): both flip again until someone takes the pot.
    for _ in range(10):
        expect(host.locator("#flip")).to_be_enabled()
        if host.locator(".last-result").count():
            break
        host.locator("#flip").click()
        expect(host.locator(".seat.you .seat-state")).to_have_text("Flipped ✓", timeout=15_000)
        guest.locator("#flip").click()
    for page in (host, guest):
        expect(page.locator(".last-result")).to_contain_text("took the pot")
        expect(page.locator(".table-status")).to_contain_text("Round 2")
    host.screenshot(path=f"{SCREENS}/room-war-desktop.png")
    guest.screenshot(path=f"{SCREENS}/room-war-phone.png")
    # No horizontal scroll on the phone, once the cards have landed (a card in flight may
    # pass the edge for a moment).
    guest.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    assert guest.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
        guest.evaluate(
            "[...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right"
            " > window.innerWidth + 1).map(e => e.tagName + '.' + e.className).slice(0, 8)"
        )
    )
