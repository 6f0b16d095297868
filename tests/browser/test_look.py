"""How the site looks on a phone and on a desktop: the home page, Who's on which card, a rules
page and a War table. Each page is saved to screenshots/ for review; the test checks what a
screenshot can't: no sideways scrolling on a phone, every card image loaded and named for
screen readers, the keyboard reaching the page, and the card style form working."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"
SIZES = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 850}},
}
PAGES = {"home": "/", "cards": "/cards/", "rules-war": "/rules/war/"}


def _open(browser: Browser, size: str) -> Page:
    return browser.new_context(**SIZES[size]).new_page()


def _look(page: Page, name: str, size: str) -> None:
    """Load every image, check the page, then save a full-page screenshot."""
    page.evaluate(
        """() => Promise.all([...document.images].map((img) => {
             img.loading = "eager";
             return img.complete ? null : new Promise((done) => {
               img.addEventListener("load", done); img.addEventListener("error", done);
             });
           }))"""
    )
    cards = page.locator("img.card")
    report = cards.evaluate_all(
        """els => els.map(e => ({src: e.getAttribute("src"), alt: (e.alt || "").trim(),
                                  loaded: e.complete && e.naturalWidth > 0}))"""
    )
    assert report, f"{name}: no card images"
    nameless = [r["src"] for r in report if not r["alt"]]
    assert not nameless, f"{name}: card images without alt text: {nameless}"
    broken = [r["src"] for r in report if not r["loaded"]]
    assert not broken, f"{name}: card images that did not load: {broken}"
    SCREENS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENS / f"look-{name}-{size}.png"), full_page=True)
    if size == "phone":
        wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"{name}: the phone scrolls sideways ({wide[0]} > {wide[1]})"


@pytest.mark.parametrize("size", SIZES)
def test_pages_look_right(browser: Browser, live_server, size: str):
    page = _open(browser, size)
    for name, path in PAGES.items():
        response = page.goto(live_server.url + path)
        assert response.ok, f"{path}: {response.status}"
        _look(page, name, size)
    # The first Tab reaches the skip link, and the skip link leads to the content.
    page.goto(live_server.url + "/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.context.close()


def test_card_style_by_keyboard(browser: Browser, live_server):
    page = _open(browser, "phone")
    page.goto(live_server.url + "/cards/")
    switch = page.get_by_role("switch", name="Four-colour suits")
    expect(switch).not_to_be_checked()
    preview = page.locator("#style-preview img.card")
    expect(preview).to_have_count(4)
    expect(preview.nth(2)).not_to_have_attribute("src", re.compile("four=1"))

    # Classic is free; the others are sold in the Kudos shop.
    expect(page.get_by_role("radio", name="Classic")).to_be_checked()
    for back in ("Felt", "Nebula", "Gold", "Critters"):
        expect(page.get_by_role("radio", name=back)).to_be_disabled()
    shop = page.locator(".back-option.locked .in-shop").first
    expect(shop).to_have_text("In the Kudos shop")
    expect(shop).to_have_attribute("href", "/kudos/shop/#back-felt")

    switch.focus()
    page.keyboard.press("Space")
    expect(switch).to_be_checked()
    # The preview follows the switch before anything is saved.
    expect(preview.nth(2)).to_have_attribute("src", re.compile(r"/cards/QD\.svg\?four=1"))
    expect(page.locator(".creature img.card[src^='/cards/5D.svg']")).not_to_have_attribute(
        "src", re.compile("four=1")
    )
    page.get_by_role("button", name="Save card style").press("Enter")

    expect(page).to_have_url(re.compile(r"/cards/$"))
    expect(page.locator(".messages")).to_contain_text("Card style saved: four-colour suits")
    expect(page.get_by_role("switch", name="Four-colour suits")).to_be_checked()
    expect(page.locator(".creature img.card[src^='/cards/5D.svg']")).to_have_attribute(
        "src", re.compile("four=1")
    )
    _look(page, "cards-four-colour", "phone")

    # Every other page uses the saved style too.
    page.goto(live_server.url + "/rules/poker/")
    clubs_and_diamonds = page.locator("img.card[src*='D.svg'], img.card[src*='C.svg']")
    assert clubs_and_diamonds.count() > 0
    for src in clubs_and_diamonds.evaluate_all("els => els.map(e => e.getAttribute('src'))"):
        assert "four=1" in src, src
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_war_table_looks_right(browser: Browser, daphne_server, size: str):
    page = _open(browser, size)
    page.goto(daphne_server + "/")
    war = page.locator(".game-tile[data-kind='war']")
    war.get_by_role("button", name="Play vs computer").click()
    expect(page).to_have_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    flip = page.locator("#flip")
    expect(flip).to_be_enabled()
    _look(page, "war", size)

    flip.click()
    expect(page.locator(".seat.you .seat-state")).to_have_text("Flipped ✓")
    _look(page, "war-flipped", size)
    page.context.close()
