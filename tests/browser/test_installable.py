"""The installable site: the manifest and its icon, the service worker registered at the root,
static files only in its cache, and the offline page when the connection is gone."""

import pytest
from playwright.sync_api import Browser, expect

from .phone import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_manifest_worker_and_the_offline_page(browser: Browser, daphne_server):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(daphne_server + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate("href => fetch(href).then((r) => r.json())", href)
    assert manifest["name"] == "Cubic Cards" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    icon = manifest["icons"][0]["src"]
    width = page.evaluate(
        """src => new Promise((ok) => { const i = new Image(); i.onload = () => ok(i.naturalWidth);
               i.onerror = () => ok(0); i.src = src; })""",
        icon,
    )
    assert width == 512

    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == daphne_server + "/"
    cached = page.evaluate(
        """async () => {
             const urls = [];
             for (const name of await caches.keys()) {
               for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
             }
             return urls;
           }"""
    )
    assert "/offline/" in cached and any(u.startswith("/static/css/site") for u in cached)
    pages = [
        u for u in cached if not u.startswith("/static/") and u not in ("/offline/", "/icon.svg")
    ]
    assert pages == [], "only static files and the offline page are kept"

    # Offline: a page can't be reached, so the worker answers with the offline page.
    page.reload()  # now the worker controls the page
    context.set_offline(True)
    page.goto(daphne_server + "/play/war/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.locator("main")).to_contain_text("The tables need a connection")
    # its style sheet came from the worker's cache
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 50
    context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.locator("h1, h2").first).to_be_visible()
    context.close()
