"""The TV: /tv/ and /tv/<kind>/ show the highest-rated live ranked table, as a spectator."""

import html
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import Rating, User
from gameplay import services as game_services
from lobby import ranked, selectors
from lobby.models import Room

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def ranked_table(name: str, kind: str, mu: float | None) -> Room:
    """A live ranked table of one rated person (the computer fills the other seats)."""
    user = User.objects.create_user(name, password="pw-long-enough")
    if mu is not None:
        Rating.objects.create(
            user=user, kind=kind, mu=mu, sigma=3, ordinal=mu - 9, games=30, updated=timezone.now()
        )
    ranked.enqueue(user=user, kind=kind)
    later = timezone.now() + timedelta(seconds=settings.RANKED_FILL_AFTER + 1)
    [room] = ranked.match(kind, now=later)
    return room


def test_the_highest_rated_live_table_is_on():
    ranked_table("newcomer", "poker", None)
    good = ranked_table("good", "poker", 30)
    ranked_table("fair", "poker", 26)
    gin = ranked_table("ginny", "gin", 40)
    assert selectors.tv_table("poker") == good
    assert selectors.tv_table() == gin  # of every game
    assert selectors.tv_kinds() == ["gin", "poker"]


def test_a_finished_or_unranked_table_is_not_on():
    good = ranked_table("good", "poker", 30)
    fair = ranked_table("fair", "poker", 26)
    game_services.abandon_game(game_id=good.game_id)
    assert selectors.tv_table("poker") == fair  # the next one
    Room.objects.filter(pk=fair.pk).update(ranked=False)
    assert selectors.tv_table("poker") is None


def test_the_tv_page_watches_the_table_and_the_empty_one_waits():
    empty = Client().get("/tv/poker/")
    assert empty.status_code == 200 and "No ranked Poker game is being played" in text(empty)
    room = ranked_table("good", "poker", 30)
    page = text(Client().get("/tv/"))
    assert f'ws-connect="/ws/rooms/{room.code}/watch/"' in page
    assert "Cubic TV" in page and "Watching" in page
    assert Client().get("/tv/chess/").status_code == 404
