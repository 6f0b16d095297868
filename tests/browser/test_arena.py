"""An arena on a phone: open a live arena's page, join it, and find your own row highlighted in
the live standings beside another player's."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from arenas import services
from arenas.models import Arena

from .phone import PHONE, on_top, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_join_an_arena_on_a_phone_and_see_your_row(browser, daphne_server):
    now = timezone.now()
    arena = Arena.objects.create(
        name="Evening Gin",
        kind="gin",
        starts=now - timedelta(minutes=2),
        ends=now + timedelta(minutes=28),
        status=Arena.Status.LIVE,
        prizes=[100, 60, 40],
        min_games=3,
    )
    services.join(
        user=User.objects.create_user("otter", password="a long enough pw 1"), arena_id=arena.pk
    )
    signed_in = Client()
    signed_in.force_login(User.objects.create_user("wren", password="a long enough pw 1"))
    context = browser.new_context(**PHONE)
    context.add_cookies(
        [{"name": "sessionid", "value": signed_in.cookies["sessionid"].value, "url": daphne_server}]
    )
    page = context.new_page()
    try:
        page.goto(f"{daphne_server}/arenas/{arena.pk}/")
        expect(page.get_by_role("heading", name="Evening Gin")).to_be_visible()
        expect(page.locator("[data-standings] tr[data-player=otter]")).to_be_visible()
        join = page.get_by_role("button", name="Join the arena")
        on_top(join)
        join.click()
        mine = page.locator("[data-standings] tr.you")
        expect(mine).to_contain_text("wren")
        expect(mine).to_have_attribute("aria-current", "true")
        expect(page.get_by_role("button", name="Pause")).to_be_visible()
        expect(page.locator("[data-clock] [data-countdown]")).to_have_text(
            re.compile(r"^2\d:\d\d$")
        )
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        shot(page, "arena", full=True)
    finally:
        context.close()
