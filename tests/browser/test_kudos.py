"""The header's Kudos slot in a browser: a game's pay and the day's streak reward, then the
balance and a bonus event updated live, without a reload."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts.models import User
from gameplay import hooks
from kudos import services
from kudos.models import BonusEvent, Entry
from tests.played import ended_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"


def test_the_header_follows_the_players_kudos_live(browser: Browser, daphne_server):
    otter = User.objects.create_user("otter", password="grey-Otter-71-lantern")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(daphne_server + "/accounts/login/")
    page.get_by_label("Username").fill("otter")
    page.get_by_label("Password").fill("grey-Otter-71-lantern")
    page.get_by_role("button", name="Sign in").click()
    slot = page.locator(".kudos-live")
    expect(slot.locator(".kudos-balance")).to_have_text("0")
    expect(page.locator("#kudos-slot[data-live]")).to_be_attached()  # the socket is open
    # Five minutes of War won, as a person plays it: 11 Kudos, doubled as the day's first win,
    # day 1 of the streak (10), and the badges of a first game (10) and a first win (15).
    game = ended_game(seats=[{"user_id": otter.pk}, {"bot": True}], winners=[0], seconds=300)
    hooks.deliver(game.pk)
    expect(slot.locator(".kudos-balance")).to_have_text("57")
    expect(slot.locator("[data-streak]")).to_contain_text("1")
    page.screenshot(
        path=f"{SCREENS}/kudos-header.png", clip={"x": 700, "y": 0, "width": 580, "height": 120}
    )

    expect(page.locator("#kudos-slot[data-live]")).to_be_attached()  # the socket sent it
    expect(slot.locator("[data-kudos-news]")).to_be_attached()  # and left the page's news be
    services.credit(
        user_id=otter.pk,
        amount=25,
        kind=Entry.Kind.PLAY,
        key="test:1",
        memo="Won War at a table of 2",
    )
    expect(slot.locator(".kudos-balance")).to_have_text("82")
    expect(slot.locator("[data-kudos-news]")).to_have_text("+25 Kudos: Won War at a table of 2")

    now = timezone.now()
    BonusEvent.objects.create(
        name="Double Kudos hour",
        multiplier=2,
        starts=now - timedelta(seconds=1),
        ends=now + timedelta(hours=1),
    )
    services.announce_bonus_events()
    expect(slot.locator("[data-bonus-event]")).to_have_text("×2 Double Kudos hour")

    page.goto(daphne_server + "/kudos/")
    expect(page.get_by_role("heading", name="Your Kudos")).to_be_visible()
    expect(page.locator("[data-balance]")).to_have_text("82")
    page.screenshot(path=f"{SCREENS}/kudos-page.png", full_page=True)
    page.goto(daphne_server + "/leaderboards/weekly/")
    expect(page.locator("table.leaderboard")).to_contain_text("otter")
