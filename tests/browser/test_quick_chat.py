"""Quick chat on two phones: one player taps Chat and "Good game", the other sees the bubble
beside that player's seat; muting that seat keeps the next one off their table."""

import re

import pytest
from playwright.sync_api import Browser, expect

from .phone import PHONE, on_top, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phrase_shows_beside_the_seat_that_said_it(browser: Browser, daphne_server):
    host = browser.new_context(**PHONE).new_page()
    guest = browser.new_context(**PHONE).new_page()
    host.goto(daphne_server + "/")
    host.get_by_role("button", name="Create a room").click()
    code = host.locator("[data-room-code]").inner_text()
    guest.goto(daphne_server + "/")
    guest.get_by_label("Room code").fill(code)
    guest.get_by_role("button", name="Join").click()
    expect(guest).to_have_url(re.compile(f"/rooms/{code}/$"))
    host.get_by_label(re.compile("War")).check()
    host.get_by_role("button", name="Start game").click()
    expect(guest.locator("#flip")).to_be_enabled()
    expect(host.locator("#flip")).to_be_enabled()

    seat = host.locator("[data-chat-you]").first.get_attribute("data-chat-seat")
    name = host.locator("[data-chat-you]").first.get_attribute("data-chat-name")
    chat = host.locator("[data-chat-button]")
    on_top(chat)
    chat.tap()
    good_game = host.get_by_role("button", name="Good game")
    on_top(good_game)
    shot(host, "chat-panel")
    good_game.tap()
    expect(host.locator("#chat-panel")).to_be_hidden()

    bubble = guest.locator(f"[data-chat-seat='{seat}'] .chat-bubble")
    expect(bubble).to_have_text("Good game")
    expect(guest.locator("#chat-news")).to_have_text(f"{name}: Good game")
    shot(guest, "chat-bubble")
    expect(bubble).to_have_count(0, timeout=6000)  # gone after about 4 s

    # The guest mutes the host: the next phrase reaches their page but shows no bubble.
    guest.locator("[data-chat-button]").tap()
    guest.get_by_label(f"Mute {name}").check()
    host.locator("[data-chat-button]").tap()
    host.get_by_role("button", name="Thanks").tap()
    expect(host.locator(f"[data-chat-seat='{seat}'] .chat-bubble")).to_have_text("Thanks")
    expect(guest.locator("#chat-said")).to_have_attribute("data-text", "Thanks")
    assert guest.locator(".chat-bubble").count() == 0  # taken in as it arrived: no bubble
    for page in (host, guest):
        page.context.close()
