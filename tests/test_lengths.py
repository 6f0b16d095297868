"""Quick by default: a game with a quick length offers it first on its home tile, beside Classic,
each with the minutes bench/durations.py measured; the quick button starts the quick game."""

import html
import json
import re

import pytest

from cubiccards import lengths
from gameplay.engine import registry
from lobby.models import Room

KINDS = registry.kinds()
TILE = re.compile(r'<li class="game-tile" data-kind="(?P<kind>\w+)">(?P<tile>.*?)</li>', re.S)


@pytest.mark.parametrize("kind", [k for k in KINDS if registry.get(k).quick])
def test_a_quick_length_is_a_valid_shorter_choice_of_the_games_own_options(kind):
    engine = registry.get(kind)
    quick = engine.check_rules(engine.quick, engine.min_players)
    assert quick != engine.check_rules(None, engine.min_players)
    measured = lengths._measured()[kind]["lengths"]
    assert measured["quick"]["rules"] == engine.quick  # measured at the rules the tile offers
    assert measured["quick"]["median_minutes"] < measured["classic"]["median_minutes"]


def test_every_game_was_measured_at_every_length_its_tile_offers():
    for kind in KINDS:
        for offered in lengths.offered(registry.get(kind)):
            assert offered["minutes"] is not None, kind


def _tiles(client) -> dict[str, str]:
    page = client.get("/").content.decode()
    return {m["kind"]: m["tile"] for m in TILE.finditer(page)}


@pytest.mark.django_db
def test_the_tile_offers_quick_first_then_classic_with_their_minutes(client):
    tiles = _tiles(client)
    measured = lengths._measured()["war"]["lengths"]
    war = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", tiles["war"]))
    quick = f"Quick · about {lengths.about_minutes(measured['quick']['median_minutes'])} min"
    classic = f"Classic · about {lengths.about_minutes(measured['classic']['median_minutes'])} min"
    assert quick in war and classic in war and war.index(quick) < war.index(classic)
    # A game with one length says its minutes on its one button.
    crazy8 = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", tiles["crazy8"]))
    assert "Quick ·" not in crazy8 and re.search(r"Play vs computer · about \d+ min", crazy8)


@pytest.mark.django_db
def test_the_quick_button_starts_the_quick_game(client):
    tile = _tiles(client)["war"]
    rules = html.unescape(re.search(r'name="rules" value="([^"]+)"', tile)[1])
    assert json.loads(rules) == {"rounds": 50}
    client.post("/play/war/", {"rules": rules})
    room = Room.objects.get(private=True)
    assert room.game.rules["rounds"] == 50
