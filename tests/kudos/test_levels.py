"""Player levels: experience from counted play (never from Kudos), at most so much a day,
shown in the header, at the table beside the name, and on the profile."""

import pytest
from django.test import Client

from gameplay import hooks
from kudos import rules, selectors, services
from kudos.models import Account, Entry

from .conftest import ended_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_level_curve():
    assert [rules.level_start(n) for n in range(1, 6)] == [0, 100, 300, 600, 1000]
    assert [rules.level_of(xp) for xp in (0, 99, 100, 299, 300, 999, 1000)] == [
        1, 1, 2, 2, 3, 4, 5,
    ]  # fmt: skip


def test_experience_comes_from_play_not_kudos(real_services, player):
    ann = player()
    services.credit(user_id=ann.pk, amount=5000, kind=Entry.Kind.PLAY, key="t:1", memo="Test")
    assert selectors.level(ann.pk) == {
        "level": 1,
        "xp": 0,
        "next_level": 2,
        "next": 100,
        "percent": 0,
    }
    for hour, won in ((10, True), (11, False), (12, False)):
        # 25, 20 and 20 minutes: 2 experience a minute, a win 1.5 times as much
        game = ended_game(
            seats=[{"user_id": ann.pk}, {"bot": True}],
            winners=[0] if won else [1],
            kind="gin",
            ended=f"2030-01-07 {hour}:00",
            seconds=(25 if won else 20) * 60,
        )
        hooks.deliver(game.pk)
    assert selectors.level(ann.pk) == {
        "level": 2,
        "xp": 155,
        "next_level": 3,
        "next": 300,
        "percent": 28,
    }
    assert selectors.name_tags([ann.pk, None]) == {ann.pk: {"level": 2, "colour": ""}}


def test_the_header_and_profile_show_the_level(real_services, player):
    ann = player("ann")
    Account.objects.update_or_create(user=ann, defaults={"xp": 450})  # level 3
    client = Client()
    client.force_login(ann)
    html = client.get("/").content.decode()
    assert (
        'data-level><span class="sr-only">Level </span><span aria-hidden="true">Lv </span>3<'
        in html
    )
    assert "Level 3: 450 of 600 experience" in html
    assert 'data-level title="450 experience">Level 3<' in client.get("/u/ann/").content.decode()
