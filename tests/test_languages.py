"""Which language the site speaks: the account's choice, else the footer's cookie, else the
browser's Accept-Language, else English; the same order for a socket (infra.sockets)."""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from infra.sockets import language_of

User = get_user_model()
pytestmark = pytest.mark.django_db

FOOTER_FR = "Classements"  # "Leaderboards" in the footer of every page
FOOTER_EN = ">Leaderboards<"


def page(client, **headers) -> str:
    return client.get("/", headers=headers).content.decode()


def test_english_unless_asked(client):
    html = page(client)
    assert '<html lang="en">' in html and FOOTER_EN in html
    assert FOOTER_EN in page(client, accept_language="de-DE,de;q=0.9")  # not spoken here: English


def test_the_browser_asks_for_french(client):
    html = page(client, accept_language="fr-CA,fr;q=0.9,en;q=0.5")
    assert '<html lang="fr">' in html and FOOTER_FR in html


def test_the_footer_switcher_keeps_a_guest_in_french(client):
    response = client.post("/language/", {"language": "fr", "next": "/tables/"})
    assert response.status_code == 302 and response["Location"] == "/tables/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert FOOTER_FR in page(client, accept_language="en")  # the choice beats the browser
    client.post("/language/", {"language": "en"})
    assert FOOTER_EN in page(client, accept_language="fr")


def test_the_switcher_refuses_what_it_does_not_know(client):
    response = client.post("/language/", {"language": "xx"})
    assert response.status_code == 400 and b"no such language" in response.content
    assert client.get("/language/").status_code == 405
    away = client.post("/language/", {"language": "fr", "next": "https://elsewhere.example/"})
    assert away["Location"] == "/"  # never sent off the site


def test_a_persons_choice_follows_them_to_every_device(client):
    person = User.objects.create_user("maple", password="grey-Otter-71-lantern")
    client.force_login(person)
    client.post("/language/", {"language": "fr"})
    person.refresh_from_db()
    assert person.language == "fr"
    client.cookies.clear()  # another device: no cookie, a browser that asks for English
    client.force_login(person)
    assert FOOTER_FR in page(client, accept_language="en")


def test_the_settings_page_sets_the_language(client):
    person = User.objects.create_user("maple", password="grey-Otter-71-lantern")
    client.force_login(person)
    form = {"email": "", "time_zone": "UTC", "language": "fr"}
    assert client.post("/accounts/settings/", form).status_code == 302
    person.refresh_from_db()
    assert person.language == "fr"
    form["language"] = "klingon"
    assert client.post("/accounts/settings/", form).status_code == 200  # the form says no
    person.refresh_from_db()
    assert person.language == "fr"


def scope(user=None, query=b"", cookie=None, accept=None) -> dict:
    headers = [(b"accept-language", accept.encode())] if accept else []
    cookies = {settings.LANGUAGE_COOKIE_NAME: cookie} if cookie else {}
    return {"user": user or AnonymousUser(), "query_string": query, "headers": headers,
            "cookies": cookies}  # fmt: skip


def test_a_socket_speaks_as_the_page_would():
    assert language_of(scope()) == "en"
    assert language_of(scope(accept="fr-FR,fr;q=0.9")) == "fr"
    assert language_of(scope(accept="de,*;q=0.5")) == "en"
    assert language_of(scope(cookie="fr", accept="en")) == "fr"
    assert language_of(scope(query=b"v=1&lang=fr", accept="en")) == "fr"  # a program asks
    assert language_of(scope(query=b"lang=xx")) == "en"
    chosen = User(username="maple", language="fr")
    assert language_of(scope(user=chosen, cookie="en", accept="en")) == "fr"
    assert language_of(scope(user=chosen, query=b"lang=en")) == "en"  # the address says


def test_the_switcher_names_each_language_in_its_own_words(client):
    for asked in ("en", "fr"):
        html = page(client, accept_language=asked)
        named = re.findall(r'lang="(\w+)"[^>]*>([^<]+)</button>', html)
        assert named == [("en", "English"), ("fr", "Français")], named
