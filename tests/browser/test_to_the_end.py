"""Whole games on a phone (390×844, touch), played only by tapping what a person sees: no
socket message, no script call, no peek at the legal moves. Before each tap the test checks
that the control is what a finger at its centre lands on (nothing drawn over it) and that the
table's buttons are on screen; at the end, Play again.

Covered, each also at 1280×850 (touch) but where two games share one table template (8
Américain Crazy 8's, Thirteen Gin's): Crazy 8 (its preset: one round, first out wins), 8
Américain (custom: one round, wins counted), War (Quick: 50 rounds), Blackjack (a hand, then
Cash out), Gridcannon (a whole deal, started from its home tile), at their Quick lengths Gin
Rummy (first to 25), Thirteen (3 rounds), Poker (30 chips each) and Cardice (one hand), and
Klondike (a whole winnable deal) played by a simple rule on the cards face up: see
docs/games.md, "On a phone"."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from gameplay import services as gameplay
from gameplay.engine import registry
from gameplay.engine.cards import HIDDEN
from lobby import services
from lobby.models import Room

from .phone import DESKTOP, PHONE, box, on_top, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MY_TURN_OR_OVER = """() => {
  const main = document.getElementById('room-main');
  return main.dataset.over === '1' || (main.dataset.turn === 'Your turn' && !main.querySelector('.sent'));
}"""


def seq(page: Page) -> str:
    return page.locator("#room-main").get_attribute("data-seq")


def after(page: Page, before: str) -> None:
    page.wait_for_function(
        "seq => document.getElementById('room-main').dataset.seq !== seq", arg=before
    )


def tap(control, x: float | None = None, y: float | None = None) -> None:
    """Check that a finger lands on the control, then tap it there."""
    on_top(control, x, y)
    if x is None:
        control.tap()
    else:
        control.tap(position={"x": x, "y": y})


def start(page: Page, base: str, kind: str, choices: dict[str, str]) -> None:
    """The game's /play/ page: pick the options by their labels, Play, then Speed Play Instant."""
    page.goto(f"{base}/play/{kind}/")
    for label, option in choices.items():
        field = page.locator("label").filter(has_text=re.compile(rf"^\s*{label}\b"))
        field.locator("select").select_option(label=option)
    play = page.get_by_role("button", name="Play", exact=True)
    play.scroll_into_view_if_needed()  # below the options: the thumb scrolls to it
    tap(play)
    page.wait_for_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    # The socket's first view replaces the page's table, and each computer move at the normal
    # pace the select with it: pick Instant once the table is live, again if a view took it.
    page.wait_for_selector("#room[data-live]", state="attached")
    speed = page.get_by_label("How fast the computer players move")
    # A computer may end a quick game on its very first turn (Gin: a knock worth 25 or more
    # from a lucky deal): then there is no pace left to set.
    over = page.locator('#room-main[data-over="1"]')
    for _ in range(10):
        if over.count():
            return
        try:
            speed.select_option("instant", timeout=3000)
            break
        except PlaywrightTimeout:
            continue
    if not over.count():
        expect(speed).to_have_value("instant")


def the_end(page: Page, name: str) -> None:
    over = page.locator(".game-over h2")
    expect(over).to_be_visible()
    shot(page, f"{name}-over-{page.viewport_size['width']}")
    again = page.get_by_role("button", name="Play again")
    expect(again).to_be_in_viewport()
    on_top(again)


def play_shedding(page: Page) -> int:
    """Tap a glowing card (with the call when it is due, and the first suit for a wild card);
    with none, the table's button (take, draw or pass). Returns the moves made."""
    moves = 0
    while True:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        # The socket's first view replaces the page's table: a card found before it is gone.
        page.wait_for_selector("#room[data-live]", state="attached")
        if page.locator("#room-main").get_attribute("data-over") == "1":
            return moves
        expect(page.locator(".s8-controls")).to_be_in_viewport(ratio=1)
        before = seq(page)
        picker = page.locator("[data-picker]:not([hidden])")
        card = page.locator(".s8-card.playable").first
        if picker.count():
            tap(picker.locator(".s8-suit").first)
        elif card.count():
            knock = page.locator("[data-knock][aria-pressed=false]")
            if knock.count():
                tap(knock)  # pressed here, sent with the card
            box = card.bounding_box()
            if box is None:  # a view replaced the hand between finding and measuring: look again
                continue
            tap(card, 12, box["height"] / 2)  # the strip a fanned card shows
            if page.locator("[data-picker]:not([hidden])").count():
                tap(page.locator("[data-picker] .s8-suit").first)
        else:
            tap(page.locator(".s8-controls button").first)
        after(page, before)
        moves += 1


@pytest.mark.parametrize(
    "kind, choices, size",
    [
        ("crazy8", {}, PHONE),
        ("american8", {"Rules": "Custom", "Scoring": "One round, wins counted"}, PHONE),
        ("crazy8", {}, {**DESKTOP, "has_touch": True}),
    ],
    ids=["crazy8-phone", "american8-phone", "crazy8-desktop"],
)
def test_a_shedding_game_to_the_end_by_touch(
    browser: Browser, daphne_server, celery_worker_process, kind, choices, size
):
    page = browser.new_context(**size).new_page()
    start(page, daphne_server, kind, choices)
    expect(page.locator(".s8-topline")).to_contain_text("first out wins")
    assert play_shedding(page) > 0
    the_end(page, kind)
    page.context.close()


# Where the page stands when a control is out of reach: to tell what moved it.
_WHERE = """(selector) => {
  const box = (el) => el ? ['top', 'bottom', 'height'].map((k) => Math.round(el.getBoundingClientRect()[k])) : null;
  return {scrollY: scrollY, innerHeight: innerHeight, scrollHeight: document.documentElement.scrollHeight,
          control: box(document.querySelector(selector)), table: box(document.getElementById('room-main')),
          focused: document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : null,
          above: [...document.body.children].map((el) => [el.tagName + (el.id ? '#' + el.id : ''), box(el)])};
}"""


def in_reach(page: Page, selector: str) -> None:
    """The control is wholly on screen; if not, say where the page stood."""
    try:
        expect(page.locator(selector)).to_be_in_viewport(ratio=1)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\nthe page: {page.evaluate(_WHERE, selector)}") from None


@pytest.mark.parametrize("size", [PHONE, {**DESKTOP, "has_touch": True}], ids=["phone", "desktop"])
def test_war_quick_to_the_end_by_touch(
    browser: Browser, daphne_server, celery_worker_process, size
):
    page = browser.new_context(**size).new_page()
    start(page, daphne_server, "war", {"Game length": "Quick: 50 rounds"})
    flips = 0
    while page.locator("#room-main").get_attribute("data-over") != "1":
        flip = page.locator("#flip:not([disabled]):not(.sent)")
        page.wait_for_function(
            "() => document.getElementById('room-main').dataset.over === '1'"
            " || Boolean(document.querySelector('#flip:not([disabled]):not(.sent)'))"
        )
        if page.locator("#room-main").get_attribute("data-over") == "1":
            break
        in_reach(page, ".war .controls")
        before = seq(page)
        tap(flip)
        after(page, before)
        flips += 1
    assert flips >= 1  # a round takes one flip, a war among its cards more
    the_end(page, "war")
    page.context.close()


@pytest.mark.parametrize("size", [PHONE, {**DESKTOP, "has_touch": True}], ids=["phone", "desktop"])
def test_blackjack_a_hand_then_cash_out_by_touch(browser: Browser, daphne_server, size):
    """Solo Blackjack ends when the player cashes out: one hand (the smallest chip, then Hold
    at each turn), then Cash out."""
    page = browser.new_context(**size).new_page()
    page.goto(daphne_server + "/")
    play = page.locator("[data-kind=blackjack]").get_by_role("button", name=re.compile("Play"))
    play.scroll_into_view_if_needed()
    tap(play)
    page.wait_for_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    bars = page.locator(".bj-controls")
    chip = page.locator(".bj-bets button").first
    expect(chip).to_be_visible()
    expect(bars).to_be_in_viewport(ratio=1)
    before = seq(page)
    tap(chip)
    after(page, before)
    hands = 0
    while not page.locator("[data-cashout]").count():
        hold = page.locator("#stand")
        page.wait_for_function(
            "() => Boolean(document.querySelector('#stand, [data-cashout]'))"
            " && !document.querySelector('#room-main .sent')"
        )
        if page.locator("[data-cashout]").count():
            break
        expect(bars).to_be_in_viewport(ratio=1)
        before = seq(page)
        tap(hold)
        after(page, before)
        hands += 1
    cashout = page.locator("[data-cashout]")
    expect(bars).to_be_in_viewport(ratio=1)
    tap(cashout.locator("summary"))
    leave = cashout.get_by_role("button", name=re.compile("Leave the table with"))
    tap(leave)
    the_end(page, "blackjack")
    page.context.close()


def gridcannon_tap(page: Page) -> None:
    """One decision of Gridcannon as a person makes it from the table: a glowing place (the
    drawn card's, a royal's spot, Armour's royal), else Draw or Keep the grid, else a usable
    Ploy and the stacks it then lights up."""
    table = page.locator("section.gc")
    target = table.locator(".gc-target")
    if target.count():
        # The grid and its spots are taller than a phone's screen: the thumb scrolls to it.
        target.first.scroll_into_view_if_needed()
        return tap(target.first)
    for name in ("Draw", "Keep the grid"):
        button = table.locator(".gc-buttons").get_by_role("button", name=name, exact=True)
        if button.count() and button.is_visible():
            return tap(button)
    ploy = table.locator(".gc-ploy.usable")
    assert ploy.count(), table.locator("[data-gc-prompt]").text_content()
    # The Ploys lie below the grid on a phone: the thumb scrolls down to one, then back up to
    # the stacks it lights.
    for lit in (ploy, table.locator(".gc-source"), table.locator(".gc-target")):
        if lit.count():
            lit.first.scroll_into_view_if_needed()
            tap(lit.first)


@pytest.mark.parametrize("size", [PHONE, {**DESKTOP, "has_touch": True}], ids=["phone", "desktop"])
def test_gridcannon_to_the_end_by_touch(browser: Browser, daphne_server, size):
    page = browser.new_context(**size).new_page()
    page.goto(daphne_server + "/")
    play = page.locator("[data-kind=gridcannon]").get_by_role("button", name=re.compile("^Play"))
    play.scroll_into_view_if_needed()
    tap(play)
    page.wait_for_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    moves = 0
    while True:
        page.wait_for_function(MY_TURN_OR_OVER)
        page.wait_for_selector("#room[data-live] section.gc[data-gc-ready]", state="attached")
        if page.locator("#room-main").get_attribute("data-over") == "1":
            break
        expect(page.locator(".gc-buttons")).to_be_in_viewport()
        before = seq(page)
        gridcannon_tap(page)
        after(page, before)
        moves += 1
    assert moves >= 10
    expect(page.locator("[data-gc-prompt]")).to_contain_text(re.compile("You won|game is over"))
    the_end(page, "gridcannon")
    page.context.close()


def play_rummy(page: Page) -> int:
    """Gin and Thirteen: draw from the stock; then knock (go out) with a card marked for it,
    else throw the card just drawn. Returns the moves made."""
    moves = 0
    while True:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        page.wait_for_selector("#room[data-live] section.rm[data-rm-ready]", state="attached")
        if page.locator("#room-main").get_attribute("data-over") == "1":
            return moves
        bar = page.locator("[data-bar]")
        expect(bar).to_be_in_viewport(ratio=1)
        before = seq(page)
        if page.locator("section.rm").get_attribute("data-step") == "draw":
            tap(bar.locator("[data-draw=stock]"))
        else:
            ending = page.locator("[data-hand] > li[data-can] .rm-pick")
            card = ending.first if ending.count() else page.locator(".rm-tag.new").locator("..")
            tap(card, 10, box(card)["height"] / 2)  # the strip a fanned card shows
            throw = bar.locator("[data-throw=end]" if ending.count() else "[data-throw=discard]")
            expect(throw).to_be_enabled()
            tap(throw)
        after(page, before)
        moves += 1


@pytest.mark.parametrize(
    "kind, choices, size",
    [
        ("gin", {"Game length": "Quick: first to 25"}, PHONE),
        ("thirteen", {"Game length": "Quick: 3 rounds"}, PHONE),
        ("gin", {"Game length": "Quick: first to 25"}, {**DESKTOP, "has_touch": True}),
    ],
    ids=["gin-phone", "thirteen-phone", "gin-desktop"],  # one table template: one desktop
)
def test_a_rummy_game_to_the_end_by_touch(
    browser: Browser, daphne_server, celery_worker_process, kind, choices, size
):
    page = browser.new_context(**size).new_page()
    for _ in range(3):  # a game the computer ended before our first move: a new deal
        start(page, daphne_server, kind, choices)
        if play_rummy(page) > 0:
            break
    else:
        pytest.fail("three deals in a row ended before the person's first move")
    the_end(page, kind)
    page.context.close()


def wholly_on_screen(panel) -> None:
    """The panel's box lies within the screen, and nothing in it is cut off (scrolled away)."""
    box = panel.evaluate(
        """el => { const r = el.getBoundingClientRect();
            return {top: r.top, left: r.left, bottom: r.bottom, right: r.right,
                    width: innerWidth, height: innerHeight,
                    cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1}; }"""
    )
    assert box["top"] >= 0 and box["left"] >= 0, box
    assert box["bottom"] <= box["height"] and box["right"] <= box["width"], box
    assert not box["cut"], box


def play_poker(page: Page) -> int:
    """Raise while a raise is offered, else call or check; hold the first card and draw four;
    after a showdown, Next hand. Returns the moves made."""
    moves = 0
    while True:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        page.wait_for_selector("#room[data-live] section.pk", state="attached")
        if page.locator("#room-main").get_attribute("data-over") == "1":
            return moves
        showdown = page.locator(".pk-showdown.open")
        if showdown.count():
            # It opens over the table: the thumb closes it to see its own turn.
            next_hand = showdown.get_by_role("button", name="Next hand")
            expect(next_hand).to_be_in_viewport(ratio=1)
            tap(next_hand)
            expect(showdown).to_have_count(0)
        controls = page.locator(".pk-controls")
        expect(controls).to_be_in_viewport(ratio=1)
        before = seq(page)
        row = controls.locator(".pk-row")
        raise_ = row.get_by_role("button", name=re.compile("^Raise"))
        if page.locator("#draw").count():
            # The hand lies above the sticky bar: a finger reaches every HOLD.
            for hold in page.locator(".pk-hold").all():
                on_top(hold)
            hold = page.locator(".pk-hold").first
            tap(hold)
            expect(hold).to_have_attribute("aria-pressed", "true")
            tap(page.locator("#draw"))
        elif raise_.count():
            tap(raise_)
        else:
            tap(row.get_by_role("button", name=re.compile("^(Call|Check)")))
        after(page, before)
        moves += 1


@pytest.mark.parametrize("size", [PHONE, {**DESKTOP, "has_touch": True}], ids=["phone", "desktop"])
def test_poker_quick_to_the_end_by_touch(
    browser: Browser, daphne_server, celery_worker_process, size
):
    page = browser.new_context(**size).new_page()
    start(page, daphne_server, "poker", {"Game length": "Quick: 30 chips each"})
    assert play_poker(page) > 0
    showdown = page.locator(".pk-showdown.open")
    if showdown.count():  # the last hand's: no next hand to go on to
        shot(page, f"poker-showdown-{page.viewport_size['width']}")
        expect(showdown.locator("[data-next-hand]")).to_have_text("Close")
        wholly_on_screen(showdown)
        tap(showdown.locator("[data-next-hand]"))
        expect(showdown).to_have_count(0)
    the_end(page, "poker")
    page.context.close()


def play_cardice(page: Page) -> int:
    """Roll the die, bid the first number offered, play the first glowing card. Returns the
    moves made."""
    moves = 0
    while True:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        page.wait_for_selector("#room[data-live] section.cd", state="attached")
        if page.locator("#room-main").get_attribute("data-over") == "1":
            return moves
        controls = page.locator(".cd-controls")
        expect(controls).to_be_in_viewport(ratio=1)
        before = seq(page)
        card = page.locator(".cd-card.playable").first
        if page.locator("#roll").count():
            tap(page.locator("#roll"))
        elif page.locator(".cd-bid").count():
            tap(page.locator(".cd-bid").first)
        else:
            tap(card)
        after(page, before)
        moves += 1


@pytest.mark.parametrize("size", [PHONE, {**DESKTOP, "has_touch": True}], ids=["phone", "desktop"])
def test_cardice_quick_to_the_end_by_touch(
    browser: Browser, daphne_server, celery_worker_process, size
):
    page = browser.new_context(**size).new_page()
    start(page, daphne_server, "cardice", {"Game length": "Quick: one hand"})
    expect(page.locator(".cd-round")).to_contain_text("Round 1 of 1")
    assert play_cardice(page) > 0
    the_end(page, "cardice")
    page.context.close()


# Klondike: a deal the rule in klondike_move wins (found by playing the rule against the
# engine, in 72 actions with Draw 1): the test deals it in a room started from the home tile.
KLONDIKE_SEED = "kl-touch-21"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def rank(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def fits_on(card: str, top: str | None) -> bool:
    """A column takes a card of the other colour one rank lower; an empty one, a King."""
    if top is None:
        return rank(card) == 13
    return (card[-1] in "HD") != (top[-1] in "HD") and rank(card) == rank(top) - 1


def goes_home(card: str, home: dict[str, str | None]) -> bool:
    top = home["f" + card[-1]]
    return rank(card) == (rank(top) + 1 if top else 1)


def klondike_move(seen: dict) -> tuple:
    """A simple player's rule, from the cards face up on the table: Finish when offered; a
    card that goes home; a column's face-up run that fits on another column and turns a
    face-down card over (a King's into an empty column); the waste's card to a column; else
    the stock. ("move", from, card, to), ("finish",) or ("stock",)."""
    if seen["finish"]:
        return ("finish",)
    tops = {name: (up[-1] if up else None) for name, (down, up) in seen["columns"].items()}
    waste = seen["waste"]
    for name, top in tops.items():
        if top and goes_home(top, seen["home"]):
            return ("move", name, top, "f" + top[-1])
    if waste and goes_home(waste, seen["home"]):
        return ("move", "waste", waste, "f" + waste[-1])
    for name, (down, up) in seen["columns"].items():
        for to, top in tops.items():
            if down and up and to != name and fits_on(up[0], top):
                return ("move", name, up[0], to)
    for to, top in tops.items():
        if waste and fits_on(waste, top):
            return ("move", "waste", waste, to)
    return ("stock",)


def klondike_rule_wins(seed: str) -> int:
    """On the engine alone: the actions klondike_move takes to win the Draw 1 deal of the seed
    (it only sees what the table shows), 0 if it doesn't."""
    engine = registry.get("klondike")
    state = engine.new_game(1, seed, {"draw": 1})
    for actions in range(120):
        if engine.is_over(state):
            return actions if state["won"] else 0
        view = engine.view(state, 0)
        seen = {
            "columns": {
                name: (cards.count(HIDDEN), [c for c in cards if c != HIDDEN])
                for name, cards in view["columns"].items()
            },
            "waste": view["waste"][-1] if view["waste"] else None,
            "home": view["foundations"],
            "finish": view["can_finish"],
        }
        move = klondike_move(seen)
        if move[0] == "move":
            action = {"type": "move", "from": move[1], "card": move[2], "to": move[3]}
        elif move[0] == "finish":
            action = {"type": "finish"}
        else:
            action = {"type": "draw" if view["can_draw"] else "recycle"}
        engine.apply(state, 0, action)
    return 0


KLONDIKE_SEEN = """() => {
  const top = (el) => { const up = [...el.querySelectorAll('.kl-c[data-card]')].pop(); return up ? up.dataset.card : null; };
  return {
    columns: Object.fromEntries([...document.querySelectorAll('.kl-col')].map((col) => [col.dataset.pile,
      [col.querySelectorAll('.kl-c.down').length, [...col.querySelectorAll('.kl-c.up')].map((c) => c.dataset.card)]])),
    waste: top(document.querySelector('.kl-waste')),
    home: Object.fromEntries([...document.querySelectorAll('.kl-found')].map((f) => [f.dataset.pile, top(f)])),
    finish: Boolean(document.querySelector('.kl-finish')),
  };
}"""


def within_reach(control) -> None:
    """The thumb scrolls the control into view, then on up out from under a phone's sticky
    bar (long columns run under it)."""
    for attempt in range(3):
        try:
            control.scroll_into_view_if_needed()
            break
        except PlaywrightError as exc:  # the table was drawn again under it: find it anew
            if "not attached" not in str(exc) or attempt == 2:
                raise
    page = control.page
    bar = box(page.locator(".kl-controls"))
    seen = box(control)
    under = seen["y"] + seen["height"] - bar["y"]
    if under > 0:
        page.mouse.wheel(0, under + 8)
        page.wait_for_function(
            "([el, bar]) => el.getBoundingClientRect().bottom <= bar",
            arg=[control.element_handle(), bar["y"]],
        )


def play_klondike(page: Page) -> int:
    """Play the deal by klondike_move: a card is tapped (on the strip of it a column shows),
    then the place it goes, which the table lights up; the stock is tapped to draw. Returns
    the actions made."""
    actions = 0
    while page.locator("#room-main").get_attribute("data-over") != "1":
        page.wait_for_selector("#room[data-live] section.kl[data-kl-ready]", state="attached")
        move = klondike_move(page.evaluate(KLONDIKE_SEEN))
        expect(page.locator(".kl-controls")).to_be_in_viewport(ratio=1)
        before = seq(page)
        if move[0] == "finish":
            finish = page.get_by_role("button", name="Finish")
            on_top(finish)
            finish.tap(force=True)  # it pulses: never still, as a tap otherwise waits for
        elif move[0] == "stock":
            stock = page.locator(".kl-stock")
            expect(stock).to_be_enabled()  # the rule's deal never runs out of moves
            within_reach(stock)
            tap(stock)
        else:
            _, pile, card, to = move
            picked = page.locator(f".kl-c[data-pile='{pile}'][data-card='{card}']")
            within_reach(picked)
            tap(picked, box(picked)["width"] / 2, 8)
            expect(picked).to_have_class(re.compile(r"\bsel\b"))
            place = page.locator(f"[data-dest='{to}']")
            expect(place).to_have_class(re.compile(r"\bkl-target\b"))
            top = place.locator(".kl-c[data-card]").last
            target = top if top.count() else place
            within_reach(target)
            tap(target)
        after(page, before)
        actions += 1
        assert actions <= 72, "the table went beyond the rule's line on the engine"
    return actions


@pytest.mark.parametrize("size", [PHONE, {**DESKTOP, "has_touch": True}], ids=["phone", "desktop"])
def test_klondike_a_whole_deal_by_touch(browser: Browser, daphne_server, size):
    assert klondike_rule_wins(KLONDIKE_SEED) == 72  # the deal and the rule still agree
    page = browser.new_context(**size).new_page()
    page.goto(daphne_server + "/")
    play = page.locator("form[action='/play/klondike/'] button")
    play.scroll_into_view_if_needed()
    tap(play)
    page.wait_for_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    # The tile deals a random deal: the same room deals the known one instead.
    room = Room.objects.get(code=page.url.rstrip("/").split("/")[-1])
    gameplay.submit_action(game_id=room.game_id, seat=0, action={"type": "resign"}, seq=0)
    game = services.start_game(room=room, player=room.host, kind="klondike", seed=KLONDIKE_SEED)
    page.wait_for_selector(f"section.kl[data-game='{game.pk}'][data-play='1']", state="attached")
    assert play_klondike(page) == 72
    expect(page.locator(".kl-win")).to_contain_text("All 52 cards are home")
    the_end(page, "klondike")
    page.context.close()
