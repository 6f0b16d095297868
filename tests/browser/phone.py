"""A phone in the browser suite: a 390×844 touch screen, and the check that a control a player
needs is really the thing a finger lands on (not a bar, a toast or a box drawn over it)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 850}}

# Without scrolling (the page as the player sees it), what is at the point a finger would press:
# the control itself or something inside it, on screen.
_ON_TOP = """(el, [x, y]) => {
  if (!el.isConnected) return {gone: true};
  const r = el.getBoundingClientRect();
  const px = r.left + (x === null ? r.width / 2 : x), py = r.top + (y === null ? r.height / 2 : y);
  const hit = document.elementFromPoint(px, py);
  const seen = px >= 0 && py >= 0 && px < innerWidth && py < innerHeight;
  return {ok: seen && Boolean(hit) && (hit === el || el.contains(hit)),
          hit: hit ? hit.outerHTML.slice(0, 160) : null, at: [Math.round(px), Math.round(py)]};
}"""


def box(control: Locator) -> dict:
    """The control's box on screen, measured again if the table was drawn anew as it was
    measured (Playwright then has no box for the element it had found)."""
    for _ in range(5):
        found = control.bounding_box()
        if found:
            return found
        control.page.wait_for_timeout(50)
    raise AssertionError(f"{control} has no box on screen")


def on_top(control: Locator, x: float | None = None, y: float | None = None) -> None:
    """Fail unless a tap at the control's centre (or at x, y inside it), on screen as the page
    is now, reaches the control."""
    for _ in range(5):  # a redraw may replace the control as it is found: find it again
        found = control.evaluate(_ON_TOP, [x, y])
        if not found.get("gone"):
            break
    assert found["ok"], f"{found['hit']} covers the control at {found['at']}"


def shot(page: Page, name: str, full: bool = False) -> None:
    """A screenshot under /tmp to look at (never in the repository)."""
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    page.screenshot(path=f"/tmp/phone/{name}.png", full_page=full)
