"""Player levels: experience from games played (never from Kudos), shown in the header, at
the table beside the name, and on the profile."""

import pytest
from django.test import Client

from accounts.models import GameStat
from kudos import rules, selectors, services
from kudos.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_level_curve():
    assert [rules.level_start(n) for n in range(1, 6)] == [0, 100, 300, 600, 1000]
    assert [rules.level_of(xp) for xp in (0, 99, 100, 299, 300, 999, 1000)] == [
        1, 1, 2, 2, 3, 4, 5,
    ]  # fmt: skip
    assert rules.experience(played=10, wins=4) == 10 * rules.XP_FINISHED + 4 * rules.XP_WON


def test_experience_comes_from_games_not_kudos(real_services, player):
    ann = player()
    services.credit(user_id=ann.pk, amount=5000, kind=Entry.Kind.PLAY, key="t:1", memo="Test")
    assert selectors.level(ann.pk) == {
        "level": 1,
        "xp": 0,
        "next_level": 2,
        "next": 100,
        "percent": 0,
    }
    GameStat.objects.create(user=ann, kind="war", played=20, wins=8)
    GameStat.objects.create(user=ann, kind="poker", played=5, wins=0)
    xp = 25 * rules.XP_FINISHED + 8 * rules.XP_WON  # 290
    assert selectors.level(ann.pk) == {
        "level": 2,
        "xp": xp,
        "next_level": 3,
        "next": 300,
        "percent": 95,
    }
    assert selectors.name_tags([ann.pk, None]) == {ann.pk: {"level": 2, "colour": ""}}


def test_the_header_and_profile_show_the_level(real_services, player):
    ann = player("ann")
    GameStat.objects.create(user=ann, kind="war", played=40, wins=10)  # 450: level 3
    client = Client()
    client.force_login(ann)
    html = client.get("/").content.decode()
    assert (
        'data-level><span class="sr-only">Level </span><span aria-hidden="true">Lv </span>3<'
        in html
    )
    assert "Level 3: 450 of 600 experience" in html
    assert 'data-level title="450 experience">Level 3<' in client.get("/u/ann/").content.decode()
