"""Three tables in French on a 390×844 phone (the browser asks for French): a few moves in,
the table speaks French, nothing scrolls sideways and no button's words are cut off. Each is
saved to screenshots/ (table-<kind>-fr-phone.png) for review."""

import pytest
from playwright.sync_api import Browser, Page

from lobby import services as lobby
from lobby.models import Room

from .test_look import BARS, SCREENS, TABLE_SIZES, _play_a_little, _room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KINDS = ["poker", "blackjack", "gin"]
# A button whose words are wider or taller than the button itself (cut off, or spilling out).
_CUT_OFF = """() => [...document.querySelectorAll('#room-main .button')]
  .filter((el) => el.offsetParent !== null && el.textContent.trim())
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60))"""


def test_three_tables_in_french_on_a_phone(browser: Browser, daphne_server, celery_worker_process):
    problems = []
    for kind in KINDS:
        context = browser.new_context(**TABLE_SIZES["phone"], locale="fr-FR")
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        try:
            problems += [f"{kind}: {p}" for p in _look(page, daphne_server, kind)]
        except Exception as exc:  # a timeout: note it, look at the next table
            problems.append(f"{kind}: {exc}")
        finally:
            context.close()
            for room in Room.objects.filter(is_open=True):
                lobby.leave_room(room=room, player=room.host)
    assert not problems, "\n".join(problems)


def _look(page: Page, base: str, kind: str) -> list[str]:
    page.goto(base + "/")
    page.locator(f"form[action='/play/{kind}/'] button:not([data-length='quick'])").click()
    page.wait_for_selector(f"#room-main[data-kind='{kind}'] section.table", state="attached")
    _play_a_little(page)
    assert _room(page).game.status == "active", "the game ended before the checks"
    page.wait_for_function("() => document.querySelector('#room-main button:not([disabled])')")
    SCREENS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENS / f"table-{kind}-fr-phone.png"), full_page=True)
    problems = []
    text = page.locator("#room-main").inner_text()
    if "Règles" not in text or "Empreinte de la donne" not in text:
        problems.append("the table is not in French")
    if "Deal fingerprint" in text or "Rules" in text:
        problems.append("English left at the table")
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if wide[0] > wide[1]:
        problems.append(f"the phone scrolls sideways ({wide[0]} > {wide[1]})")
    if not page.locator(BARS[kind]).count():
        problems.append("no action bar")
    problems += [f"cut off: {words!r}" for words in page.evaluate(_CUT_OFF)]
    # Words the stylesheet shows come from the page too: the table's "Reconnecting…" badge.
    page.evaluate("document.body.classList.add('offline')")
    badge = page.evaluate("getComputedStyle(document.body, '::after').content")
    page.evaluate("document.body.classList.remove('offline')")
    if badge != '"Reconnexion…"':
        problems.append(f"the offline badge says {badge}")
    return problems
