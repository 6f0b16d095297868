"""Playing the shedding table (Crazy 8, 8 Américain and their presets) in a browser as a
person would: a simple, fixed way of choosing moves, the clicks that make each move, and a
check on the engine alone that a seed still leads to the moments a test is about."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from gameplay.engine import registry
from gameplay.models import GameEvent
from lobby import services
from lobby.models import Room

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"


def choose(legal: list[dict]) -> dict:
    """The person's move: name the first suit asked for; when a call is due, call and play the
    first card that may go; else the first playable card (a wild one with the first suit);
    else take, draw or pass."""
    suits = [a for a in legal if a["type"] == "choose_suit"]
    if suits:
        return suits[0]
    plays = [a for a in legal if a["type"] == "play"]
    if any(a.get("knock") for a in plays):
        plays = [a for a in plays if a.get("knock")]
    if plays:
        return plays[0]
    for kind in ("take", "draw", "pass"):
        if {"type": kind} in legal:
            return {"type": kind}
    raise AssertionError(f"No move in {legal}")


def moments(kind: str, seed: str, rules: dict | None, players: int = 2) -> dict[str, int]:
    """Play round 1 on the engine alone, seat 0 by ``choose`` and the others as the computer
    plays them; the turn (1, 2, ...) at which seat 0 first played a wild card, knocked, took a
    penalty, and the turns it took in all."""
    engine = registry.get(kind)
    state = engine.new_game(players, seed, rules)
    seen: dict[str, int] = {}
    turns = 0
    while not engine.is_over(state) and state["round"] == 1:
        seat = engine.to_act(state)[0]
        if seat:
            engine.apply(state, seat, engine.bot_action(state, seat))
            continue
        turns += 1
        action = choose(engine.legal_actions(state, 0))
        if action["type"] == "play" and "suit" in action:
            seen.setdefault("wild", turns)
        if action.get("knock"):
            seen.setdefault("knock", turns)
        if action["type"] == "take":
            seen.setdefault("take", turns)
        engine.apply(state, 0, action)
    seen["turns"] = turns
    return seen


def start_seeded(
    page: Page, base: str, kind: str, seed: str, rules: dict | None, seats: int = 2
) -> int:
    """From the game's /play/ page against the computer, then the same private room dealt from
    a known seed; returns the game's id."""
    page.goto(f"{base}/play/{kind}/")
    page.locator("select[name=seats]").select_option(str(seats))
    if rules:
        page.locator("select[name=rule_mode]").select_option(json.dumps(rules["mode"]))
    page.get_by_role("button", name="Play").click()
    page.wait_for_url("**/rooms/*/")
    expect(page.locator("section.s8")).to_be_visible()
    room = Room.objects.get(code=page.url.rstrip("/").split("/")[-1])
    services.back_to_lobby(room=room, player=room.host)
    game = services.start_game(
        room=room, player=room.host, kind=kind, seats=seats, rules=rules, seed=seed
    )
    page.wait_for_selector(f"section.s8[data-game='{game.pk}']")
    return game.pk


def shoot(page: Page, name: str, full: bool = False) -> None:
    """Save a screenshot once every card image on the page has loaded."""
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=full)


def legal(page: Page) -> list[dict]:
    return json.loads(page.locator("#s8-legal").text_content())


def seq(page: Page) -> str:
    return page.locator("#room-main").get_attribute("data-seq")


def wait_for_me(page: Page) -> bool:
    """Wait until the person may act (True) or round 1 is over (False)."""
    page.wait_for_function(
        """() => {
          const t = document.querySelector('section.s8');
          const main = document.getElementById('room-main');
          if (!t) return false;
          if (main.dataset.over === '1' || t.dataset.round !== '1') return true;
          return JSON.parse(document.getElementById('s8-legal').textContent).length > 0;
        }"""
    )
    table = page.locator("section.s8")
    over = page.locator("#room-main").get_attribute("data-over") == "1"
    return not over and table.get_attribute("data-round") == "1"


def wait_after(page: Page, before: str) -> None:
    page.wait_for_function(
        "seq => document.getElementById('room-main').dataset.seq !== seq", arg=before
    )


def bar_in_view(page: Page) -> None:
    """The buttons are wholly on screen (a phone keeps them at the bottom of the view)."""
    expect(page.locator(".s8-controls")).to_be_in_viewport(ratio=1)


def make(page: Page, action: dict, keyboard: bool = False, shot: str = "") -> None:
    """Make one move through the table, as a player would; ``shot`` names screenshots of the
    moment before it (the suit picker open, the penalty shown)."""
    before = seq(page)
    kind = action["type"]
    if kind == "choose_suit":
        page.locator(f".s8-picker .s8-suit-{action['suit']}").click()
    elif kind == "play":
        if action.get("knock"):
            knock = page.locator("[data-knock]")
            expect(knock).to_have_attribute("aria-pressed", "false")
            knock.click()
            expect(knock).to_have_attribute("aria-pressed", "true")
            if shot:
                shoot(page, f"{shot}-knock")
        card = page.locator(f".s8-card[data-card='{action['card']}']")
        expect(card).to_have_class(re.compile(r"\bplayable\b"))
        if keyboard:
            card.focus()
            page.keyboard.press("Enter")
        else:
            card.click(position={"x": 12, "y": 50})  # the part a fanned card shows
        if "suit" in action:
            picker = page.locator("[data-picker]")
            expect(picker).to_be_visible()
            expect(picker).to_contain_text("Name the suit")
            first = picker.locator("[data-suit]").first
            if keyboard:
                expect(first).to_be_focused()
            if shot:
                shoot(page, f"{shot}-suit-picker")
            suit = picker.locator(f"[data-suit='{action['suit']}']")
            if keyboard:
                suit.focus()
                page.keyboard.press("Enter")
            else:
                suit.click()
    else:
        button = page.locator(f"#{kind}")
        expect(button).to_be_enabled()
        if kind == "take" and shot:
            shoot(page, f"{shot}-penalty")
        button.click()
    wait_after(page, before)


def watch(page: Page, *selectors: str) -> None:
    """Keep every text the ``selectors`` show from now on, one line a redraw. The computer
    moves about 50 ms after you here, sooner than a check of what the table shows now can be
    sure to look."""
    page.evaluate(
        """sels => {
          window.shown = [];
          const note = () => window.shown.push(sels.map((sel) => {
            const e = document.querySelector(sel);
            return e ? e.textContent.replace(/\\s+/g, ' ').trim() : '';
          }).join(' | '));
          new MutationObserver(note).observe(document.body, {childList: true, subtree: true});
        }""",
        list(selectors),
    )


def was_shown(page: Page, text: str) -> None:
    """What ``watch`` follows showed ``text`` at some redraw since."""
    page.wait_for_function("t => window.shown.some((s) => s.includes(t))", arg=text)


def my_actions(game_id: int) -> list[dict]:
    """What seat 0 sent, in order, from the game's log."""
    return list(
        GameEvent.objects.filter(game_id=game_id, seat=0)
        .order_by("seq")
        .values_list("action", flat=True)
    )
