"""Card style: four-colour suits, the card back and the table felt, saved in the session, used
on every page."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.contrib.sessions.backends.db import SessionStore
from django.template import RequestContext, Template
from django.test import Client, RequestFactory

from cards import art, prefs
from cards.context_processors import card_prefs

pytestmark = pytest.mark.django_db

URL = "/cards/prefs/"
DEFAULTS = {"card_four_colour": False, "card_back": "classic", "table_felt": "baize"}


def saved(four_colour: bool, back: str = "classic", felt: str = "baize", backs=(), felts=()):
    return {
        "four_colour": four_colour,
        "back": back,
        "felt": felt,
        "backs": list(backs),
        "felts": list(felts),
    }


def stored(client: Client) -> dict | None:
    return client.session.get(prefs.SESSION_KEY)


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# ---- saving ---------------------------------------------------------------------------------


def test_form_turns_four_colour_on_and_goes_back(client):
    # The form sends a hidden "0" and, when ticked, the checkbox's "1" after it.
    response = client.post(
        URL, {"four_colour": ["0", "1"], "back": "classic", "next": "/rules/war/"}
    )
    assert response.status_code == 302 and response["Location"] == "/rules/war/"
    assert stored(client) == saved(True)
    assert messages_of(response) == ["Card style saved: four-colour suits, Classic back."]


def test_form_turns_four_colour_off(client):
    client.post(URL, {"four_colour": "1"})
    response = client.post(URL, {"four_colour": "0", "back": "classic", "next": "/cards/"})
    assert response["Location"] == "/cards/"
    assert stored(client) == saved(False)


@pytest.mark.parametrize("value", ["on", "true", "YES", " 1 "])
def test_four_colour_accepts_the_usual_true_values(client, value):
    client.post(URL, {"four_colour": value})
    assert stored(client)["four_colour"] is True


def test_a_field_left_out_keeps_its_value(client):
    client.post(URL, {"four_colour": "1"})
    client.post(URL, {"back": "classic"})
    assert stored(client) == saved(True)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"four_colour": "maybe"}, "Four-colour suits can only be on or off."),
        ({"back": "plaid"}, "There is no card back by that name."),
        ({"back": "<script>"}, "There is no card back by that name."),
        ({"four_colour": "0", "back": "nebula"}, "The Nebula back is sold in the Kudos shop"),
        ({"back": "gold"}, "The Gold back is sold in the Kudos shop"),
        ({"felt": "midnight"}, "The Midnight blue felt is sold in the Kudos shop"),
        ({"felt": "tartan"}, "There is no table felt by that name."),
    ],
)
def test_bad_values_say_why_and_change_nothing(client, data, message):
    client.post(URL, {"four_colour": "1"})
    response = client.post(URL, {**data, "next": "/cards/"})
    assert response.status_code == 302 and response["Location"] == "/cards/"
    assert stored(client) == saved(True)
    said = messages_of(response)[-1]  # after the "saved" message of the first post
    assert said.startswith(message)
    # The message shows on the page it leads back to.
    assert message.split(" by")[0] in client.get("/cards/").content.decode()


@pytest.mark.parametrize(
    "next_url", ["https://elsewhere.example/", "//elsewhere.example/cards/", "javascript:alert(1)"]
)
def test_never_redirects_off_the_site(client, next_url):
    response = client.post(URL, {"four_colour": "1", "next": next_url})
    assert response["Location"] == "/cards/"


def test_without_next_goes_back_to_the_referring_page(client):
    response = client.post(URL, {"four_colour": "1"}, HTTP_REFERER="http://testserver/rules/gin/")
    assert response["Location"] == "http://testserver/rules/gin/"
    response = client.post(URL, {"four_colour": "1"}, HTTP_REFERER="https://elsewhere.example/")
    assert response["Location"] == "/cards/"


def test_only_post(client):
    assert client.get(URL).status_code == 405


def test_csrf_protected():
    client = Client(enforce_csrf_checks=True)
    assert client.post(URL, {"four_colour": "1"}).status_code == 403
    assert stored(client) is None
    html = client.get("/cards/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = client.post(URL, {"four_colour": "1", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert stored(client)["four_colour"] is True


def test_signed_in_players_keep_their_style_in_the_session(client):
    client.post(URL, {"four_colour": "1"})
    get_user_model().objects.create_user("maple", password="grey-Otter-71-lantern")
    client.post("/accounts/login/", {"username": "maple", "password": "grey-Otter-71-lantern"})
    assert client.get("/").wsgi_request.user.is_authenticated
    assert stored(client)["four_colour"] is True
    client.post(URL, {"four_colour": "0"})
    assert client.get("/cards/").context["card_four_colour"] is False


# ---- the context processor --------------------------------------------------------------------


def _request(session_data: dict | None = None):
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    if session_data is not None:
        request.session = SessionStore()
        request.session.update(session_data)
    return request


def test_context_processor_defaults():
    assert card_prefs(_request()) == DEFAULTS  # no session at all
    assert card_prefs(_request({})) == DEFAULTS


def test_context_processor_reads_the_session():
    request = _request({prefs.SESSION_KEY: {"four_colour": True, "back": "classic"}})
    assert card_prefs(request) == {**DEFAULTS, "card_four_colour": True}
    # A back and a felt bought in the Kudos shop are worn; one not owned falls back to the free.
    owned = saved(False, "nebula", "walnut", backs=["nebula"], felts=["walnut"])
    request = _request({prefs.SESSION_KEY: owned})
    assert card_prefs(request) == {**DEFAULTS, "card_back": "nebula", "table_felt": "walnut"}
    request = _request({prefs.SESSION_KEY: saved(False, "nebula", "walnut", backs=["gold"])})
    assert card_prefs(request) == DEFAULTS


def test_an_owned_back_can_be_chosen_on_the_card_style_form(client):
    session = client.session
    session[prefs.SESSION_KEY] = saved(False, backs=["nebula"])
    session.save()
    response = client.post(URL, {"back": "nebula", "next": "/cards/"})
    assert messages_of(response) == ["Card style saved: two-colour suits, Nebula back."]
    assert stored(client) == saved(False, "nebula", backs=["nebula"])
    form = client.get("/cards/").content.decode()
    assert re.search(r'value="nebula"[^>]*checked', form)
    assert not re.search(r'value="nebula"[^>]*disabled', form)


@pytest.mark.parametrize(
    "value",
    [
        "junk",
        ["a"],
        {"four_colour": "yes", "back": "plaid", "felt": 3},
        {"four_colour": 1, "back": None, "backs": "nebula", "felts": [None, 5]},
    ],
)
def test_context_processor_ignores_stored_nonsense(value):
    assert card_prefs(_request({prefs.SESSION_KEY: value})) == DEFAULTS


def test_every_page_has_the_prefs(client):
    for path in ("/", "/cards/", "/rules/", "/rules/war/", "/accounts/login/"):
        context = client.get(path).context
        assert context["card_four_colour"] is False and context["card_back"] == "classic", path
    client.post(URL, {"four_colour": "1"})
    for path in ("/", "/rules/", "/rules/war/", "/accounts/login/"):
        assert client.get(path).context["card_four_colour"] is True, path


def test_as_context_for_code_without_a_request():
    session = SessionStore()
    assert prefs.as_context(session) == DEFAULTS
    assert prefs.as_context(None) == DEFAULTS
    prefs.save(session, prefs.CardPrefs(four_colour=True))
    assert prefs.as_context(session) == {**DEFAULTS, "card_four_colour": True}


# ---- the {% card %} tag and the pages ---------------------------------------------------------


def _render(source: str, session_data: dict) -> str:
    request = _request(session_data)
    return Template("{% load cards %}" + source).render(RequestContext(request, {}))


def test_card_tag_follows_the_prefs():
    plain = _render('{% card "5D" %}{% card "??" %}', {})
    assert "/cards/5D.svg?v=" in plain and "/cards/back.svg?v=" in plain
    four = _render('{% card "5D" %}{% card "5S" %}', {prefs.SESSION_KEY: {"four_colour": True}})
    assert "/cards/5D.svg?four=1&amp;v=" in four and "/cards/5S.svg?four=1&amp;v=" in four
    nebula = _render(
        '{% card "??" %}', {prefs.SESSION_KEY: {"back": "nebula", "backs": ["nebula"]}}
    )
    assert "/cards/back.svg?back=nebula&amp;v=" in nebula
    # An explicit argument still wins over the prefs.
    explicit = _render('{% card "5D" four=False %}', {prefs.SESSION_KEY: {"four_colour": True}})
    assert "four=1" not in explicit


def test_pages_draw_cards_in_the_chosen_style(client):
    def face_urls(path: str) -> list[str]:
        html = client.get(path).content.decode()
        return re.findall(r'src="(/cards/(?!back)[^"]+\.svg[^"]*)"', html)

    assert not any("four=1" in u for u in face_urls("/rules/poker/"))
    client.post(URL, {"four_colour": "1"})
    for path in ("/rules/poker/", "/"):
        urls = face_urls(path)
        assert urls and all("four=1" in u for u in urls), path


def test_deck_page_shows_the_card_style_form(client):
    html = client.get("/cards/").content.decode()
    form = html[
        html.index('<form class="card-style"') : html.index("</form>", html.index("card-style"))
    ]
    assert 'action="/cards/prefs/"' in form and "csrfmiddlewaretoken" in form
    assert re.search(r'type="checkbox" name="four_colour" value="1"[^>]*role="switch"', form)
    assert 'id="four-colour" role="switch"' in form and "checked" not in form.split("<fieldset")[0]
    assert re.search(r'value="classic"[^>]*checked', form)
    for back in art.BACKS:
        if back == "classic":
            assert not re.search(r'value="classic"[^>]*disabled', form)
        else:
            assert re.search(rf'value="{back}"[^>]*disabled[^>]*back-{back}-shop', form)
    assert form.count("In the Kudos shop</a>") == len(art.BACKS) - 1
    assert form.count('href="/kudos/shop/#back-') == len(art.BACKS) - 1
    preview = form[form.index('id="style-preview"') : form.index("<fieldset")]
    assert re.findall(r'src="/cards/(\w+)\.svg', preview) == ["9S", "KH", "QD", "JC"]


def test_deck_page_follows_the_prefs_and_previews_either_way(client):
    client.post(URL, {"four_colour": "1"})
    html = client.get("/cards/").content.decode()
    assert re.search(r'id="four-colour" [^>]*checked', html)
    assert "/cards/5D.svg?four=1" in html
    # ?four=0 shows the deck in two colours without changing the saved style.
    html = client.get("/cards/?four=0").content.decode()
    assert 'src="/cards/5D.svg?v=' in html
    assert stored(client)["four_colour"] is True
