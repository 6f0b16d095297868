"""The Blackjack table in a browser: bet, hit, hold, see the result; the dealer's hole card
never reaches the page before it is turned."""

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from gameplay import store
from lobby.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FACE_DOWN = "Face-down card"


def _state(page: Page) -> dict:
    """The true game state behind the page (the test reads the log; the page never may)."""
    code = re.search(r"/rooms/([A-Z]{5})/", page.url).group(1)
    return store.replay(Room.objects.get(code=code).game)


def _dealer_alts(page: Page) -> list[str]:
    return page.locator("[data-dealer] img.card").evaluate_all("els => els.map(e => e.alt)")


def _assert_hole_card_hidden(page: Page) -> None:
    """In the play phase the dealer shows the upcard and a face-down card, and the real hole
    card's image is nowhere in the dealer's area (but as the upcard: the shoe holds two decks,
    so the two can be the same card)."""
    state = _state(page)
    if state["phase"] != "play":
        return
    alts = _dealer_alts(page)
    assert len(alts) == 2 and alts[0] != FACE_DOWN and alts[1] == FACE_DOWN, alts
    upcard, hole = state["dealer"][:2]
    shown = page.locator("[data-dealer]").inner_html().count(f"/cards/{hole}.svg")
    assert shown == (upcard == hole), (upcard, hole)


def _click(page: Page, selector: str) -> None:
    """Click a button that sends an action and wait until the table shows a newer state; if
    it never does, say what the page showed (CI once saw a first bet change nothing for 30 s,
    in two tests in a row: a tap made before the page's scripts took the button up, which
    the table now refuses until its socket is open)."""
    seq = page.locator("#room-main").get_attribute("data-seq")
    page.locator(selector).click()
    try:
        page.wait_for_function(
            "seq => document.getElementById('room-main').dataset.seq !== seq", arg=seq
        )
    except PlaywrightTimeout:
        shown = page.evaluate(
            """() => ({seq: document.getElementById('room-main').dataset.seq,
                       error: document.getElementById('table-error').textContent.trim(),
                       connecting: document.getElementById('room').classList.contains('connecting'),
                       offline: document.body.classList.contains('offline')})"""
        )
        pytest.fail(f"{selector} changed nothing: the page showed {shown}")


def _play_until_my_turn(page: Page, rounds: int = 6) -> None:
    """Bet 10 until a round deals a hand that waits for my decision (a blackjack on either
    side settles the round at once)."""
    for _ in range(rounds):
        _click(page, ".bj-bets button[aria-label='Bet 10']")
        page.wait_for_selector("#hit, .bj-bets")
        if page.locator("#hit").count():
            return
        expect(page.locator("[data-my-result]")).to_be_visible()
    pytest.fail("No round dealt a hand to play.")


def test_solo_blackjack_bet_hit_hold(page: Page, daphne_server, tmp_path):
    # The home page's Play seats one player against the dealer: no computer players to run.
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(daphne_server + "/")
    page.locator("[data-kind=blackjack]").get_by_role("button", name=re.compile("Play")).click()
    expect(page.locator(".bj")).to_be_visible()

    # Betting: the four chips, with 100 chips in hand, and no cards in the dealer's spot.
    bets = page.locator(".bj-bets button")
    expect(bets).to_have_text(["5", "10", "25", "50"])
    expect(page.locator(".bj-seat.you [data-chips]")).to_have_text("100")
    expect(page.locator("#hit")).to_have_count(0)
    page.screenshot(path="/tmp/test-blackjack-phone-bet.png")

    _play_until_my_turn(page)
    mine = page.locator(".bj-seat.you")
    expect(mine.locator("[data-bet]")).to_have_text("10")
    expect(mine.locator(".bj-cards img.card")).to_have_count(2)
    expect(page.locator("#stand")).to_have_text("Hold")
    _assert_hole_card_hidden(page)
    page.screenshot(path="/tmp/test-blackjack-phone-play.png")

    # Hit: a third card (or a bust / an automatic stand at 21, which ends the round).
    _click(page, "#hit")
    _assert_hole_card_hidden(page)
    if page.locator("#stand").count():
        expect(mine.locator(".bj-cards img.card")).to_have_count(3)
        _click(page, "#stand")

    # The dealer plays in turn: the hole card turns, each card arrives, then the results.
    result = page.locator("[data-my-result]")
    expect(page.locator("section.bj.bj-pacing")).to_have_count(1)
    expect(result).to_be_hidden()
    expect(page.locator("section.bj.bj-pacing")).to_have_count(0)
    expect(result).to_be_visible()

    # The round is settled: the dealer's hand is face up and the result is shown in colour.
    expect(page.locator(".bj-bets")).to_be_visible()
    expect(result).to_have_text(re.compile(r"You win \+\d+|You lose −\d+|Push|Blackjack"))
    assert FACE_DOWN not in _dealer_alts(page)
    assert len(_dealer_alts(page)) >= 2
    colour = result.evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path="/tmp/test-blackjack-phone-result.png")


def test_blackjack_with_a_computer_player(
    page: Page, daphne_server, celery_worker_process, tmp_path
):
    page.set_viewport_size({"width": 1280, "height": 850})
    page.goto(daphne_server + "/play/blackjack/")
    page.select_option("select[name=seats]", "2")
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".bj-seat")).to_have_count(2)
    other = page.locator(".bj-seat:not(.you)")
    expect(other.locator(".bot-tag")).to_have_text(
        "CPU · Medium"
    )  # the strength the host left as it was
    expect(other).to_contain_text("Bet placed")  # the computer bets as soon as bets open

    _play_until_my_turn(page)
    expect(other.locator("[data-bet]")).to_have_text(re.compile(r"\d+"))
    expect(page.locator(".bj-seat.you")).to_have_class(re.compile("acting"))
    _assert_hole_card_hidden(page)
    page.screenshot(path="/tmp/test-blackjack-desktop-play.png")
    # Only legal moves are offered: Double needs two cards and enough chips, both true now.
    expect(page.locator(".bj-moves button")).to_have_text(["Hit", "Hold", "Double"])
    _click(page, "#double")
    expect(page.locator("[data-my-result]")).to_be_visible()
    # Last round stays on the table: both seats' hands, the dealer's, and their results.
    expect(other.locator("[data-result]")).to_be_visible()
    assert FACE_DOWN not in _dealer_alts(page)
    page.screenshot(path="/tmp/test-blackjack-desktop-result.png")
