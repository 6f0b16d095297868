"""The header's facts and the home page's invitations are kept in the cache (kudos.header),
and so is the table where a person is seated (lobby.services.table_code): every change the
header shows is on the next page, and no player ever sees another's."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from kudos import clock, services, shop
from kudos.models import Account, BonusEvent, Streak
from kudos.slot import _kept as slot
from lobby import services as lobby
from social import services as social
from social.models import FriendRequest

pytestmark = pytest.mark.django_db


def person(name: str) -> User:
    return User.objects.create_user(name, password=None)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def home(client: Client) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def balance(page: str) -> int:
    return int(re.search(r'class="kudos-balance">(\d+)<', page)[1])


def test_a_kudos_credit_shows_on_the_next_page():
    ann = person("ann")
    client = signed_in(ann)
    assert balance(home(client)) == 0
    services.credit(user_id=ann.pk, amount=7, kind="bonus", key="test:7", memo="Seven")
    assert balance(home(client)) == 7
    services.spend(user_id=ann.pk, amount=3, key="test:-3", memo="Three")
    assert balance(home(client)) == 4


def test_a_name_colour_worn_or_taken_off_shows_on_the_next_page():
    ann = person("ann")
    services.credit(user_id=ann.pk, amount=10_000, kind="bonus", key="test:gold", memo="Gold")
    client = signed_in(ann)
    shop.buy(user_id=ann.pk, slug="colour-gold")
    assert "name-gold" in home(client)
    shop.wear(user_id=ann.pk, section="colour", value="")  # no Kudos move: only the colour
    assert "name-gold" not in home(client)


def test_a_streak_ended_by_the_upkeep_leaves_the_next_page():
    ann = person("ann")
    today = clock.now().date()
    account = Account.objects.create(user=ann)
    Streak.objects.create(
        account=account, current=3, best=3, last_day=today - timedelta(days=6), freezes=0
    )
    client = signed_in(ann)
    assert "data-streak" in home(client)
    assert services.keep_up_streaks() == 1
    assert "data-streak" not in home(client)


def test_an_invitation_sent_shows_on_the_next_home_page():
    ann, bob = person("ann"), person("bob")
    social.ask(sender=ann, username="bob")
    social.accept(user=bob, request_id=FriendRequest.objects.get(sender=ann).pk)
    client = signed_in(bob)
    assert 'class="panel invitations"' not in home(client)  # kept: none
    room = lobby.create_room(player=f"user:{ann.pk}", name="ann", user=ann)
    social.invite(sender=ann, username="bob", code=room.code)
    assert room.code in home(client)


def test_a_bonus_event_shows_from_its_start_and_leaves_at_its_end(settings, real_services):
    settings.KUDOS_TEST_CLOCK = True
    now = clock.now().replace(microsecond=0)
    clock.stop_at(now)
    try:
        client = signed_in(person("ann"))
        assert "data-bonus-event" not in home(client)  # kept: none running
        BonusEvent.objects.create(
            name="Triple hour",
            multiplier=Decimal("3"),
            starts=now + timedelta(minutes=5),
            ends=now + timedelta(minutes=65),
        )
        assert "data-bonus-event" not in home(client)
        clock.stop_at(now + timedelta(minutes=5))
        assert "Triple hour" in home(client)
        clock.stop_at(now + timedelta(minutes=65))
        assert "Triple hour" not in home(client)
    finally:
        clock.free()


def slots_drawn(client: Client, pages: int = 1) -> int:
    """How many times the Kudos slot's template was drawn for these pages."""
    drawn = []

    def note(sender, template, **kwargs):
        drawn.append(template.name)

    template_rendered.connect(note)
    try:
        for _ in range(pages):
            home(client)
    finally:
        template_rendered.disconnect(note)
    return drawn.count("kudos/slot.html")


def test_the_slot_is_drawn_once_for_the_facts_it_shows():
    ann, bob = person("annabella"), person("bobolink")
    ann_client, bob_client = signed_in(ann), signed_in(bob)
    slot.cache_clear()
    assert slots_drawn(ann_client, 3) == 1
    assert slots_drawn(bob_client) == 0  # the same balance, streak and level: the same slot
    services.credit(user_id=ann.pk, amount=7, kind="bonus", key="test:7", memo="Seven")
    assert slots_drawn(ann_client) == 1 and balance(home(ann_client)) == 7
    assert slots_drawn(bob_client) == 0 and balance(home(bob_client)) == 0
    bob.language = "fr"
    bob.save()
    assert slots_drawn(bob_client) == 1  # another language, another slot
    assert 'title="Vos Kudos' in home(bob_client)


def test_a_slot_with_a_bonus_event_is_drawn_on_each_page(settings, real_services):
    settings.KUDOS_TEST_CLOCK = True
    now = clock.now().replace(microsecond=0)
    clock.stop_at(now)
    try:
        BonusEvent.objects.create(
            name="Triple hour", multiplier=Decimal("3"), starts=now, ends=now + timedelta(hours=1)
        )
        client = signed_in(person("ann"))
        assert re.search(r"Triple hour, for \d+\xa0minutes more", home(client))
        assert slots_drawn(client, 2) == 2  # its time left moves: never kept
    finally:
        clock.free()


def test_no_player_sees_another_players_header():
    ann, bob = person("annwyl"), person("bobbinet")
    services.credit(user_id=ann.pk, amount=11, kind="bonus", key="test:ann", memo="Ann's")
    services.credit(user_id=bob.pk, amount=22, kind="bonus", key="test:bob", memo="Bob's")
    ann_client, bob_client = signed_in(ann), signed_in(bob)
    for _ in range(3):
        ann_page, bob_page = home(ann_client), home(bob_client)
        assert balance(ann_page) == 11 and "data-username>annwyl<" in ann_page
        assert balance(bob_page) == 22 and "data-username>bobbinet<" in bob_page
        assert "bobbinet" not in ann_page and "annwyl" not in bob_page


def test_the_kept_parts_carry_each_pages_own_csrf_token():
    client = signed_in(person("ann"))
    pages = [home(client) for _ in range(2)]
    tokens = [re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', p) for p in pages]
    assert all("csrfslot" not in p for p in pages)
    assert len(tokens[0]) >= 3 and len(set(tokens[0])) == 1  # one token on a page
    assert tokens[0][0] != tokens[1][0]  # each page's own (masked afresh)


def test_with_the_cache_away_a_credit_stands_and_pages_read_the_database(settings, real_services):
    ann = person("ann")
    client = signed_in(ann)
    home(client)  # facts kept while Redis answers
    settings.CACHES = {
        "default": {"BACKEND": "infra.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    services.credit(user_id=ann.pk, amount=7, kind="bonus", key="away", memo="Away")
    assert balance(home(client)) == 7


def test_a_seat_taken_or_left_shows_on_the_next_page():
    client = signed_in(person("ann"))
    assert "Back to your table" not in home(client)  # no table: kept too
    code = client.post("/play/war/", {"seats": "3"}).url.rstrip("/").split("/")[-1]
    with CaptureQueriesContext(connection) as first:
        assert f'href="/rooms/{code}/">Back to your table</a>' in home(client)
    with CaptureQueriesContext(connection) as second:
        assert f'href="/rooms/{code}/">Back to your table</a>' in home(client)
    asked = [q["sql"] for q in first.captured_queries if "lobby_member" in q["sql"]]
    assert len(asked) == 1  # the seat was read once, then kept
    assert not [q["sql"] for q in second.captured_queries if "lobby_member" in q["sql"]]
    client.post(f"/rooms/{code}/leave/")
    assert "Back to your table" not in home(client)


def test_with_the_cache_away_the_table_is_read_from_the_database(settings, real_services):
    client = signed_in(person("ann"))
    code = client.post("/play/war/", {"seats": "3"}).url.rstrip("/").split("/")[-1]
    settings.CACHES = {
        "default": {"BACKEND": "infra.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    assert f'href="/rooms/{code}/">Back to your table</a>' in home(client)
    client.post(f"/rooms/{code}/leave/")
    assert "Back to your table" not in home(client)
