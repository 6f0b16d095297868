"""Kudos part 2 in a browser: earn a badge by play (announced at the open table), watch a sponsor
spot to its end, buy a card back in the shop and see it on the next table."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import User
from gameplay import hooks
from kudos import clock, rules, services
from kudos.models import Entry
from tests.played import ended_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"
START = datetime(2030, 1, 7, 12, tzinfo=UTC)


@pytest.fixture
def clocked_server(monkeypatch, settings, request):
    """daphne with Kudos' clock read from the cache, which this test moves."""
    monkeypatch.setenv("KUDOS_TEST_CLOCK", "true")
    settings.KUDOS_TEST_CLOCK = True
    clock.stop_at(START)
    yield request.getfixturevalue("daphne_server")
    clock.free()


def test_earn_a_badge_watch_a_spot_buy_a_card_back_and_see_it_at_a_table(
    browser: Browser, clocked_server
):
    base = clocked_server
    otter = User.objects.create_user("otter", password="grey-Otter-71-lantern")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.clock.install(time=START)
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill("otter")
    page.get_by_label("Password").fill("grey-Otter-71-lantern")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".kudos-balance")).to_have_text("0")  # a visit pays nothing

    # At a Klondike table, a first game played elsewhere ends: five minutes of Gridcannon.
    # The table announces the badge it earns.
    page.locator("form[action='/play/klondike/'] button").click()
    page.wait_for_url("**/rooms/*/")
    expect(page.locator("#kudos-slot[data-live]")).to_be_attached()
    played = ended_game(seats=[{"user_id": otter.pk}], winners=[], kind="gridcannon", seconds=300)
    hooks.deliver(played.pk)
    toast = page.locator("[data-badge-toast='first-game']")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("Badge earned: First deal")
    expect(toast.locator("img")).to_have_attribute("src", "/kudos/badges/first-game.svg")
    # 5 for five minutes of play, 10 for the day's streak, 10 for the badge
    expect(page.locator(".kudos-balance")).to_have_text("25")
    page.screenshot(path=f"{SCREENS}/kudos-badge-at-table.png")
    page.goto(base + "/u/otter/")
    expect(page.locator("[data-badge='first-game'][data-earned]")).to_be_visible()
    page.screenshot(path=f"{SCREENS}/kudos-profile-badges.png", full_page=True)

    # A sponsor spot, watched to its end (the page's clock and the server's move together).
    page.goto(base + "/kudos/")
    page.get_by_role("button", name="Watch a spot").click()
    claim = page.locator("[data-spot-claim]")
    expect(claim).to_be_disabled()
    page.screenshot(path=f"{SCREENS}/kudos-spot.png")
    clock.stop_at(START + timedelta(seconds=rules.SPOT_SECONDS + 1))
    page.clock.run_for((rules.SPOT_SECONDS + 1) * 1000)
    expect(claim).to_be_enabled()
    claim.click()
    expect(page.locator(".messages")).to_contain_text("+5 Kudos: thank you for watching.")
    expect(page.locator("[data-spots-today]")).to_have_text("Watched today: 1 of 5.")
    expect(page.locator(".kudos-balance")).to_have_text("30")
    page.screenshot(path=f"{SCREENS}/kudos-page-part2.png", full_page=True)

    # The shop: a card back, bought with the Kudos saved up (topped up here), worn at once.
    services.credit(
        user_id=otter.pk, amount=250, kind=Entry.Kind.PLAY, key="test:1", memo="Saved up"
    )
    page.goto(base + "/kudos/shop/")
    page.get_by_role("button", name="Buy Felt card back").click()
    expect(page.locator(".messages")).to_contain_text(
        "Bought: Felt card back for 250 Kudos. You are wearing it now."
    )
    expect(page.locator("[data-item='back-felt']")).to_contain_text("Yours")
    expect(page.locator("[data-balance]")).to_have_text("30")
    page.screenshot(path=f"{SCREENS}/kudos-shop.png", full_page=True)

    # The next table deals face down in the Felt back, and keeps it in pushed fragments.
    page.goto(base + "/")
    page.locator("form[action='/play/war/'] button").first.click()  # Quick
    page.wait_for_url("**/rooms/*/")
    backs = page.locator("section.war img.card[src*='/cards/back.svg']")
    expect(backs.first).to_be_visible()
    assert all("back=felt" in backs.nth(i).get_attribute("src") for i in range(backs.count()))
    seq = page.locator("#room-main").get_attribute("data-seq")
    page.get_by_role("button", name="Flip").click()
    page.wait_for_function(f"() => document.getElementById('room-main').dataset.seq !== '{seq}'")
    backs = page.locator("section.war img.card[src*='/cards/back.svg']")
    expect(backs.first).to_be_visible()
    assert all("back=felt" in backs.nth(i).get_attribute("src") for i in range(backs.count()))
    page.screenshot(path=f"{SCREENS}/kudos-back-at-table.png")
    page.goto(base + "/kudos/challenge/")
    expect(page.locator("[data-challenge]")).to_have_count(2)
    page.screenshot(path=f"{SCREENS}/kudos-challenge.png", full_page=True)
    context.close()
