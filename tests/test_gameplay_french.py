"""The gameplay app's own pages and refusals in French (the engine's are in
test_engine_french.py)."""

import pytest

from gameplay import services
from gameplay.engine import IllegalAction
from gameplay.text import in_language
from tests.test_gameplay_services import play_to_end, start

pytestmark = pytest.mark.django_db


def test_the_replay_page_reads_in_french_and_stays_english_in_english(client):
    game = play_to_end(start("short/235"))  # 47 rounds
    english = client.get(f"/games/{game.pk}/?step=1").content.decode()
    assert "Bataille" not in english and "War · game" in english and "Action 1 of" in english
    french = client.get(f"/games/{game.pk}/?step=1", headers={"accept-language": "fr"})
    french = french.content.decode()
    assert "Bataille · partie" in french and "Action 1 sur" in french and "Place 1" in french


def test_a_refusal_of_the_services_reads_in_french():
    with pytest.raises(IllegalAction) as refused:
        services.check_speed_play("warp")
    assert in_language(refused.value.message, "fr") == (
        "La vitesse de jeu est Normale, Rapide ou Instantanée."
    )
