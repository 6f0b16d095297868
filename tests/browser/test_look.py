"""How the site looks and reads on a phone and on a desktop: every page and every game's table
mid-game. Each is saved to screenshots/ for review; the tests check what a screenshot can't:
axe-core finds no serious or critical accessibility problem, no sideways scrolling on a phone,
every card image loaded and named for screen readers, the keyboard reaching the page, a table's
action bar on screen at 390×844, the keyboard focus kept when the table is redrawn, and the
card style form working."""

import re
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from gameplay import services as gameplay
from gameplay import store
from gameplay.engine import registry
from lobby import services as lobby
from lobby.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "screenshots"
SIZES = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 850}},
}
# The phone the tables are checked on (the 390×844), and the desktop.
TABLE_SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": SIZES["desktop"],
}
PAGES = {
    "home": "/",
    "cards": "/cards/",
    "rules": "/rules/",
    "rules-war": "/rules/war/",
    "play-war": "/play/war/",
    "fairness": "/fairness/",
    "leaderboards": "/leaderboards/",
    "leaderboard-poker": "/leaderboards/poker/",
    "weekly": "/leaderboards/weekly/",
    "kudos": "/kudos/",
    "shop": "/kudos/shop/",
    "challenge": "/kudos/challenge/",
    "login": "/accounts/login/",
    "signup": "/accounts/signup/",
    "password-reset": "/accounts/password/reset/",
    "not-found": "/no/such/page/",
}
# Pages a signed-in player has (the profile, settings) besides the ones above.
PLAYER_PAGES = {"profile": "/u/otter/", "settings": "/accounts/settings/"}
# Each table's action bar: the controls a player acts with.
BARS = {
    "american8": ".s8-controls",
    "blackjack": ".bj-controls",
    "cardice": ".cd-controls",
    "crazy8": ".s8-controls",
    "gin": "[data-bar]",
    "gridcannon": ".gc-buttons",
    "klondike": ".kl-controls",
    "poker": ".pk-controls",
    "thirteen": "[data-bar]",
    "war": ".war .controls",
}
AXE = Axe()


def check_axe(page: Page, name: str) -> None:
    """axe-core on the page as it stands: no serious or critical violation."""
    found = AXE.run(page).response["violations"]
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    report = [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in bad
    ]
    assert not bad, f"{name}: axe-core found:\n" + "\n".join(report)


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
        """els => els.map(e => ({src: e.getAttribute("src"), alt: e.getAttribute("alt"),
                                  loaded: e.complete && e.naturalWidth > 0}))"""
    )
    assert report, f"{name}: no card images"
    # alt="" marks a picture that only decorates what is named beside it (a shop preview).
    nameless = [
        r["src"] for r in report if r["alt"] is None or (r["alt"] != "" and not r["alt"].strip())
    ]
    assert not nameless, f"{name}: card images without alt text: {nameless}"
    broken = [r["src"] for r in report if not r["loaded"]]
    assert not broken, f"{name}: card images that did not load: {broken}"
    _shoot(page, name, size)
    if size == "phone":
        wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"{name}: the phone scrolls sideways ({wide[0]} > {wide[1]})"


def _shoot(page: Page, name: str, size: str) -> None:
    SCREENS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENS / f"look-{name}-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_pages_look_right(browser: Browser, live_server, size: str):
    page = _open(browser, size)
    for name, path in PAGES.items():
        response = page.goto(live_server.url + path)
        assert response.ok or name == "not-found", f"{path}: {response.status}"
        check_axe(page, name)
        if page.locator("img.card").count():
            _look(page, name, size)
        else:
            _shoot(page, name, size)
    User.objects.create_user("otter", password="grey-Otter-71-lantern")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("otter")
    page.get_by_label("Password").fill("grey-Otter-71-lantern")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"^http://[^/]+/$"))
    for name, path in PLAYER_PAGES.items():
        assert page.goto(live_server.url + path).ok, path
        check_axe(page, name)
        _shoot(page, name, size)
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
    war.get_by_role("button", name=re.compile("^Quick")).click()
    expect(page).to_have_url(re.compile(r"/rooms/[A-Z]{5}/$"))
    flip = page.locator("#flip")
    expect(flip).to_be_enabled()
    _look(page, "war", size)

    flip.click()
    expect(page.locator(".seat.you .seat-state")).to_have_text("Flipped ✓")
    _look(page, "war-flipped", size)
    page.context.close()


def _room(page: Page) -> Room:
    return Room.objects.get(code=page.url.rstrip("/").split("/")[-1])


def _seq(page: Page) -> int:
    return int(page.locator("#room-main").get_attribute("data-seq") or -1)


def _play_a_little(page: Page, moves: int = 2) -> None:
    """Mid-game: the player's seat makes a few of the computer's choices (through the service,
    as the table would), the computer players answer on their own."""
    room = _room(page)
    engine = registry.get(room.game.kind)
    page.wait_for_function("() => window.cubic")  # the table's script has run
    for _ in range(moves):
        game = room.game.__class__.objects.get(pk=room.game_id)
        state = store.load_state(game)
        if engine.is_over(state) or 0 not in engine.to_act(state):
            break
        action = engine.bot_action(state, 0)
        gameplay.submit_action(game_id=game.pk, seat=0, action=action, seq=game.seq)
        page.evaluate("window.cubic.send({type: 'sync'})")  # not only the table's news
        page.wait_for_function(
            "n => Number(document.getElementById('room-main').dataset.seq) >= n", arg=game.seq + 1
        )


def _redraw(page: Page) -> None:
    """Ask the server for the table again and wait until #room-main is a new element."""
    page.evaluate("window.cubicOldMain = document.getElementById('room-main')")
    page.evaluate("window.cubic.send({type: 'sync'})")
    page.wait_for_function("() => document.getElementById('room-main') !== window.cubicOldMain")


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_every_table_mid_game(browser: Browser, daphne_server, celery_worker_process, size: str):
    """Each game from its home tile on a 390×844 phone and a desktop: a few moves in, the
    action bar is on screen, a redraw keeps the keyboard focus, the live region says whose
    turn it is, and axe-core finds nothing serious. Every game is looked at before failing."""
    problems = []
    for kind in sorted(BARS):
        context = browser.new_context(**TABLE_SIZES[size])
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        try:
            _check_table(page, daphne_server, kind, size)
        except Exception as exc:  # an assertion or a timeout: note it, look at the next game
            problems.append(f"{kind}: {exc}")
        finally:
            context.close()
            # Leave the table, so its computer players don't keep the one worker busy.
            for room in Room.objects.filter(is_open=True):
                lobby.leave_room(room=room, player=room.host)
    assert not problems, "\n\n".join(problems)


def _check_table(page: Page, base: str, kind: str, size: str) -> None:
    page.goto(base + "/")
    # The classic length (where a tile offers a quick one first): the checks come mid-game.
    page.locator(f"form[action='/play/{kind}/'] button:not([data-length='quick'])").click()
    page.wait_for_selector(f"#room-main[data-kind='{kind}'] section.table", state="attached")
    _play_a_little(page)
    assert _room(page).game.status == "active", "the game ended before the checks"
    page.wait_for_function("() => document.querySelector('#room-main button:not([disabled])')")
    SCREENS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENS / f"table-{kind}-{size}.png"), full_page=True)

    bar = page.locator(BARS[kind])
    if size == "phone":
        expect(bar).to_be_in_viewport(ratio=1)
        wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"the phone scrolls sideways ({wide[0]} > {wide[1]})"

    # The keyboard focus on a control of the table survives the table being redrawn.
    control = (
        page.locator(
            f"{BARS[kind]} button:not([disabled]), #room-main section.table button:not([disabled])"
        )
        .filter(visible=True)
        .first
    )
    control.focus()
    expect(control).to_be_focused()
    label = control.text_content().strip()
    _redraw(page)
    focused = page.evaluate(
        """() => { const el = document.activeElement, main = document.getElementById('room-main');
                   return [main.contains(el), el === main ? '' : el.textContent.trim()]; }"""
    )
    assert focused[0], "the focus left the table after a redraw"
    if page.locator("#room-main button:not([disabled])", has_text=label).count():
        assert focused[1] == label, f"focus went to {focused[1]!r}, not {label!r}"
    expect(page.locator("#table-news")).not_to_be_empty()

    check_axe(page, f"{kind} table ({size})")
