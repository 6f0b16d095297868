"""The card names, the alt text and "Who's on which card" in French; in English exactly the
engine's and the roster's own words."""

import pytest
from django.utils import translation

from cards import art, names, prefs, roster
from cards.templatetags.cards import card_alt, card_name, suit_name
from gameplay.engine import cards as c

EVERY_CARD = [r + s for s in roster.ALL_SUITS for r in c.RANKS] + list(c.JOKERS)
FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}


@pytest.fixture(autouse=True)
def _back_to_english():
    """A French request leaves French active in the test's thread (the middleware activates
    a language per request and nothing turns it off): later tests start in English."""
    yield
    translation.deactivate()


def test_english_names_are_the_engines_and_the_rosters():
    with translation.override("en"):
        for card in EVERY_CARD:
            assert names.card_name(card) == c.card_name(card)
            assert names.alt(card) == roster.describe(card)
            assert names.figure_name(card) == roster.figure_name(card)
            assert names.figure_line(card) == roster.figure_line(card)
        assert names.alt(c.HIDDEN) == roster.describe(c.HIDDEN)
        for suit in roster.ALL_SUITS:
            assert names.suit_name(suit) == c.SUIT_NAMES[suit]
        assert [names.back_name(b) for b in art.BACKS] == [art.BACK_NAMES[b] for b in art.BACKS]
        assert [names.felt_name(f) for f in prefs.FELTS] == list(prefs.FELTS.values())


def test_french_card_names():
    with translation.override("fr"):
        assert card_name("QH") == "Dame de cœur"
        assert card_name("KS") == "Roi de pique"
        assert card_name("AC") == "As de trèfle"
        assert card_name("10D") == "10 de carreau"
        assert card_name("JB") == "Valet de cloche"
        assert card_name("JK1") == "Joker"
        assert suit_name("H") == "Cœur" and suit_name("x") == ""
        assert card_alt("QH") == f"Dame de cœur ({roster.figure_name('QH')})"
        assert card_alt("??") == "Carte face cachée"
        assert card_alt("ZZ") == "Carte inconnue"


def test_every_roster_line_is_translated():
    with translation.override("fr"):
        for card in EVERY_CARD:
            assert names.figure_line(card) != roster.figure_line(card), card
        for suit in roster.ALL_SUITS:
            assert names.suit_name(suit) != c.SUIT_NAMES[suit]
            for text in (roster.FAMILIES[suit], roster.FAMILY_LINES[suit]):
                assert translation.gettext(text) != text


@pytest.mark.django_db
def test_the_deck_page_in_french(client):
    html = client.get("/cards/", **FRENCH).content.decode()
    assert "<h1>Qui figure sur quelle carte</h1>" in html
    assert "Enregistrer le style des cartes" in html
    assert "Nuit et Pierre" in html and "Le Clocher" in html
    assert 'alt="Dame de cœur (' in html and 'alt="Le dos de carte « Nébuleuse »"' in html
    assert "Who&#x27;s on which card" not in html and "Save card style" not in html
    english = client.get("/cards/").content.decode()
    assert "Save card style" in english and 'alt="Queen of Hearts (' in english


@pytest.mark.django_db
def test_rules_examples_are_named_in_french(client):
    html = client.get("/rules/war/", **FRENCH).content.decode()
    assert 'alt="Joker (logo A.M.I.C.)"' in html and 'alt="As de pique (' in html


@pytest.mark.django_db
def test_a_back_not_owned_is_refused_in_french(client):
    response = client.post("/cards/prefs/", {"back": "nebula"}, follow=True, **FRENCH)
    assert "Le dos « Nébuleuse » est vendu dans la boutique Kudos" in response.content.decode()


def test_a_rank_in_a_prompt_is_the_letter_french_players_read():
    """8 Américain's "play a ♥ or a K" says R (Roi) in French: the corner's letter there."""
    from django.template import Context, Template

    page = Template(
        "{% load cards %}{{ 'KH'|card_rank }} {{ 'QS'|card_rank }} {{ '10D'|card_rank }}"
    )
    assert page.render(Context()) == "K Q 10"
    with translation.override("fr"):
        assert page.render(Context()) == "R D 10"
