"""Finding people in the browser: a host lists a table, another person sees it appear on
/tables/ without reloading and joins in one click, a third watches the game and the host sees
them counted; quick play's waiting page. Screenshots go to a temporary folder."""

import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(tempfile.gettempdir()) / "cubiccards-tables"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 850}}


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_list_join_watch_and_count(browser: Browser, daphne_server):
    SHOTS.mkdir(exist_ok=True)
    host = browser.new_context(**DESKTOP).new_page()
    guest = browser.new_context(**PHONE).new_page()
    watcher = browser.new_context(**PHONE).new_page()

    guest.goto(daphne_server + "/tables/")
    expect(guest.locator("#open-tables")).to_contain_text("No table is waiting")

    host.goto(daphne_server + "/")
    host.get_by_role("button", name="Create a room").click()
    code = host.locator("[data-room-code]").inner_text()
    host.get_by_label(re.compile("War")).check()
    host.get_by_role("button", name="List as an open table").click()
    expect(host.locator(".public-table")).to_contain_text("Listed on Open tables")
    host.screenshot(path=SHOTS / "room-listed-desktop.png")

    # The list shows it without a reload.
    row = guest.locator(f'.open-table[data-code="{code}"]')
    expect(row).to_contain_text("War")
    expect(row).to_contain_text("3 of 4 seats free")
    guest.screenshot(path=SHOTS / "tables-phone.png")
    no_sideways_scroll(guest)
    row.get_by_role("button", name=re.compile("Join")).click()
    expect(guest).to_have_url(re.compile(f"/rooms/{code}/$"))
    expect(host.locator(".members li")).to_have_count(2)

    host.get_by_role("button", name="Start game").click()
    expect(host.locator("#flip")).to_be_enabled()

    watcher.goto(f"{daphne_server}/rooms/{code}/watch/")
    expect(watcher.locator(".table-bar")).to_contain_text("Watching")
    expect(watcher.locator("#flip")).to_have_count(0)
    expect(host.locator("#watching")).to_contain_text("1 watching")
    watcher.screenshot(path=SHOTS / "watch-phone.png")
    host.screenshot(path=SHOTS / "room-watched-desktop.png")
    no_sideways_scroll(watcher)


def test_quick_play_waiting_page(browser: Browser, daphne_server):
    from django.test import Client

    from accounts.models import User

    signed_in = Client()
    signed_in.force_login(User.objects.create_user("quinn", password="a long enough pw 1"))
    session = signed_in.cookies["sessionid"].value
    for name, options in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(**options)
        context.add_cookies([{"name": "sessionid", "value": session, "url": daphne_server}])
        page = context.new_page()
        page.goto(daphne_server + "/quick/gin/")
        page.get_by_role("button", name="Find players").click()
        expect(page.get_by_role("button", name="Play now with computers")).to_be_visible()
        page.screenshot(path=SHOTS / f"quick-{name}.png")
        no_sideways_scroll(page)
        page.get_by_role("button", name="Keep waiting").click()
        expect(page.get_by_role("button", name="Play now with computers")).to_be_hidden()
        if name == "desktop":
            page.get_by_role("button", name="Stop waiting").click()
            expect(page.locator(".messages")).to_contain_text("You stopped waiting.")
            context.close()
            continue
        page.reload()
        page.get_by_role("button", name="Play now with computers").click()
        expect(page).to_have_url(re.compile(r"/rooms/[A-Z]{5}/$"))
        expect(page.locator(".table-bar")).to_contain_text("Gin Rummy")
        page.screenshot(path=SHOTS / "quick-seated-phone.png")
        context.close()
