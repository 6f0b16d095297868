"""Every page a person reaches speaks French when the browser asks for it: each answers 200 (the
404 page 404) and holds none of the English sentences listed here, which are the site's own
(header, footer, titles, headings, buttons). The same pages in English hold them: so the list
is of sentences the pages really show, and a French page that kept one would fail."""

import html
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

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
    ("/", True, ["One deck of creatures.", "Create a room", "Play vs computer", ">Games<"], 200),
    ("/", False, ["Create a room", "Open tables</a>: join people"], 200),
    ("/no-such-page/", False, ["Not found", "There is no page at this address."], 404),
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
