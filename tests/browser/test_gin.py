"""Gin Rummy in the browser, on a phone: a hand against the computer to the score sheet (draw
from the stock, arrange the hand, discard, take the discard, knock), and a third person in the
room who only watches and sees no hidden card."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from gameplay import store
from gameplay.engine import registry
from lobby import services
from lobby.models import Room

from .phone import box

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
ENGINE = registry.get("gin")
# Seat 0 plays first. It draws from the stock and throws what it drew; the computer draws from
# the stock and throws the J♣; seat 0 takes the J♣ and can knock with the 7♥, and the computer
# lays off the K♠ (a knock worth 19).
SEED = "gin-ui-1931"


def room_of(page: Page) -> Room:
    return Room.objects.get(code=re.search(r"/rooms/([A-Z]{5})/", page.url).group(1))


def state_of(page: Page) -> dict:
    """The true game as the page shows it, at its seq (the test reads the log; the page never
    may): the computer may have moved on since."""
    return store.replay(room_of(page).game, upto=int(seq(page)))


def seq(page: Page) -> str:
    return page.locator("#room-main").get_attribute("data-seq")


def acted(page: Page, before: str) -> None:
    """Wait for the table after the action sent at ``before``."""
    page.wait_for_function(
        "seq => document.getElementById('room-main').dataset.seq !== seq", arg=before
    )
    page.wait_for_selector("section.rm[data-rm-ready]", state="attached")


def tap(page: Page, locator) -> None:
    """Tap something that sends an action, and wait for the new table."""
    before = seq(page)
    locator.tap()
    acted(page, before)


def hand(page: Page) -> list[str]:
    return page.locator("[data-hand] > li").evaluate_all("els => els.map(e => e.dataset.card)")


def bar_in_view(page: Page) -> None:
    bar = box(page.locator("[data-bar]"))
    assert bar["y"] >= 0 and bar["y"] + bar["height"] <= 844 + 1, bar


def assert_hidden(page: Page, seat: int | None) -> None:
    """The other hands are face down but for what they took from the discard pile, and the
    page names no card this seat may not see: not in an image, an attribute or a script."""
    # One look at the page (the computer may move on meanwhile), then the game at its seq.
    html, fans = page.evaluate(
        """() => [document.documentElement.outerHTML,
                  Object.fromEntries([...document.querySelectorAll('.rm-seat')].map(li =>
                    [li.dataset.seat, [...li.querySelectorAll('.rm-fan img.card')].map(
                      img => img.getAttribute('src').match(/cards\\/([^.]+)\\.svg/)[1])]))]"""
    )
    at = int(re.search(r'id="room-main" data-seq="(\d+)"', html).group(1))
    game = room_of(page).game
    state = store.replay(game, upto=at)
    for s in range(len(state["hands"])):
        if s == seat:
            continue
        faces = fans[str(s)]
        assert len(faces) == len(state["hands"][s])
        assert sorted(f for f in faces if f != "back") == sorted(state["took"][s])
    seen = set(registry.get(game.kind).visible_cards(state, seat))
    named = set(re.findall(r"/cards/([^.]+)\.svg", html)) - {"back"}
    named |= set(re.findall(r'data-card="([^"]+)"', html))
    named |= set(re.findall(r'"card": ?"([^"]+)"', html.replace("&quot;", '"')))
    assert not named - seen, f"cards this seat may not see: {named - seen}"


def test_a_hand_against_the_computer_on_a_phone(
    browser: Browser, daphne_server, celery_worker_process
):
    page = browser.new_context(**PHONE).new_page()
    page.goto(daphne_server + "/play/gin/")
    page.get_by_role("button", name="Play").click()
    page.wait_for_url("**/rooms/*/")
    # Swap the random deal for a known one in the same room.
    room = room_of(page)
    services.back_to_lobby(room=room, player=room.host)
    game = services.start_game(room=room, player=room.host, kind="gin", seed=SEED)
    page.wait_for_selector(f"section.rm[data-game='{game.pk}'][data-rm-ready]", state="attached")
    section = page.locator("section.rm")
    view = ENGINE.view(state_of(page), 0)

    # The table: the computer's ten cards face down, the piles, my hand with its melds lit
    # and the deadwood counted, and what to do now.
    expect(page.locator(".rm-seat .bot-tag")).to_have_text("CPU · Medium")
    expect(page.locator(".rm-seat .rm-fan img.card")).to_have_count(10)
    expect(page.locator("[data-hand] > li")).to_have_count(10)
    expect(page.locator("[data-loose]")).to_have_text(str(view["you"]["deadwood"]))
    melded = sum(len(m["positions"]) for m in view["you"]["melds"])
    expect(page.locator("[data-hand] > li.in-meld")).to_have_count(melded)
    expect(page.locator("[data-say]")).to_contain_text("Your turn: draw from the stock")
    expect(page.locator(".rm-discard img.card")).to_have_attribute(
        "src", re.compile(f"/cards/{view['discard_top']}.svg")
    )
    expect(page.locator("[data-sheet]")).to_contain_text("No hand scored yet.")
    bar_in_view(page)
    assert_hidden(page, 0)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    SCREENS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENS / "gin-phone-start.png"))

    # Tap the stock: the new card is marked, and nothing can be thrown before a card is picked.
    tap(page, page.locator(".rm-stock"))
    expect(section).to_have_attribute("data-step", "discard")
    expect(page.locator("[data-hand] > li")).to_have_count(11)
    drawn = state_of(page)["hands"][0][-1]
    new = page.locator(f"[data-hand] > li[data-card='{drawn}']")
    expect(new.locator(".rm-tag")).to_have_text("New")
    discard = page.locator("[data-throw='discard']")
    expect(discard).to_be_disabled()

    # Arrange: pick the first card and move it right with the arrow, drag the last card to
    # the front. Only this page changes: the game's state doesn't.
    order = hand(page)
    seq_before = seq(page)
    first = page.locator(f"[data-hand] > li[data-card='{order[0]}']")
    first.tap()
    expect(first).to_have_class(re.compile(r"\bpicked\b"))
    page.locator("[data-shift='1']").tap()
    assert hand(page) == [order[1], order[0], *order[2:]]
    first.tap()  # put it down again
    expect(first).not_to_have_class(re.compile(r"\bpicked\b"))
    last = page.locator("[data-hand] > li").last
    start = box(last)
    to = box(page.locator("[data-hand] > li").first)
    page.mouse.move(start["x"] + 10, start["y"] + 20)
    page.mouse.down()
    page.mouse.move(start["x"] - 40, start["y"] + 20, steps=4)
    page.mouse.move(to["x"] + 2, to["y"] + 20, steps=6)
    page.mouse.up()
    arranged = [order[-1], order[1], order[0], *order[2:-1]]
    assert hand(page) == arranged
    assert seq(page) == seq_before and not page.locator(".rm-ghost").count()

    # Pick the drawn card and tap the discard pile: it is thrown.
    new.tap()
    expect(discard).to_have_text(f"Discard {new.get_attribute('data-label')}")
    expect(page.locator("[data-staged]")).to_have_text(new.get_attribute("data-label"))
    tap(page, page.locator(".rm-discard"))
    assert state_of(page)["discard"][-1] == drawn

    # The computer draws and throws; my order survived the new table.
    page.wait_for_selector("section.rm[data-step='draw']", state="attached")
    assert hand(page) == [c for c in arranged if c != drawn]
    turn = state_of(page)["turns"][-1]
    label = page.locator(".rm-discard").get_attribute("aria-label")
    expect(page.locator("[data-say]")).to_contain_text("Cubot drew from the stock and threw the")
    assert turn == {"seat": 1, "drew": "stock", "took": None, "discarded": "JC"}, turn
    assert "Jack of Clubs on top" in label
    expect(page.locator(".rm-seat .rm-did")).to_contain_text("Drew from the stock, threw the J♣")
    bar_in_view(page)
    assert_hidden(page, 0)

    # Take the J♣ (the bar's button): marked as taken, it may not be thrown back.
    tap(page, page.get_by_role("button", name="Take the J♣"))
    taken = page.locator("[data-hand] > li[data-card='JC']")
    expect(taken).to_have_class(re.compile(r"\bkeep\b"))
    expect(taken.locator(".rm-tag")).to_have_text("Taken")
    taken.tap()
    expect(discard).to_be_disabled()
    expect(page.locator("[data-pick-say]")).to_have_text(
        "You can't throw back the J♣ you just took."
    )
    expect(page.locator("[data-throw='end']")).to_be_hidden()

    # Sort puts the melds first again, as the solver arranges them.
    page.get_by_role("button", name="Sort").tap()
    assert hand(page) == [i["card"] for i in ENGINE.view(state_of(page), 0)["you"]["hand"]]

    # Knock with the 7♥, a card marked Knock.
    seven = page.locator("[data-hand] > li[data-card='7H']")
    expect(seven.locator(".rm-tag")).to_have_text("Knock")
    expect(page.locator("[data-say]")).to_contain_text("you can knock")
    seven.tap()
    knock = page.locator("[data-throw='end']")
    after = ENGINE.view(state_of(page), 0)["you"]["hand"]
    points = next(i["after"] for i in after if i["card"] == "7H")
    expect(knock).to_have_text(f"Knock ({points})")
    bar_in_view(page)
    page.screenshot(path=str(SCREENS / "gin-phone-knock.png"))
    tap(page, knock)

    # The hand's end: both hands shown with their melds, the lay-off and the points; the
    # score sheet has its first line; the next hand is dealt.
    last = state_of(page)["last_hand"]
    assert last["outcome"] == "knock" and last["knocker"] == 0 and last["winner"] == 0
    reveal = page.locator("[data-last-hand]")
    expect(reveal).to_have_attribute("open", "")
    expect(reveal.locator("summary")).to_contain_text(
        f"Hand 1: you knocked — you score {last['points']}."
    )
    for s in (0, 1):
        shown = reveal.locator(f"[data-shown-seat='{s}']")
        expect(shown.locator(".rm-group.meld")).to_have_count(len(last["hands"][s]["melds"]))
        expect(shown).to_contain_text(f"Deadwood {last['hands'][s]['deadwood_points']}")
    laid = reveal.locator("[data-shown-seat='1'] .rm-group.laid img.card")
    expect(laid).to_have_count(len(last["hands"][1]["laid_off"]))
    assert last["hands"][1]["laid_off"], "this deal has a lay-off"
    row = page.locator("[data-sheet] tbody tr").first
    expect(row).to_contain_text(f"+{last['points']}")
    expect(row).to_contain_text("knock")
    expect(page.locator("[data-sheet] tfoot")).to_contain_text(str(last["points"]))
    expect(page.locator(".rm-chip").first).to_contain_text("Hand 2")
    assert_hidden(page, 0)
    page.screenshot(path=str(SCREENS / "gin-phone-hand-end.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(SCREENS / "gin-desktop-hand-end.png"), full_page=True)


def test_a_third_person_watches_and_sees_nothing_hidden(browser: Browser, daphne_server):
    pages = [browser.new_context(**PHONE).new_page() for _ in range(3)]
    host, other, watcher = pages
    host.goto(daphne_server + "/")
    host.get_by_role("button", name="Create a room").click()
    code = host.locator("[data-room-code]").inner_text()
    for page in (other, watcher):
        page.goto(daphne_server + "/")
        page.get_by_label("Room code").fill(code)
        page.get_by_role("button", name="Join").click()
    expect(host.locator(".members li")).to_have_count(3)
    host.get_by_label(re.compile("Gin Rummy")).check()
    host.get_by_role("button", name="Start game").click()
    for page in pages:
        page.wait_for_selector("section.rm[data-rm-ready]", state="attached")

    # Two seats; the third person watches: both hands face down, no hand of their own, no bar.
    expect(watcher.locator(".table-bar .badge")).to_have_text("Watching")
    expect(watcher.locator(".rm-seat")).to_have_count(2)
    expect(watcher.locator(".rm-seat .rm-fan img.card")).to_have_count(20)
    expect(watcher.locator("[data-hand], [data-bar]")).to_have_count(0)
    assert_hidden(watcher, None)

    # Whoever plays first takes the up-card: the watcher sees it, face up, in that hand.
    state = state_of(host)
    first = ENGINE.to_act(state)[0]
    up = state["discard"][-1]
    player = host if first == 0 else other
    tap(player, player.locator(".rm-discard"))
    fan = watcher.locator(f".rm-seat[data-seat='{first}'] .rm-known img.card")
    expect(fan).to_have_attribute("src", re.compile(f"/cards/{up}.svg"))
    # It throws another card; the watcher is told.
    card = next(c for c in hand(player) if c != up)
    player.locator(f"[data-hand] > li[data-card='{card}']").tap()
    tap(player, player.locator("[data-throw='discard']"))
    expect(watcher.locator(f".rm-seat[data-seat='{first}'] .rm-did")).to_contain_text("Took the ")
    assert_hidden(watcher, None)
    assert_hidden(player, first)
    watcher.screenshot(path=str(SCREENS / "gin-phone-watching.png"), full_page=True)
