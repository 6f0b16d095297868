"""Sightings (accounts/sightings.py): where an account signs up, signs in and sits down at a
table from, as keyed hashes of the address and of the browser's device cookie; written on those
requests only, one row per (account, address, device), pruned after 30 days."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import sightings
from accounts.models import Sighting, User

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "grey-Otter-71-lantern"
HOME = "203.0.113.9"


def sign_up(client: Client, name: str) -> User:
    response = client.post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return User.objects.get(username=name)


def sign_in(client: Client, name: str) -> None:
    response = client.post("/accounts/login/", {"username": name, "password": PASSWORD})
    assert response.status_code == 302


def test_every_browser_gets_a_random_http_only_device_cookie():
    browser = Client(REMOTE_ADDR=HOME)
    response = browser.get("/")
    cookie = response.cookies[sightings.DEVICE_COOKIE]
    assert sightings.DEVICE_SHAPE.fullmatch(cookie.value)
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["max-age"]
    assert sightings.DEVICE_COOKIE not in browser.get("/").cookies  # kept, not set again
    assert Client().get("/").cookies[sightings.DEVICE_COOKIE].value != cookie.value
    browser.cookies[sightings.DEVICE_COOKIE] = "not a device; x"  # bad input: a new one
    assert sightings.DEVICE_SHAPE.fullmatch(browser.get("/").cookies[sightings.DEVICE_COOKIE].value)


def test_sign_up_sign_in_and_joining_a_table_are_sighted_as_hashes_only():
    browser = Client(REMOTE_ADDR=HOME)
    browser.get("/")  # the device cookie
    device = browser.cookies[sightings.DEVICE_COOKIE].value
    ann = sign_up(browser, "ann")
    seen = Sighting.objects.get(user=ann)
    assert seen.address == sightings.digest(HOME) and seen.device == sightings.digest(device)
    assert HOME not in (seen.address + seen.device) and device not in seen.device
    assert seen.first_seen == seen.last_seen

    browser.post("/accounts/logout/")
    sign_in(browser, "ann")  # the same place: the same row, seen again
    assert Sighting.objects.filter(user=ann).count() == 1
    again = Sighting.objects.get(user=ann)
    assert again.first_seen == seen.first_seen and again.last_seen > seen.last_seen

    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    sign_in(elsewhere, "ann")
    assert Sighting.objects.filter(user=ann).count() == 2
    # An IPv6 address counts by its /64, as the limits count it.
    phone = Client(REMOTE_ADDR="2001:db8:1:2::7")
    sign_in(phone, "ann")
    assert Sighting.objects.filter(user=ann, address=sightings.digest("2001:db8:1:2::/64")).exists()

    cafe = Client(REMOTE_ADDR="192.0.2.44")
    cafe.force_login(ann)  # no request from anywhere: nothing noted
    assert Sighting.objects.filter(user=ann).count() == 3
    assert cafe.post("/play/klondike/").status_code == 302  # sitting down at a table: noted
    assert Sighting.objects.filter(user=ann, address=sightings.digest("192.0.2.44")).exists()


def test_pages_write_no_sighting():
    browser = Client(REMOTE_ADDR=HOME)
    ann = sign_up(browser, "ann")
    Sighting.objects.all().delete()
    for page in ("/", "/kudos/", "/accounts/settings/", "/play/klondike/"):
        assert browser.get(page).status_code == 200, page
    assert not Sighting.objects.exists()
    Client(REMOTE_ADDR=HOME).post("/play/klondike/")  # a guest's table: no account to note
    assert not Sighting.objects.exists()
    assert ann.pk


def test_sightings_unused_for_30_days_are_pruned():
    ann = User.objects.create_user("ann", password=None)
    now = timezone.now()
    for days in (0, 29, 31):
        moment = now - timedelta(days=days)
        Sighting.objects.create(
            user=ann, address=f"a{days}", device="", first_seen=moment, last_seen=moment
        )
    from accounts.tasks import prune_sightings

    assert prune_sightings() == 1
    assert sorted(Sighting.objects.values_list("address", flat=True)) == ["a0", "a29"]


def _seen(user, address: str, device: str, first, last=None) -> None:
    Sighting.objects.create(
        user=user, address=address, device=device, first_seen=first, last_seen=last or first
    )


def test_two_accounts_share_an_address_or_device_only_within_30_days():
    ann = User.objects.create_user("ann", password=None)
    bob = User.objects.create_user("bob", password=None)
    now = timezone.now()
    _seen(ann, "home", "ann-phone", now - timedelta(days=60), now - timedelta(days=25))
    _seen(bob, "home", "bob-phone", now)  # 25 days after ann's last use: shared
    _seen(ann, "office", "ann-laptop", now - timedelta(days=90), now - timedelta(days=45))
    _seen(bob, "office", "bob-phone", now)  # 45 days after: not
    _seen(bob, "cafe", "ann-laptop", now - timedelta(days=80))  # ann's laptop, while hers
    found = {(m.what, m.value): m for m in sightings.shared(bob.pk, ann.pk)}
    assert set(found) == {("address", "home"), ("device", "ann-laptop")}
    assert found[("address", "home")].one == now
    assert found[("address", "home")].other == now - timedelta(days=25)
    assert sightings.shared(ann.pk, ann.pk + 1000) == []
