"""Picking the computer players' strengths in a browser: one select per computer seat the
table will have, and the seats say what was picked."""

import pytest
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pick_an_expert_for_the_third_computer_seat(browser: Browser, daphne_server):
    page = browser.new_context().new_page()
    page.goto(daphne_server + "/play/crazy8/")
    strengths = page.locator('select[name="strength"]:visible')
    expect(strengths).to_have_count(1)  # two players: you and one computer
    page.select_option("select[name=seats]", "4")
    expect(strengths).to_have_count(3)
    strengths.nth(2).select_option("expert")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator(".bot-tag")).to_have_text(["CPU · Medium", "CPU · Medium", "CPU · Expert"])
