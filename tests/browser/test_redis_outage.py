"""A person at a table while Redis is down for about 10 seconds: the table's socket closes
(4503), the page turns into one saying the tables are unavailable, and it comes back to the
table by itself when Redis is back."""

import re

import pytest
from playwright.sync_api import Browser, expect

from ..conftest import start_daphne

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_page_says_unavailable_then_comes_back(browser: Browser, private_redis):
    server, base = start_daphne(private_redis.url)
    try:
        page = browser.new_page()
        page.goto(base + "/")
        page.get_by_role("button", name="Create a room").click()
        expect(page).to_have_url(re.compile(r"/rooms/[A-Z]{5}/$"))
        room = page.url
        expect(page.locator("[data-room-code]")).to_be_visible()

        private_redis.stop()
        unavailable = page.get_by_role("heading", name="The tables are unavailable right now")
        expect(unavailable).to_be_visible(timeout=20_000)
        assert page.url == room

        private_redis.start()  # the page tries again every 10 seconds
        expect(page.locator("[data-room-code]")).to_be_visible(timeout=30_000)
        expect(unavailable).to_have_count(0)
    finally:
        server.stop()
    server.check()
