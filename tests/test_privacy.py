"""Leaving the site: a signed-in person downloads everything the site holds about them (one
JSON file, their password asked first), and deletes their account (password asked): their
personal data goes, while the Kudos ledger and every game log keep their integrity and the
other players' replays and stats still work."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client

from accounts import privacy, sightings
from accounts.models import GameStat, RatingChange, Sighting
from gameplay import services, store
from gameplay.engine import registry
from gameplay.models import Game
from kudos import referrals, selectors
from kudos import services as kudos
from kudos.models import Entry, Referral
from tests.played import person_pace, played_out

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "x-Long-pass-77"


@pytest.fixture
def table():
    """ann and bob: a finished War game, a finished ranked Poker game, a game still in play,
    Kudos, and ann invited by bob (paid)."""
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD, email="ann@example.com")
    bob = users.create_user("bob", password=PASSWORD)
    Referral.objects.create(invitee=ann, inviter=bob, joined=ann.date_joined)
    seats = [{"name": "ann", "user_id": ann.pk}, {"name": "bob", "user_id": bob.pk}]
    with person_pace(2.0):  # played, not scripted: the games count for stats
        war = played_out(services.start_game(kind="war", seats=seats, seed="short/235"))
        poker = played_out(
            services.start_game(kind="poker", seats=seats, seed="privacy", ranked=True)
        )
    live = services.start_game(kind="gin", seats=seats, seed="privacy-live")
    kudos.credit(
        user_id=bob.pk,
        amount=5,
        kind=Entry.Kind.REFERRAL,
        key=f"referral:{ann.pk}:invited",
        memo=referrals.INVITED_MEMO,
    )
    return ann, bob, war, poker, live


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sign_in_from(address: str, name: str) -> None:
    """A real sign-in, which notes where from (a sighting)."""
    response = Client(REMOTE_ADDR=address).post(
        "/accounts/login/", {"username": name, "password": PASSWORD}
    )
    assert response.status_code == 302


def test_the_export_holds_everything_and_only_what_the_seat_may_see(real_services, table):
    ann, bob, war, poker, live = table
    sign_in_from("203.0.113.9", "ann")
    client = signed_in(ann)
    refused = client.post("/accounts/data/export/", {"password": "not it"})
    assert refused.status_code == 403 and "not your password" in refused.content.decode()
    response = client.post("/accounts/data/export/", {"password": PASSWORD})
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="cubiccards-ann-')
    data = json.loads(response.content)
    assert data["account"]["username"] == "ann" and data["account"]["email"] == "ann@example.com"
    assert data["settings"]["time_zone"] == "UTC"
    assert {s["kind"] for s in data["stats"]} == {"war", "poker"}
    assert [r["game"] for r in data["rating_history"]] == [poker.pk]
    # Where she signed in from, as the site keeps it: keyed hashes, no address.
    [seen] = data["sightings"]
    assert seen["address"] == sightings.digest("203.0.113.9") and seen["device"]
    assert (
        seen["first_seen"] and seen["last_seen"] and "203.0.113.9" not in response.content.decode()
    )
    assert data["kudos"]["balance"] == sum(e["amount"] for e in data["kudos"]["ledger"]) > 0
    [invited_by] = data["referrals"]["invited_by"]
    assert invited_by["inviter"] == "bob" and invited_by["held_for_review"] is False
    games = {g["id"]: g for g in data["games"]}
    assert set(games) == {war.pk, poker.pk, live.pk}
    assert games[war.pk]["log"]["actions"]  # a finished game: its published log
    seat = games[live.pk]["your_seats"][0]
    assert "log" not in games[live.pk] and '"seed":' not in json.dumps(games[live.pk])
    engine = registry.get("gin")
    state = store.load_state(live)
    assert games[live.pk]["your_view"][str(seat)] == json.loads(
        json.dumps(engine.view(state, seat))
    )
    other = engine.view(state, 1 - seat)
    hidden = set(other.get("hand") or []) if isinstance(other, dict) else set()
    assert not hidden & set(json.dumps(games[live.pk]).split('"'))  # nothing of bob's hand


def test_deleting_an_account_erases_the_person_and_keeps_every_ledger_and_log(real_services, table):
    ann, bob, war, poker, live = table
    sign_in_from("203.0.113.9", "ann")
    sign_in_from("203.0.113.9", "bob")
    client, other_device = signed_in(ann), signed_in(ann)
    bob_stats = list(GameStat.objects.filter(user=bob).values())
    bob_balance = selectors.balance(bob.pk)
    refused = client.post("/accounts/delete/", {"password": "not it"})
    assert refused.status_code == 403
    assert get_user_model().objects.get(pk=ann.pk).username == "ann"

    response = client.post("/accounts/delete/", {"password": PASSWORD}, follow=True)
    assert "Your account is deleted" in response.content.decode()
    gone = get_user_model().objects.get(pk=ann.pk)
    assert gone.username != "ann" and gone.email == "" and not gone.has_usable_password()
    assert not gone.is_active
    assert not [
        s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(ann.pk)
    ]
    assert not Sighting.objects.filter(user=ann).exists()  # where she was: forgotten
    assert Sighting.objects.filter(user=bob).count() == 1  # bob's own: kept
    assert other_device.get("/accounts/settings/").status_code == 302  # signed out there too
    assert (
        Client().post("/accounts/login/", {"username": "ann", "password": PASSWORD}).status_code
        == 200
    )
    assert Client().get("/u/ann/").status_code == 404

    # The ledger and every game keep their integrity.
    assert selectors.audit()["problems"] == []
    for game in Game.objects.all():
        assert store.verify(game) == [], game.pk
    assert Entry.objects.filter(user=ann).exists()  # kept: balances still add up
    # bob's entry for the referral is kept as written: the ledger is append-only.
    assert Entry.objects.get(key=f"referral:{ann.pk}:invited").amount == 5
    # The other player's replays and stats still work, with no name of ann's in them.
    for game in (war, poker):
        page = Client().get(f"/games/{game.pk}/")
        assert page.status_code == 200 and ">ann<" not in page.content.decode()
        log = Client().get(f"/games/{game.pk}/log.json").json()
        assert [s["name"] for s in log["seats"]].count(privacy.PLACEHOLDER) == 1
        assert "ann" not in [s["name"] for s in log["seats"]]
    assert list(GameStat.objects.filter(user=bob).values()) == bob_stats
    assert RatingChange.objects.filter(game=poker).count() == 2
    assert selectors.balance(bob.pk) == bob_balance
    assert Client().get("/u/bob/").status_code == 200
