"""8 Américain in a phone's browser against the computer: an 8 and the suit picker (by
keyboard), a 2 played at you and its penalty taken, the knock on the last-but-one card, and
the hands shown at the end of the round with the score sheet."""

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

# Round 1 from this seed, you at seat 0 playing the first card that goes: an 8 on your 5th
# turn, the knock on your 7th, a 2 played at you and taken on your 8th; the computer then goes
# out. The test checks the seed still does this before it opens the browser.
SEED = "a8ui-1506"


def test_wild_eight_penalty_knock_and_the_end_of_the_round(
    page: Page, daphne_server, celery_worker_process
):
    assert moments("american8", SEED, None) == {"wild": 5, "knock": 7, "take": 8, "turns": 8}
    page.set_viewport_size({"width": 390, "height": 844})
    game_id = start_seeded(page, daphne_server, "american8", SEED, None)
    table = page.locator("section.s8")
    expect(table.locator(".s8-seat")).to_have_count(1)
    expect(table.locator(".s8-seat .s8-fan img.card").first).to_have_attribute(
        "alt", "Face-down card"
    )

    turn = 0
    while wait_for_me(page):
        turn += 1
        bar_in_view(page)
        expect(page.locator("[data-prompt]")).to_contain_text("Your turn")
        playable = page.locator(".s8-card.playable")
        plays = {a["card"] for a in legal(page) if a["type"] == "play"}
        expect(playable).to_have_count(len(plays))  # exactly the legal cards glow
        action = choose(legal(page))
        if turn == 1:
            shoot(page, "american8-phone-turn")
        if action["type"] == "take":
            pending = page.locator(".s8-pending")
            expect(pending).to_contain_text("+2")
            expect(pending).to_contain_text("for you")
            expect(pending).to_contain_text("take 2 or answer with a 2")
            expect(page.locator("#take")).to_have_text("Take 2")
            expect(page.locator(".s8-you")).to_have_class("s8-you acting owes")
        wild = action["type"] == "play" and "suit" in action
        if wild:
            watch(page, ".s8-follow")
        make(page, action, keyboard=wild, shot="american8-phone" if turn in (5, 7, 8) else "")
        if action.get("knock"):
            expect(page.locator("[data-news]")).to_contain_text("Knock!")
        if wild:
            was_shown(page, "named")
    assert turn == 8

    mine = my_actions(game_id)
    assert any(a["type"] == "play" and "suit" in a for a in mine)
    assert any(a.get("knock") is True for a in mine)
    assert {"type": "take"} in mine

    # Round 2 is dealt; round 1's hands stay on show, and the score sheet has its line.
    reveal = page.locator("details.s8-last")
    expect(reveal).to_have_attribute("open", "")
    expect(reveal.locator("summary")).to_contain_text("Round 1: Cubot went out with")
    expect(reveal.locator("[data-reveal-seat='0'] img.card")).to_have_count(3)
    expect(reveal.locator("[data-reveal-seat='1']")).to_contain_text("out")
    sheet = page.locator("details.s8-sheet")
    sheet.locator("summary").click()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, "american8-phone-round-end", full=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    shoot(page, "american8-desktop-round-end", full=True)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_four_seats_read_at_a_glance(page: Page, daphne_server, celery_worker_process, size):
    width, height = (390, 844) if size == "phone" else (1280, 800)
    page.set_viewport_size({"width": width, "height": height})
    start_seeded(page, daphne_server, "american8", "a8ui-look", None, seats=4)
    seats = page.locator(".s8-seat")
    expect(seats).to_have_count(3)
    for turn in range(3):
        assert wait_for_me(page)
        # The others' cards are face down and counted; the buttons stay on screen.
        alts = page.locator(".s8-seats img.card").evaluate_all("els => els.map(e => e.alt)")
        assert alts and set(alts) == {"Face-down card"}
        for i in range(3):
            count = seats.nth(i).locator("[data-count]").inner_text()
            assert int(count) >= 1
        bar_in_view(page)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        if turn == 2:
            shoot(page, f"american8-{size}-four-seats")
        make(page, choose(legal(page)))
