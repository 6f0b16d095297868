"""The rules in French: ``rules.fr.md`` (``crazy8.fr.md``, ``american8.fr.md``) beside each
English file, the same sections under the same numbers and the same examples, drawn at
/rules/<kind>/ when the language is French."""

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.utils import translation
from django.utils.html import escape

from cards import rules as r
from cards.views import rules_page
from gameplay.engine import registry

from .test_cards import assert_images_have_alt

KINDS = registry.kinds()
SECTION = re.compile(r"^### (\d+)\. \S", re.MULTILINE)
TITLES = {
    "american8": "8 Américain",
    "blackjack": "Blackjack",
    "cardice": "Cardice",
    "crazy8": "Crazy 8",
    "gin": "Gin Rummy",
    "gridcannon": "Gridcannon",
    "klondike": "Klondike",
    "poker": "Poker",
    "thirteen": "Treize",
    "war": "Bataille",
}


@pytest.fixture(autouse=True)
def _back_to_english():
    """A French request leaves French active in the test's thread (the middleware activates
    a language per request and nothing turns it off): later tests start in English."""
    yield
    translation.deactivate()


def translated():
    return [k for k in KINDS if r.source(k, "fr").exists()]


def examples(text: str) -> list[tuple[str, ...]]:
    found = [r.parse_example(line) for line in text.splitlines()]
    return [e.cards for e in found if e is not None]


def shown(text: str) -> list[str]:
    """Each example's cards exactly as written (a translation only changes the caption)."""
    return [x.partition(" — ")[0] for x in text.splitlines() if x.startswith("cards:")]


def mismatches(english: str, french: str) -> list[str]:
    """What keeps ``french`` from being a translation of ``english``: the exact part's
    section numbers, the examples' cards, an English heading left in."""
    problems = []
    en_exact = english.split(f"\n{r.EXACT_RULES}\n", 1)[1]
    fr_exact = french.partition(f"\n{r.HEADINGS['fr'][1]}\n")[2]
    if SECTION.findall(en_exact) != SECTION.findall(fr_exact):
        problems.append(f"sections {SECTION.findall(fr_exact)} != {SECTION.findall(en_exact)}")
    if examples(english) != examples(french):
        problems.append(f"examples {examples(french)} != {examples(english)}")
    if shown(english) != shown(french):
        problems.append(f"cards: lines written differently: {shown(french)}")
    for heading in (r.HOW_TO_PLAY, r.EXACT_RULES):
        if f"\n{heading}\n" in french:
            problems.append(f"English heading {heading!r}")
    return problems


def test_every_game_has_its_rules_in_french():
    assert translated() == KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_french_rules_parse_and_match_the_english(kind):
    path = r.source(kind, "fr")
    assert path.name == r.source(kind).name.replace(".md", ".fr.md")
    french = path.read_text(encoding="utf-8")
    found = r.rules(kind, "fr")
    assert found.title == TITLES[kind]
    assert found.summary and found.how_to_play and found.exact
    assert found.summary != r.rules(kind, "en").summary
    assert not mismatches(r.source(kind).read_text(encoding="utf-8"), french)
    for caption in (e.caption for e in found.examples):
        assert caption not in {e.caption for e in r.rules(kind, "en").examples}, caption
    for word in ("Decision:", "seed 0", "shared/", "00-common"):
        assert word not in french


STRUCTURE = ("<h2", "<h3", "<h4", "<li", "<table", "<tr", "<p>", "<pre", "<code", "<strong")


@pytest.mark.parametrize("kind", KINDS)
def test_french_pages_have_the_english_shape(kind):
    """The same headings, list items, table rows, paragraphs and code: nothing left out, and
    no wrapped line turned into a list item by accident."""
    en, fr = r.rules(kind, "en"), r.rules(kind, "fr")
    for part in ("how_to_play", "exact"):
        english, french = getattr(en, part), getattr(fr, part)
        for tag in STRUCTURE:
            assert french.count(tag) == english.count(tag), (part, tag)


def test_a_missing_section_or_example_fails_the_check():
    english = r.source("war").read_text(encoding="utf-8")
    french = r.source("war", "fr").read_text(encoding="utf-8")
    assert not mismatches(english, french)
    assert "### 4. " in french
    dropped = french.replace("### 4. ", "### ", 1)
    assert any("sections" in p for p in mismatches(english, dropped))
    line = next(x for x in french.splitlines() if x.startswith("cards: "))
    assert any("examples" in p for p in mismatches(english, french.replace(line, "", 1)))
    assert mismatches(english, french.replace("JK1 AS", "JK2 AS", 1))
    assert mismatches(english, french.replace("KD ?? 2C", "KD\u00a0?? 2C", 1))


def test_the_language_picks_the_file_and_falls_back_to_english(tmp_path, monkeypatch):
    assert r.language_of("fr") == r.language_of("fr-ca") == "fr"
    assert r.language_of("en-us") == r.language_of("de") == r.language_of(None) == "en"
    with translation.override("fr"):
        assert r.rules("war").title == "Bataille"
    with translation.override("en-us"):
        assert r.rules("war").title == "War"
    with translation.override("de"):
        assert r.rules("war").title == "War"
    # A game with no French file reads its English one.
    monkeypatch.setattr(r, "source", lambda kind, language="en": tmp_path / f"{language}.md")
    (tmp_path / "en.md").write_text("# X\n\nA game.\n\n## How to play\n\n## Exact rules\n")
    r._rules.cache_clear()
    try:
        assert r.rules("war", "fr").title == "X"
    finally:
        monkeypatch.undo()
        r._rules.cache_clear()


def test_french_headings_are_required_in_a_french_file():
    text = "# X\n\nUn jeu.\n\n## Comment jouer\n\n## Règles exactes\n\n### 1. Joueurs\n"
    assert r.parse("x", text, "fr").title == "X"
    with pytest.raises(r.RulesError, match="Comment jouer"):
        r.parse("x", text.replace("Comment jouer", "How to play"), "fr")


FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}


def french_page(client, kind, **headers):
    response = client.get(f"/rules/{kind}/", **headers)
    assert response.status_code == 200
    html = response.content.decode()
    found = r.rules(kind, "fr")
    assert f"<h1>{found.title}</h1>" in html and f"Jouer à {found.title}</button>" in html
    assert "joueur" in html.split('<p class="players">', 1)[1].split("</p>", 1)[0]
    assert html.count('<figure class="example">') == len(found.examples)
    assert 'data-example="' not in html
    assert "<summary>Règles exactes</summary>" in html and "Toutes les règles" in html
    drawn = sum(1 for e in found.examples for cd in e.cards if cd != "|")
    assert assert_images_have_alt(html) == drawn
    return html


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_french_rules_page(client, kind):
    html = french_page(client, kind, **FRENCH)
    assert "How to play" not in html and "Exact rules" not in html
    english = client.get(f"/rules/{kind}/").content.decode()
    assert f"<h1>{r.rules(kind, 'en').title}</h1>" in english and "Exact rules" in english


@pytest.mark.django_db
def test_the_language_cookie_reads_the_french_rules(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    french_page(client, "american8")


@pytest.mark.django_db
def test_french_rules_index(client):
    html = client.get("/rules/", **FRENCH).content.decode()
    assert f"{len(KINDS)} jeux, un seul jeu de créatures" in html
    for kind in KINDS:
        assert escape(r.rules(kind, "fr").summary) in html
        assert f"<strong>{r.rules(kind, 'fr').title}</strong>" in html
    assert "<strong>Bataille</strong>" in html and "<strong>Treize</strong>" in html
    assert "1 joueur<" in html and "2 joueurs<" in html and "2–4 joueurs<" in html
    assert " players<" not in html and " player<" not in html


@pytest.mark.django_db
def test_card_style_message_in_french(client):
    response = client.post("/cards/prefs/", {"four_colour": "on"}, follow=True, **FRENCH)
    assert "Style des cartes enregistré : couleurs en quatre teintes" in (response.content.decode())


def test_the_two_shedding_games_share_their_french_exact_rules():
    exact = [
        r.source(kind, "fr").read_text(encoding="utf-8").split("\n## Règles exactes\n", 1)[1]
        for kind in ("crazy8", "american8")
    ]
    assert exact[0] == exact[1]


@pytest.mark.django_db
def test_the_rules_view_follows_the_active_language(rf):
    """The view itself reads the active language: French under translation.override("fr"),
    whatever the request says (the middleware is what turns a request into a language)."""
    request = rf.get("/rules/war/")
    request.session, request.user = SessionStore(), AnonymousUser()
    with translation.override("fr"):
        response = rules_page(request, "war")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Bataille</h1>" in html and "<summary>Règles exactes</summary>" in html
