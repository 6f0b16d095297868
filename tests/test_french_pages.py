"""Every page a person reaches speaks French when the browser asks for it: each answers 200 (the
404 page 404) and holds none of the English sentences listed here, which are the site's own
(header, footer, titles, headings, buttons). The same pages in English hold them: so the list
is of sentences the pages really show, and a French page that kept one would fail."""

import html
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from arenas.models import Arena

User = get_user_model()
pytestmark = pytest.mark.django_db

# On every page with the site's header and footer.
EVERYWHERE = [
    "Skip to content",
    ">Arenas<",
    ">Friends<",
    "Sign out",
    "Who's on which card",
    ">Leaderboards<",
    "Chips and Kudos are play currency, never real money.",
]
GUEST_EVERYWHERE = ["Sign in<", "Sign up<", "Kudos: the site's free currency"]
# What each page itself says: (path, signed in?, English sentences, status).
PAGES = [
    ("/", True, ["One deck of creatures.", "Create a room", "Play vs computer", "go to WAR"], 200),
    ("/", False, ["Create a room", "Open tables</a>: join people"], 200),
    ("/no-such-page/", False, ["Not found", "There is no page at this address."], 404),
    ("/accounts/signup/", False, ["An account keeps your stats", "Create account"], 200),
    ("/accounts/login/", False, ["Forgot your password?", "New here?"], 200),
    ("/accounts/settings/", True, ["Change your password", "Download your data"], 200),
    ("/accounts/data/", True, ["Download everything", "Delete my account"], 200),
    ("/accounts/password/reset/", False, ["Reset your password", "Send the link"], 200),
    (
        "/u/maple/",
        True,
        ["Playing since", ">Level ", "No finished games yet.", "Win 10 games of War."],
        200,
    ),
    ("/leaderboards/", False, ["Ranked players with a settled rating", "Nobody yet"], 200),
    ("/leaderboards/gin/", True, ["Computer players", "Ranked games", "Gin Rummy lead"], 200),
    (
        "/kudos/",
        True,
        ["Your Kudos<", "How Kudos are earned", "Daily streak", "Invite friends"],
        200,
    ),
    ("/kudos/", False, ["to earn Kudos: guests play for fun only.", "Bonus Kudos events"], 200),
    ("/kudos/shop/", True, ["The Kudos shop", "Card backs", "Streak freeze", "Buy "], 200),
    ("/kudos/challenge/", False, ["Daily Challenge", "everyone plays the same deals"], 200),
    ("/leaderboards/weekly/", True, ["Weekly leaderboard", "Ties go to whoever", "Prizes"], 200),
    ("/friends/", True, ["Add a friend by name", "Your friends", "No friends yet"], 200),
    ("/arenas/", True, ["Tournaments on a clock", "How arenas work", "Coming up"], 200),
    ("/arenas/{arena.pk}/", True, ["Join the arena", "Standings", "How arenas work"], 200),
    ("/tables/", False, [], 200),
    ("/tv/", True, [], 200),
    ("/api/", False, ["The protocol for programs", "What the table socket sends"], 200),
    ("/accounts/tokens/", True, ["Access tokens", "Make a token", "You have no tokens."], 200),
    ("/api/challenges/", True, ["Nobody is challenging you now.", "To you"], 200),
    ("/fairness/", False, ["Checking a deal", "After the game"], 200),
    ("/invite/maple/", False, ["invites you to Cubic Cards", "Look around first"], 200),
]
STANDALONE = [  # pages without the header: only their own sentences
    ("/offline/", ["No connection", "Try again<", "The tables need a connection"]),
]


@pytest.fixture
def person():
    return User.objects.create_user("maple", password="grey-Otter-71-lantern")


@pytest.fixture
def arena():
    now = timezone.now()
    return Arena.objects.create(
        name="Test",
        kind="war",
        starts=now - timedelta(minutes=1),
        ends=now + timedelta(minutes=29),
        status=Arena.Status.LIVE,
        prizes=[100, 60, 40],
        min_games=1,
    )


def english_in(page: str, sentences: list[str]) -> list[str]:
    text = html.unescape(page)
    return [sentence for sentence in sentences if sentence in text]


def fetch(client, person, path: str, signed_in: bool, language: str):
    if signed_in:
        client.force_login(person)
    return client.get(
        path.format(arena=Arena.objects.first()), headers={"accept_language": language}
    )


def expected(signed_in: bool, sentences: list[str]) -> list[str]:
    common = (
        EVERYWHERE if signed_in else [s for s in EVERYWHERE if s not in (">Friends<", "Sign out")]
    )
    return common + (GUEST_EVERYWHERE if not signed_in else []) + sentences


@pytest.mark.parametrize(("path", "signed_in", "sentences", "status"), PAGES)
def test_the_page_speaks_french(client, person, arena, path, signed_in, sentences, status):
    response = fetch(client, person, path, signed_in, "fr")
    assert response.status_code == status
    page = response.content.decode()
    assert '<html lang="fr">' in page
    assert english_in(page, expected(signed_in, sentences)) == []


@pytest.mark.parametrize(("path", "signed_in", "sentences", "status"), PAGES)
def test_the_same_page_in_english_says_every_listed_sentence(
    client, person, arena, path, signed_in, sentences, status
):
    response = fetch(client, person, path, signed_in, "en")
    assert response.status_code == status
    wanted = expected(signed_in, sentences)
    assert english_in(response.content.decode(), wanted) == wanted


@pytest.mark.parametrize(("path", "sentences"), STANDALONE)
def test_a_page_without_the_header_speaks_french(client, path, sentences):
    french = client.get(path, headers={"accept_language": "fr"})
    english = client.get(path, headers={"accept_language": "en"})
    assert french.status_code == english.status_code == 200
    assert english_in(french.content.decode(), sentences) == []
    assert english_in(english.content.decode(), sentences) == sentences


def test_an_english_sentence_left_on_a_french_page_is_caught(client):
    page = client.get("/", headers={"accept_language": "fr"}).content.decode()
    planted = page.replace("</main>", "<p>Create a room</p></main>")
    assert english_in(planted, PAGES[0][2]) == ["Create a room"]


def test_the_ledger_and_the_header_news_are_read_in_french():
    from kudos import words

    english = "+12 Kudos, +30 experience: won Klondike: 3 min 5 s of play"
    with translation.override("en"):
        assert words.news(english) == english
    with translation.override("fr"):
        assert words.news(english).startswith("+12 Kudos, +30 d'expérience : victoire")
        assert words.memo("Day 4 of your daily streak") == "Jour 4 de votre série quotidienne"
        assert words.memo("A staff note") == "A staff note"  # unknown: shown as written


def test_the_scripts_catalogue_is_served_in_the_page_language(client):
    page = client.get("/", headers={"accept_language": "fr"}).content.decode()
    tag = page.index('<script src="/jsi18n/fr/"')
    assert tag < page.index("js/pwa.js")  # before every other script
    french = client.get("/jsi18n/fr/")
    assert french.status_code == 200 and "max-age=86400" in french["Cache-Control"]
    assert "Copi\\u00e9" in french.content.decode() or "Copié" in french.content.decode()
    assert "script-src 'self'" in french["Content-Security-Policy"]  # same origin: allowed
    english = client.get("/jsi18n/en/").content.decode()
    assert "Copi" not in english
    assert client.get("/jsi18n/xx/").status_code == 404


def test_the_header_socket_speaks_the_sockets_language(person, monkeypatch):
    from infra.sockets import UNAVAILABLE, said
    from kudos import consumers
    from kudos.consumers import render_slot

    monkeypatch.setattr(consumers, "close_old_connections", lambda: None)  # the test's transaction

    french = render_slot(person, "+5 Kudos: Day 3 of your daily streak", "", "fr")
    assert "Jour 3 de votre série quotidienne" in french and "Niv. " in french
    english = render_slot(person, "+5 Kudos: Day 3 of your daily streak", "", "en")
    assert "+5 Kudos: Day 3 of your daily streak" in english and "Lv " in english
    asked = {"query_string": b"lang=fr", "headers": []}
    assert said(UNAVAILABLE, asked).startswith("Les tables sont indisponibles")
    assert said(UNAVAILABLE, {"headers": []}) == UNAVAILABLE


def test_choosing_french_in_the_settings_says_so_in_french(client, person):
    client.force_login(person)
    form = {"email": "", "time_zone": "UTC", "language": "fr"}
    page = client.post("/accounts/settings/", form, follow=True).content.decode()
    assert "Vos paramètres sont enregistrés." in page and '<html lang="fr">' in page
