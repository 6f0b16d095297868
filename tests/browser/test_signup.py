import re

import pytest
from playwright.sync_api import Page, expect

from gameplay.engine import registry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_and_see_name_in_header(page: Page, live_server, tmp_path):
    page.goto(live_server.url + "/")
    games = len(registry.kinds())
    heading = page.get_by_role("heading", name=re.compile(f"{games} card games"))
    expect(heading).to_be_visible()
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("otter")
    page.get_by_label("Password", exact=True).fill("grey-Otter-71-lantern")
    page.get_by_label("Password confirmation").fill("grey-Otter-71-lantern")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("[data-username]")).to_have_text("otter")
