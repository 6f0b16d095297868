"""The first games on a phone (390×844, touch): what a finger must reach is not covered."""

import pytest
from playwright.sync_api import Browser, expect

from .phone import PHONE, box, on_top, shot
from .shedding import choose, legal, make, my_actions, start_seeded, wait_for_me

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 8 Américain from this seed, drawing whenever you may and taking what is played at you: on
# your 4th turn you hold 12 cards (two rows on a phone) and the 2♣ to answer the computer's 2.
ANSWER_SEED, ANSWER_TURN, ANSWER_CARD = "phone-286", 4, "2C"


def hoard(legal: list[dict]) -> dict:
    """Draw while you may, take what is played at you, else the usual choice."""
    for kind in ("draw", "take"):
        if {"type": kind} in legal:
            return {"type": kind}
    return choose(legal)


def test_american8_answering_a_two_by_touch(browser: Browser, daphne_server, celery_worker_process):
    page = browser.new_context(**PHONE).new_page()
    game_id = start_seeded(page, daphne_server, "american8", ANSWER_SEED, None)
    for _ in range(ANSWER_TURN - 1):
        assert wait_for_me(page)
        make(page, hoard(legal(page)))
    assert wait_for_me(page)
    assert {"type": "take"} in legal(page)
    expect(page.locator("#take")).to_have_text("Take 2")
    two = page.locator(f".s8-card.playable[data-card='{ANSWER_CARD}']")
    shot(page, "a8-answer-before")
    on_top(page.locator("#take"))
    seen = box(two)
    on_top(two, 12, seen["height"] / 2)  # the middle of the strip a fanned card shows
    seq = page.locator("#room-main").get_attribute("data-seq")
    two.tap(position={"x": 12, "y": seen["height"] / 2})
    page.wait_for_function(
        "seq => document.getElementById('room-main').dataset.seq !== seq", arg=seq
    )
    assert my_actions(game_id)[-1] == {"type": "play", "card": ANSWER_CARD}
    page.context.close()


def test_the_title_bar_on_a_phone_skip_link_speed_play_and_a_hint(browser: Browser, daphne_server):
    """Tab's first stop is "Skip to the table", which lands before the table's own controls;
    Speed Play's menu lines up with Quit; a hint leaves Rules and Quit in reach."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(daphne_server + "/play/war/")
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_url("**/rooms/*/")
    # The socket's first view replaces the page's table, and the skip link's landing with it.
    page.wait_for_selector("#room[data-live]", state="attached")
    expect(page.locator("#flip")).to_be_enabled()

    page.keyboard.press("Tab")
    skip = page.locator(":focus")
    expect(skip).to_have_text("Skip to the table")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => Boolean(document.activeElement.closest('section.table'))"), (
        page.evaluate("document.activeElement.outerHTML")
    )

    speed = box(page.get_by_label("How fast the computer players move"))
    quit_ = box(page.get_by_role("button", name="Quit"))
    assert abs(speed["height"] - quit_["height"]) <= 2, (speed, quit_)
    middle = lambda seen: seen["y"] + seen["height"] / 2  # noqa: E731
    assert abs(middle(speed) - middle(quit_)) <= 2, (speed, quit_)

    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("cubic.hint()")  # War's hint: the table's Hint is Klondike's and Gridcannon's
    expect(page.locator("#table-hint")).to_be_visible()
    on_top(page.get_by_role("link", name="Rules"))
    on_top(page.get_by_role("button", name="Quit"))
    shot(page, "war-phone-hint")
    page.context.close()


def test_an_error_toast_leaves_the_buttons_in_reach(browser: Browser, daphne_server):
    """Four seats: the table is taller than the screen and Flip's bar sits at its bottom edge,
    where the end of a game puts Play again too."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(daphne_server + "/play/war/")
    page.get_by_label("Players (you and the computer)").select_option("4")
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_url("**/rooms/*/")
    flip = page.locator("#flip")
    expect(flip).to_be_enabled()
    page.evaluate("cubic.act({type: 'shuffle'})")  # a move War has not: an error comes back
    expect(page.locator("#table-error")).to_be_visible()
    shot(page, "war-phone-toast")
    on_top(flip)
    page.context.close()


def test_sounds_are_off_until_turned_on_and_remembered(
    browser: Browser, daphne_server, celery_worker_process
):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(daphne_server + "/play/war/")
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_url("**/rooms/*/")
    switch = page.locator("[data-sounds]")
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert switch.inner_text().split() == ["Sounds", "off"]  # the word shown
    flip = page.locator("#flip")
    expect(flip).to_be_enabled()
    seq = page.locator("#room-main").get_attribute("data-seq")
    flip.tap()
    page.wait_for_function(
        "seq => document.getElementById('room-main').dataset.seq !== seq", arg=seq
    )
    assert page.evaluate("document.documentElement.dataset.sound") is None  # off: silent

    on_top(switch)
    switch.tap()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert switch.inner_text().split() == ["Sounds", "on"]
    page.reload()
    expect(page.locator("[data-sounds]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#flip")).to_be_enabled()
    page.locator("#flip").tap()
    page.wait_for_function("() => document.documentElement.dataset.sound === 'play'")
    for name in ("deal", "play", "win"):  # the files are there, as WAV
        url = page.locator("[data-sounds]").get_attribute(f"data-{name}")
        answer = page.request.get(daphne_server + url)
        assert answer.ok and answer.body()[:4] == b"RIFF"
    context.close()


def test_klondikes_hint_leaves_the_title_bar_in_reach(browser: Browser, daphne_server):
    page = browser.new_context(**PHONE).new_page()
    page.goto(daphne_server + "/")
    page.locator("form[action='/play/klondike/'] button").click()
    page.wait_for_url("**/rooms/*/")
    # The socket's first view replaces the page's table: tap the button it brings.
    page.wait_for_selector("#room[data-live]", state="attached")
    page.wait_for_selector("section.kl[data-kl-ready]", state="attached")
    page.locator("[data-kl-hint]").tap()
    hint = page.locator("#table-hint")
    expect(hint).to_be_visible(timeout=20_000)  # the solver's answer: slower on a busy machine
    page.evaluate("window.scrollTo(0, 0)")  # back up to the title bar, as a thumb would
    on_top(page.get_by_role("link", name="Rules"))
    on_top(page.get_by_role("button", name="Quit"))
    shot(page, "klondike-phone-hint")
    page.context.close()
