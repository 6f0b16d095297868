"""Every page carries a Content-Security-Policy that allows scripts only from the site's own
files, and no page holds an inline script or an inline event handler (which the policy would
refuse): the home page, the account, Kudos, rules and card pages, replays, errors, the admin's
sign-in, and every game's table."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from gameplay.engine import registry
from lobby.models import Room

pytestmark = pytest.mark.django_db(transaction=True)

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)
PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/settings/",
    "/accounts/data/",
    "/leaderboards/",
    "/kudos/",
    "/cards/",
    "/rules/war/",
    "/play/war/",
    "/u/maple/",
    "/no/such/page/",
    "/admin/login/",
]


def check(response, what: str) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives.get("script-src") == "'self'", f"{what}: {policy!r}"
    assert directives.get("frame-ancestors") == "'none'" and "object-src" in directives, what
    assert "ws://testserver" in directives.get("connect-src", ""), what
    assert response.headers.get("Referrer-Policy") == "same-origin", what
    html = response.content.decode()
    assert not INLINE_SCRIPT.findall(html), f"{what}: inline script"
    assert not INLINE_HANDLER.findall(html), f"{what}: inline handler"


def test_every_page_has_the_policy_and_nothing_inline(real_services):
    get_user_model().objects.create_user("maple", password="x-Long-pass-77")
    client = Client()
    client.force_login(get_user_model().objects.get(username="maple"))
    for path in PAGES:
        check(client.get(path), path)
    check(Client().get("/"), "/ as a guest")


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_games_table_has_the_policy_and_nothing_inline(real_services, kind):
    client = Client()
    client.get("/")
    response = client.post(f"/play/{kind}/", follow=True)
    code = response.redirect_chain[-1][0].strip("/").split("/")[-1]
    assert Room.objects.filter(code=code, game__kind=kind).exists()
    check(response, f"the {kind} table")
    game_id = Room.objects.get(code=code).game_id
    check(client.get(f"/games/{game_id}/"), f"the {kind} replay")


def test_a_profile_with_rating_charts_has_nothing_inline(real_services):
    from accounts import charts
    from accounts.models import Rating, RatingChange

    from .conftest import ROOT

    maple = get_user_model().objects.create_user("maple", password="x-Long-pass-77")
    client = Client()
    client.get("/")
    game = client.post("/play/war/", follow=True)  # any game row for the history to name
    game_id = Room.objects.get(code=game.redirect_chain[-1][0].strip("/").split("/")[-1]).game_id
    now = timezone.now()
    RatingChange.objects.create(
        user=maple, game_id=game_id, kind="poker", ended=now, place=1, mu_before=25,
        sigma_before=8.3, mu=27, sigma=7.5,
    )  # fmt: skip
    Rating.objects.create(
        user=maple, kind="poker", mu=27, sigma=7.5, ordinal=4.5, games=1, updated=now
    )
    page = Client().get("/u/maple/")
    assert b"pygal-chart" in page.content  # the chart is there, without its inline parts
    check(page, "a profile with a rating chart")
    assert "rating-chart.css" in page.content.decode()
    css = (ROOT / "static" / "css" / "rating-chart.css").read_text()
    assert css == charts.stylesheet(), "regenerate static/css/rating-chart.css: see charts.py"
