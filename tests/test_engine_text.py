"""The engine's sentences keep what they were made from, and come back in French."""

from __future__ import annotations

import copy
import json
import pickle

from gameplay.engine.cards import card_name, label
from gameplay.engine.text import Said, say, say_n
from gameplay.text import in_language


def test_a_said_is_its_english_sentence_and_keeps_its_template():
    text = say(
        "The {card} doesn't match: play a {wanted} or a {rank}.", card="Q♥", wanted="♠", rank="7"
    )
    assert text == "The Q♥ doesn't match: play a ♠ or a 7."
    assert isinstance(text, str) and isinstance(text, Said)
    assert text.msgid == "The {card} doesn't match: play a {wanted} or a {rank}."
    assert text.params == {"card": "Q♥", "wanted": "♠", "rank": "7"}
    assert say("It is not your turn.") == "It is not your turn."


def test_say_n_picks_the_form_by_n():
    one = say_n("Take the {n} card.", "Take the {n} cards.", 1)
    four = say_n("Take the {n} card.", "Take the {n} cards.", 4)
    assert (one, four) == ("Take the 1 card.", "Take the 4 cards.")
    assert four.msgid == "Take the {n} card." and four.plural == "Take the {n} cards."
    assert four.n == 4 and four.params == {"n": 4}


def test_a_said_is_stored_as_a_plain_string():
    text = say("Play the {card}.", card=label("QH"))
    for copied in (copy.copy(text), copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert copied == text and type(copied) is str
    assert json.dumps({"message": text}) == '{"message": "Play the Q\\u2665."}'
    assert type(copy.deepcopy({"log": [text]})["log"][0]) is str


def test_english_stays_byte_for_byte():
    text = say("Play the {card}.", card=label("QH"))
    assert in_language(text, "en") == "Play the Q♥." and in_language(text, "en-us") == text
    assert in_language("The game is over.", "en") == "The game is over."


def test_french_translates_the_template_and_its_params():
    assert in_language(say("The game is over."), "fr") == "La partie est terminée."
    text = say("You don't hold the {card}.", card=label("QH"))
    assert in_language(text, "fr") == "Cette carte (D♥) n'est pas dans votre main."
    assert in_language(card_name("KS"), "fr") == "Roi de pique"
    assert in_language(label("10C"), "fr") == "10♣"


def test_french_plurals_follow_n():
    one = say_n("Take the {n} card.", "Take the {n} cards.", 1)
    two = say_n("Take the {n} card.", "Take the {n} cards.", 2)
    assert in_language(one, "fr") == "Prenez la carte."
    assert in_language(two, "fr") == "Prenez les 2 cartes."


def test_a_plain_string_is_looked_up_as_it_is():
    assert in_language("The game is over.", "fr") == "La partie est terminée."
    assert in_language("Nothing like this is in the catalogue.", "fr") == (
        "Nothing like this is in the catalogue."
    )


def test_a_whole_view_is_said_in_french_and_its_plain_strings_stay():
    from gameplay.engine import registry
    from gameplay.text import all_in_language

    engine = registry.get("american8")
    state = engine.new_game(2, "view-in-french", {"mode": "american8"})
    view = engine.view(state, 0)
    french = all_in_language(view, "fr")
    assert french["mode_title"] == "8 Américain"
    assert french["effects"][0]["text"] != view["effects"][0]["text"]
    assert french["top"] == view["top"] and french["you"]["hand"] == view["you"]["hand"]
    assert all_in_language(view, "en") is view
    assert json.loads(json.dumps(french)) == french


def test_the_said_filter_speaks_the_page_language():
    from django.template import Context, Template
    from django.utils import translation

    from gameplay.engine import registry

    engine = registry.get("war")
    page = Template("{% load said %}{{ engine.title|said }}, {{ engine.players_text|said }}")
    assert page.render(Context({"engine": engine})) == "War, 2–4 players"
    with translation.override("fr"):
        assert page.render(Context({"engine": engine})) == "Bataille, 2 à 4 joueurs"


def test_a_plain_param_such_as_a_name_is_never_translated():
    """Only what the engine said is said again: a guest who calls themselves "Draw" keeps the
    name in a French sentence (the catalogue would make it "Pioche")."""
    sentence = say("{rank} of {suit}", rank="Draw", suit=say("Hearts"))
    assert in_language(say("Draw"), "fr") != "Draw"  # the catalogue does know the word
    assert in_language(sentence, "fr").startswith("Draw ")
    assert in_language(sentence, "en") == "Draw of Hearts"
