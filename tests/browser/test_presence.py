"""Presence as people see it: the host sees a guest who joined as here (the same green dot
the guest sees), a dropped seat says "reconnecting…", then "Computer playing for <name>", and
the table says "<name> is back" when they return."""

import re

import pytest
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def short_grace(monkeypatch):
    """For daphne and the worker both (the worker's check reads its own setting)."""
    monkeypatch.setenv("RECONNECT_GRACE", "2")


def test_presence_is_the_same_for_everyone_and_a_lost_seat_says_so(
    browser: Browser, short_grace, daphne_server, celery_worker_process
):
    host = browser.new_context().new_page()
    guest_context = browser.new_context()
    guest = guest_context.new_page()
    host.goto(daphne_server + "/")
    host.get_by_role("button", name="Create a room").click()
    code = host.locator("[data-room-code]").inner_text()
    guest.goto(daphne_server + "/")
    guest.get_by_label("Room code").fill(code)
    guest.get_by_role("button", name="Join").click()
    expect(guest).to_have_url(re.compile(f"/rooms/{code}/$"))
    # Both lists show both people here, green, without a reload.
    for page in (host, guest):
        expect(page.locator(".members li.online")).to_have_count(2)
    name = guest.locator(".members li", has_text="(you)").inner_text().split("\n")[0].strip()
    host.get_by_label(re.compile("War")).check()
    host.get_by_role("button", name="Start game").click()
    expect(guest.locator("#flip")).to_be_enabled()

    guest.close()  # the guest's connection drops
    expect(host.locator("[data-presence=reconnecting]")).to_have_text("reconnecting…")
    expect(host.locator("[data-presence=computer]")).to_have_text(
        re.compile(f"Computer playing for {re.escape(name)}"), timeout=15_000
    )
    guest = guest_context.new_page()
    guest.goto(f"{daphne_server}/rooms/{code}/")
    expect(host.locator(".table-notice")).to_have_text(f"{name} is back.")
    expect(host.locator("[data-presence]")).to_have_count(0)
    # The seat is theirs again. The computer may have flipped for them before they came back,
    # so the round may be waiting for the host: once the host flips, Flip is theirs to press.
    host.locator("#flip").click()
    expect(guest.locator("#flip")).to_be_enabled()
