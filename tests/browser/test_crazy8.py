"""Crazy 8 in a phone's browser against the computer: an 8 and the suit picker, played out to
the win and the room's count of wins; Mau-Mau (a Crazy 8 preset): the wild Jack, a 7 played
at you and its penalty taken, the Mau call; and the options form, whose custom settings show
only in custom mode and whose bad combinations are refused with their reason."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from .shedding import (
    bar_in_view,
    choose,
    legal,
    make,
    moments,
    my_actions,
    shoot,
    start_seeded,
    wait_for_me,
    was_shown,
    watch,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# You at seat 0 playing the first card that goes: an 8 on your first turn, and you go out on
# your 7th, winning the game. The tests check the seeds still do this before they start.
CRAZY8_SEED = "c8ui-1050"
# Mau-Mau: a wild Jack on your 1st turn, a 7 played at you and taken on your 3rd, the Mau call
# on your 7th, and you go out on your 8th.
MAUMAU_SEED = "mau-1082"
MAUMAU = {"mode": "maumau"}


def test_an_eight_and_the_suit_picker_to_the_win(page: Page, daphne_server, celery_worker_process):
    assert moments("crazy8", CRAZY8_SEED, None) == {"wild": 1, "turns": 7}
    page.set_viewport_size({"width": 390, "height": 844})
    game_id = start_seeded(page, daphne_server, "crazy8", CRAZY8_SEED, None)
    expect(page.locator(".s8-topline")).to_contain_text("first out wins")
    expect(page.locator(".wins-tag")).to_have_count(0)  # nothing won in this room yet

    turn = 0
    while wait_for_me(page):
        turn += 1
        bar_in_view(page)
        action = choose(legal(page))
        if turn == 1:
            # The 8 glows as wild; tapping it asks for a suit; Escape puts the question away.
            assert action["type"] == "play" and "suit" in action
            card = page.locator(f".s8-card[data-card='{action['card']}']")
            expect(card).to_have_class(re.compile(r"\bwild\b"))
            card.click(position={"x": 12, "y": 50})
            picker = page.locator("[data-picker]")
            expect(picker).to_be_visible()
            expect(picker.get_by_role("button")).to_have_count(5)  # four suits and Cancel
            # The table redrawn with the same state (here on asking for it) keeps the question.
            page.keyboard.press("Tab")
            expect(picker.locator("[data-suit=H]")).to_be_focused()
            page.evaluate("document.querySelector('section.s8').dataset.old = '1'")
            page.evaluate("window.cubic.send({type: 'sync'})")
            page.wait_for_selector("section.s8:not([data-old])")
            expect(picker).to_be_visible()
            expect(picker.locator("[data-suit=H]")).to_be_focused()
            page.keyboard.press("Escape")
            expect(picker).to_be_hidden()
            expect(card).to_be_focused()
        if turn == 1:
            watch(page, ".s8-follow", ".s8-latest")
        make(page, action, shot="crazy8-phone" if turn == 1 else "")
        if turn == 1:
            was_shown(page, "Spades named")
            was_shown(page, "named ♠")
    assert turn == 7

    # The game is over: you went out, and your win is counted next to your name.
    expect(page.locator(".game-over h2")).to_contain_text("wins!")
    reveal = page.locator("details.s8-last")
    expect(reveal).to_have_attribute("open", "")
    expect(reveal.locator("summary")).to_contain_text("Round 1: you went out with")
    expect(page.locator(".s8-you .wins-tag")).to_have_attribute("data-wins", "1")
    expect(page.locator(".s8-seat .wins-tag")).to_have_attribute("data-wins", "0")
    assert sum(a["type"] == "play" for a in my_actions(game_id)) == 7
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, "crazy8-phone-won", full=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    shoot(page, "crazy8-desktop-won", full=True)


def test_mau_mau_wild_jack_a_seven_taken_and_the_mau(
    page: Page, daphne_server, celery_worker_process
):
    assert moments("crazy8", MAUMAU_SEED, MAUMAU) == {"wild": 1, "take": 3, "knock": 7, "turns": 8}
    page.set_viewport_size({"width": 390, "height": 844})
    game_id = start_seeded(page, daphne_server, "crazy8", MAUMAU_SEED, MAUMAU)
    expect(page.locator(".s8-topline")).to_contain_text("Mau-Mau")
    expect(page.locator(".s8-topline")).to_contain_text("Mau on your last-but-one card")

    turn = 0
    while wait_for_me(page):
        turn += 1
        bar_in_view(page)
        action = choose(legal(page))
        if action["type"] == "take":
            expect(page.locator(".s8-pending")).to_contain_text("+2")
            expect(page.locator(".s8-pending")).to_contain_text("take 2 or answer with a 7")
            expect(page.locator(".s8-latest")).to_contain_text(re.compile(r"Cubot\s+played 7"))
        if action.get("knock"):
            expect(page.locator("[data-knock]")).to_have_text("Mau!")
            watch(page, ".s8-latest")
        make(page, action, shot="maumau-phone" if turn in (3, 7) else "")
        if action.get("knock"):
            was_shown(page, "Mau!")
    assert turn == 8

    mine = my_actions(game_id)
    assert mine[0]["card"].startswith("J") and "suit" in mine[0]  # the Jack is the wild card
    assert any(a.get("knock") is True for a in mine) and {"type": "take"} in mine
    expect(page.locator("details.s8-last summary")).to_contain_text("Round 1: you went out")
    shoot(page, "maumau-phone-round-end", full=True)


def test_custom_options_show_only_in_custom_mode(page: Page, daphne_server):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(daphne_server + "/play/american8/")
    mode = page.locator("select[name=rule_mode]")
    jokers = page.locator("select[name=rule_jokers]")
    four = page.locator("select[name=rule_draw4_joker]")
    expect(mode).to_be_visible()
    expect(jokers).to_be_hidden()
    mode.select_option(json.dumps("custom"))
    expect(jokers).to_be_visible()
    expect(four).to_be_visible()
    expect(page.locator("select[name=rule_target]")).to_be_visible()
    shoot(page, "american8-phone-custom-options", full=True)
    mode.select_option(json.dumps("american8"))
    expect(jokers).to_be_hidden()

    # A combination that can't make a game is refused with its reason, and no game starts.
    mode.select_option(json.dumps("custom"))
    jokers.select_option("0")
    four.select_option("true")
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".messages .error")).to_have_text(
        "A joker can't make anyone draw four without jokers in the deck."
    )
    assert "/rooms/" not in page.url

    # The same form in a room's game picker, for the Crazy 8 kind and its four modes.
    page.goto(daphne_server + "/")
    page.get_by_role("button", name="Create a room").click()
    page.get_by_role("radio", name=re.compile("^Crazy 8")).check()
    options = page.locator("fieldset[data-game=crazy8]")
    crazy_mode = options.locator("select[name=rule_mode]")
    expect(crazy_mode.locator("option")).to_have_text(["Crazy 8", "Mau-Mau", "101", "Custom"])
    expect(options.locator("select[name=rule_deck]")).to_be_hidden()
    crazy_mode.select_option(json.dumps("custom"))
    expect(options.locator("select[name=rule_deck]")).to_be_visible()
    crazy_mode.select_option(json.dumps("101"))
    expect(options.locator("select[name=rule_deck]")).to_be_hidden()
