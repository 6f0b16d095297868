"""Friends on a phone: two people become friends from a profile, one invites the other to a
table from the room, the invitation appears live on the other's page (the header socket), and
Join seats them at the table."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tests.browser.phone import DESKTOP, PHONE, on_top, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "grey-Otter-71-lantern"


def signed_in(browser: Browser, base: str, name: str) -> Page:
    page = browser.new_context(**PHONE).new_page()
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#kudos-slot[data-live]")).to_be_attached()  # the header socket is open
    return page


def test_two_friends_one_invites_the_other_who_joins_from_the_toast(
    browser: Browser, daphne_server
):
    Path("/tmp/phone").mkdir(exist_ok=True)
    for name in ("otter", "heron"):
        User.objects.create_user(name, password=PASSWORD)
    otter = signed_in(browser, daphne_server, "otter")
    heron = signed_in(browser, daphne_server, "heron")

    otter.goto(daphne_server + "/u/heron/")
    otter.get_by_role("button", name="Add friend").click()
    expect(otter.locator(".messages")).to_contain_text("Friend request sent to heron.")
    otter.screenshot(path="/tmp/phone/friends-profile-phone.png")  # (lazy card art: no shot())
    heron.goto(daphne_server + "/friends/")
    heron.get_by_role("button", name="Accept").click()
    expect(heron.locator("[data-friend=otter]")).to_contain_text("online")
    shot(heron, "friends-page-phone", full=True)

    heron.goto(daphne_server + "/tables/")  # elsewhere on the site
    expect(heron.locator("#kudos-slot[data-live]")).to_be_attached()
    otter.goto(daphne_server + "/")
    otter.get_by_role("button", name="Create a room").click()
    code = otter.locator("[data-room-code]").inner_text()
    invite = otter.get_by_role("button", name="Invite heron")
    invite.scroll_into_view_if_needed()
    on_top(invite)
    invite.click()
    expect(otter.locator(".messages")).to_contain_text("Invitation sent to heron.")
    expect(otter.locator(".invite-list")).to_contain_text("invited")

    toast = heron.locator(".invite-toast")
    expect(toast).to_contain_text(f"otter invites you to their table {code}")
    join = toast.get_by_role("button", name="Join")
    on_top(join)
    shot(heron, "friends-invitation-phone")
    join.click()
    expect(heron).to_have_url(re.compile(f"/rooms/{code}/$"))
    expect(heron.locator(".members li", has_text="(you)")).to_contain_text("heron")
    expect(otter.locator(".members li")).to_have_count(2)  # the host sees them arrive, live
    expect(otter.locator(".members li.online")).to_have_count(2)
    expect(otter.get_by_role("button", name="Invite heron")).to_have_count(0)  # here now
    shot(heron, "friends-joined-phone")

    # The same pages on a desktop screen.
    for page in (otter, heron):
        page.set_viewport_size(DESKTOP["viewport"])
    heron.goto(daphne_server + "/friends/")
    shot(heron, "friends-page-desktop", full=True)
    shot(otter, "friends-room-desktop", full=True)
