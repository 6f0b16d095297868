"""Klondike in the browser: start from the home page, play by tapping, undo back to the deal."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from gameplay import services as gameplay
from lobby import services
from lobby.models import Room

from .phone import box

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A deal whose first column holds AC, which fits on t4's 2D: a move from the first tap.
SEED = "kl-ui-0"


def start_seeded(page: Page, base: str, seed: str) -> None:
    """One click on the home page starts a deal; swap it for a known one (same room)."""
    page.goto(base + "/")
    page.locator("form[action='/play/klondike/'] button").click()
    page.wait_for_url("**/rooms/*/")
    room = Room.objects.get(code=page.url.rstrip("/").split("/")[-1])
    gameplay.submit_action(game_id=room.game_id, seat=0, action={"type": "resign"}, seq=0)
    game = services.start_game(room=room, player=room.host, kind="klondike", seed=seed)
    page.wait_for_selector(
        f"section.kl[data-game='{game.pk}'][data-play='1'][data-kl-ready]", state="attached"
    )


def seq(page: Page) -> int:
    return int(page.locator("#room-main").get_attribute("data-seq"))


def wait_seq(page: Page, n: int) -> None:
    page.wait_for_function(f"() => document.getElementById('room-main').dataset.seq === '{n}'")
    page.wait_for_selector("section.kl[data-kl-ready]", state="attached")


def columns(page: Page) -> dict[str, list[str]]:
    """Each column's cards as the page shows them ("down" for a face-down card)."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.kl-col')].map(col =>
            [col.dataset.pile, [...col.querySelectorAll('.kl-c')].map(c => c.dataset.card || 'down')]))"""
    )


def test_tap_moves_draw_and_undo(page: Page, daphne_server, tmp_path):
    page.set_viewport_size({"width": 375, "height": 740})
    start_seeded(page, daphne_server, SEED)
    dealt = columns(page)
    assert [len(c) for c in dealt.values()] == [1, 2, 3, 4, 5, 6, 7]

    # Find a column-to-column move on the page, tap the card, then its destination.
    movable = json.loads(page.locator("#kl-movable").text_content())
    move = next(m for m in movable if m["from"].startswith("t") and m["to"])
    source = page.locator(f".kl-c[data-pile='{move['from']}'][data-count='{move['count']}']")
    card = source.get_attribute("data-card")
    to = next(t for t in move["to"] if t.startswith("t"))
    source.click()
    expect(source).to_have_class(re.compile(r"\bsel\b"))
    expect(page.locator(f".kl-col[data-pile='{to}']")).to_have_class(re.compile(r"\bkl-target\b"))
    page.locator(f".kl-col[data-pile='{to}']").click()
    wait_seq(page, 1)
    expect(page.locator(f".kl-col[data-pile='{to}'] .kl-c[data-card='{card}']")).to_be_visible()
    expect(page.locator("[data-kl-moves]")).to_have_text("1")

    # Tap the stock: a card turns onto the waste.
    page.locator(".kl-stock").click()
    wait_seq(page, 2)
    expect(page.locator(".kl-waste .kl-c")).to_have_count(1)
    page.screenshot(path=str(tmp_path / "klondike-phone.png"))

    # Undo twice: back to the deal.
    page.get_by_role("button", name="Undo").click()
    wait_seq(page, 3)
    page.get_by_role("button", name="Undo").click()
    wait_seq(page, 4)
    assert columns(page) == dealt
    expect(page.locator(".kl-waste .kl-c")).to_have_count(0)
    expect(page.get_by_role("button", name="Undo")).to_be_disabled()


def test_double_tap_and_drag(page: Page, daphne_server):
    page.set_viewport_size({"width": 1280, "height": 850})
    start_seeded(page, daphne_server, SEED)
    movable = json.loads(page.locator("#kl-movable").text_content())

    # Double-tap sends a card where "auto" says (here: onto a column).
    auto = next(m for m in movable if m["auto"])
    source = page.locator(f".kl-c[data-pile='{auto['from']}'][data-count='{auto['count']}']")
    card = source.get_attribute("data-card")
    source.dblclick()
    wait_seq(page, 1)
    expect(
        page.locator(f"[data-pile='{auto['auto']}'] > .kl-c[data-card='{card}']")
    ).to_be_visible()

    # Drag a card with the mouse and drop it on a legal column.
    movable = json.loads(page.locator("#kl-movable").text_content())
    move = next(m for m in movable if any(t.startswith("t") for t in m["to"]))
    source = page.locator(f".kl-c[data-pile='{move['from']}'][data-count='{move['count']}']")
    card = source.get_attribute("data-card")
    to = next(t for t in move["to"] if t.startswith("t"))
    before = seq(page)
    start = box(source)
    target = box(page.locator(f".kl-col[data-pile='{to}']"))
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 10)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 30, start["y"] + 40, steps=4)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] - 20, steps=6)
    page.mouse.up()
    wait_seq(page, before + 1)
    expect(page.locator(f".kl-col[data-pile='{to}'] .kl-c[data-card='{card}']")).to_be_visible()

    # The Hint button: advice in words, and the button comes back.
    board_y = box(page.locator(".kl-board"))["y"]
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#table-hint")).to_contain_text(
        re.compile("winning line|best guess|Finish")
    )
    expect(page.get_by_role("button", name="Hint")).to_be_enabled()
    # The hint lies over the table: the board does not move down.
    assert box(page.locator(".kl-board"))["y"] == pytest.approx(board_y, abs=1)


def test_keyboard_only(page: Page, daphne_server):
    """Every card that can move is a button: Tab reaches it, Enter picks it up, Tab reaches
    where it may go, Space puts it down, and the focus stays on the card that moved."""
    page.set_viewport_size({"width": 390, "height": 844})
    start_seeded(page, daphne_server, SEED)
    movable = json.loads(page.locator("#kl-movable").text_content())
    move = next(m for m in movable if any(t.startswith("t") for t in m["to"]))
    source = page.locator(f".kl-c[data-pile='{move['from']}'][data-count='{move['count']}']")
    card = source.get_attribute("data-card")
    to = next(t for t in move["to"] if t.startswith("t"))
    ups = page.locator(".kl-c.movable")
    assert ups.count() and ups.count() == page.locator(".kl-c.movable[tabindex='0']").count()

    page.locator(".kl-stock").focus()
    for _ in range(40):  # Tab through the table to the card
        page.keyboard.press("Tab")
        if source.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail(f"Tab never reached {card}")
    expect(source).to_have_attribute("role", "button")
    page.keyboard.press("Enter")
    expect(source).to_have_attribute("aria-pressed", "true")
    drop = page.locator(f".kl-col[data-pile='{to}'] [role=button][aria-label$='put it here']")
    for _ in range(40):
        page.keyboard.press("Tab")
        if drop.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail(f"Tab never reached column {to}")
    page.keyboard.press(" ")
    wait_seq(page, 1)
    moved = page.locator(f".kl-col[data-pile='{to}'] .kl-c[data-card='{card}']")
    expect(moved).to_be_visible()
    expect(moved).to_be_focused()
