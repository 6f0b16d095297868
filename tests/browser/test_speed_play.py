"""Speed Play in a browser: the solo player picks Instant at the table and the next table
starts with it."""

import re
import time

import pytest
from playwright.sync_api import Browser, expect

from lobby.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _speed(page, expected: str) -> str:
    """The table's Speed Play as the server has it, once it is `expected` (or 5 s passed)."""
    code = re.search(r"/rooms/([A-Z]{5})/", page.url).group(1)
    for _ in range(50):
        speed = Room.objects.get(code=code, is_open=True).game.speed_play
        if speed == expected:
            break
        time.sleep(0.1)
    return speed


def test_pick_instant_at_the_table_and_keep_it(browser: Browser, daphne_server):
    page = browser.new_context().new_page()
    page.goto(daphne_server + "/play/war/")
    with page.expect_websocket() as socket:
        page.get_by_role("button", name="Play", exact=True).click()
    socket.value.wait_for_event("framereceived")  # the table is live: its first view came
    expect(page).to_have_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    speed = page.get_by_label("How fast the computer players move")
    expect(speed).to_have_value("normal")
    speed.select_option("instant")
    expect(page.get_by_label("How fast the computer players move")).to_have_value("instant")
    assert _speed(page, "instant") == "instant"
    first = page.url
    page.get_by_role("button", name="Quit").click()
    page.goto(daphne_server + "/play/war/")
    with page.expect_websocket() as socket:
        page.get_by_role("button", name="Play", exact=True).click()
    socket.value.wait_for_event("framereceived")
    expect(page).not_to_have_url(first)
    expect(page.get_by_label("How fast the computer players move")).to_have_value("instant")
    assert _speed(page, "instant") == "instant"
