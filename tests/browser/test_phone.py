"""The first games on a phone (390×844, touch): what a finger must reach is not covered."""

import pytest
from playwright.sync_api import Browser, expect

from .phone import PHONE, on_top, shot
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
    box = two.bounding_box()
    on_top(two, 12, box["height"] / 2)  # the middle of the strip a fanned card shows
    seq = page.locator("#room-main").get_attribute("data-seq")
    two.tap(position={"x": 12, "y": box["height"] / 2})
    page.wait_for_function(
        "seq => document.getElementById('room-main').dataset.seq !== seq", arg=seq
    )
    assert my_actions(game_id)[-1] == {"type": "play", "card": ANSWER_CARD}
    page.context.close()
