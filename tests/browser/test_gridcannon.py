"""Gridcannon in the browser: start from the home page, set up the grid, draw and place a card."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from gameplay import services as gameplay
from lobby import services
from lobby.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A deal with one royal to place at setup (a choice of spots), then a 6C drawn first.
SEED = "gc-ui-0"


def seq(page: Page) -> int:
    return int(page.locator("#room-main").get_attribute("data-seq"))


def wait_next(page: Page, before: int) -> None:
    page.wait_for_function(
        f"() => Number(document.getElementById('room-main').dataset.seq) > {before}"
    )
    page.wait_for_selector("section.gc[data-gc-ready]", state="attached")


def legal(page: Page) -> list[dict]:
    return json.loads(page.locator("#gc-legal").text_content())


def view(page: Page) -> dict:
    return json.loads(page.locator("#gc-view").text_content())


def test_setup_draw_and_place(page: Page, daphne_server):
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(daphne_server + "/")
    page.locator("form[action='/play/gridcannon/'] button").click()
    page.wait_for_url("**/rooms/*/")
    expect(page.locator("section.gc")).to_be_visible()
    # Swap the random deal for a known one in the same room.
    room = Room.objects.get(code=page.url.rstrip("/").split("/")[-1])
    gameplay.submit_action(game_id=room.game_id, seat=0, action={"type": "resign"}, seq=0)
    game = services.start_game(room=room, player=room.host, kind="gridcannon", seed=SEED)
    page.wait_for_selector(
        f"section.gc[data-game='{game.pk}'][data-play='1'][data-gc-ready]", state="attached"
    )

    # Setup: the royal goes on one of its glowing spots, then keep the grid.
    spots = [a["spot"] for a in legal(page) if a["type"] == "place_royal"]
    assert len(spots) > 1
    for spot in spots:
        expect(page.locator(f"[data-spot='{spot}']")).to_have_class(re.compile(r"\bgc-target\b"))
    # Each glowing spot is a button for the keyboard: Enter on it places the royal.
    spot = page.locator(f"[data-spot='{spots[0]}']")
    expect(spot).to_have_attribute("role", "button")
    expect(spot).to_have_attribute("tabindex", "0")
    expect(spot).to_have_attribute("aria-label", re.compile(r"^Royal spot: "))
    before = seq(page)
    spot.focus()
    page.keyboard.press("Enter")
    wait_next(page, before)
    assert view(page)["spots"][spots[0]]["royal"]
    # The log speaks in places, and says what a royal's numbers are.
    expect(page.locator(".gc-log")).to_contain_text(
        re.compile(r"takes its place (above|below|left of|right of) the")
    )
    expect(page.locator(".gc-key")).to_contain_text("the Attack lined up against it now")
    before = seq(page)
    page.get_by_role("button", name="Keep the grid").click()
    wait_next(page, before)
    assert view(page)["phase"] == "play"

    # Draw, then tap the drawn card and a glowing grid position.
    before = seq(page)
    page.get_by_role("button", name="Draw", exact=True).click()
    wait_next(page, before)
    drawn = view(page)["waiting"]
    places = [p["pos"] for p in view(page)["placements"]]
    assert drawn and places
    page.locator("[data-gc-drawn]").click()
    target = page.locator(f"[data-pos='{places[0]}']")
    expect(target).to_have_class(re.compile(r"\bgc-target\b"))
    before = seq(page)
    target.click()
    wait_next(page, before)
    after = view(page)
    assert after["grid"][places[0]]["top"] == drawn
    assert after["waiting"] is None
    expect(page.get_by_role("button", name="Draw", exact=True)).to_be_visible()
