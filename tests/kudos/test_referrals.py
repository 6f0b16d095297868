"""Referrals: a sign-up through an invite link pays both players once the new one has finished
3 games on 3 different UTC days, once; never for inviting yourself; held for review when the
new player was seen at the inviter's address or device, until staff release (paid once) or
decline it (never paid); the inviter at most a few times a month; the inviter sees who joined
and who qualified."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import sightings
from accounts.models import Sighting, User
from accounts.services import record_game
from gameplay import hooks
from kudos import referrals, rules
from kudos.models import Entry, Referral

from .conftest import ended_game
from .test_ledger import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "grey-Otter-71-lantern"


def sign_up(client: Client, name: str) -> User:
    response = client.post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return User.objects.get(username=name)


def invited_by(inviter: User, name: str, client: Client | None = None) -> User:
    """A new browser opens the inviter's link and signs up."""
    client = client or Client()
    page = client.get(f"/invite/{inviter.username}/")
    assert page.status_code == 200
    assert f"{inviter.username} invites you to Cubic Cards" in page.content.decode()
    return sign_up(client, name)


def finished(user, ended: datetime):
    game = ended_game(seats=[{"user_id": user.pk}], winners=[], kind="klondike", ended=ended)
    hooks.deliver(game.pk)


def referral_kudos(user) -> list[tuple[int, str]]:
    return list(
        Entry.objects.filter(user=user, kind=Entry.Kind.REFERRAL).values_list("amount", "memo")
    )


DAY1 = datetime(2030, 1, 7, 12, tzinfo=UTC)
DAY2 = DAY1 + timedelta(days=1)
DAY3 = DAY2 + timedelta(days=1)
WELCOME = "Welcome: you joined through a friend's invite"
INVITED = "Referral: a friend you invited played three days"


def test_a_referral_pays_both_once_the_new_player_settles_in(at, player):
    ann = player("ann")
    bob = invited_by(ann, "bob")
    referral = Referral.objects.get(invitee=bob)
    assert referral.inviter == ann and referral.qualified is None
    at(DAY1)
    for hour in range(3):  # three games, one day: not yet
        finished(bob, DAY1 + timedelta(hours=hour))
    assert referral_kudos(ann) == [] and referral_kudos(bob) == []
    at(DAY2)
    finished(bob, DAY2)  # a second day: not yet
    assert referral_kudos(ann) == [] and referral_kudos(bob) == []
    at(DAY3)
    finished(bob, DAY3)  # a third day
    assert referral_kudos(ann) == [(rules.REFERRAL_INVITER, INVITED)]
    assert referral_kudos(bob) == [(rules.REFERRAL_INVITEE, WELCOME)]
    referral.refresh_from_db()
    assert referral.qualified == DAY3 and referral.inviter_paid
    # Only once: more games, the hook again, a direct call.
    finished(bob, DAY3 + timedelta(hours=1))
    assert referrals.qualify(bob.pk) is None
    assert len(referral_kudos(ann)) == 1 and len(referral_kudos(bob)) == 1


def test_games_on_two_days_are_not_enough(at, player):
    ann = player("ann")
    bob = invited_by(ann, "bob")
    at(DAY2)
    finished(bob, DAY1)
    finished(bob, DAY2)
    finished(bob, DAY2 + timedelta(hours=1))
    assert referral_kudos(ann) == [] and Referral.objects.get(invitee=bob).qualified is None


def test_days_are_the_sites_utc_days_whatever_the_new_players_zone(at, player):
    player("ann")
    client = Client()
    client.get("/invite/ann/")
    bob = sign_up(client, "bob")
    bob.time_zone = "Etc/GMT-12"  # UTC+12: his midnight falls at 12:00 UTC
    bob.save()
    at(DAY2)
    # Three games in 14 minutes across his own midnight: one UTC day, not three days.
    for minute in (0, 5, 14):
        finished(bob, datetime(2030, 1, 7, 11, 50, tzinfo=UTC) + timedelta(minutes=minute))
    assert referral_kudos(bob) == [] and Referral.objects.get(invitee=bob).qualified is None
    finished(bob, DAY2)  # a second UTC day: still not three
    assert referral_kudos(bob) == []
    at(DAY3)
    finished(bob, DAY3)
    assert referral_kudos(bob) == [(rules.REFERRAL_INVITEE, WELCOME)]


def test_inviting_yourself_pays_nothing(at, player):
    ann = player("ann")
    ann.set_password(PASSWORD)
    ann.save()
    browser = Client()
    browser.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    # Her own link, signed in: it says so, and nothing is kept.
    response = browser.get("/invite/ann/", follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["This is your own invite link: send it to a friend who hasn't joined yet."]
    # Signed out, in the same browser: a second account from her own link doesn't count.
    browser.post("/accounts/logout/")
    browser.get("/invite/ann/")
    sign_up(browser, "ann2")
    assert not Referral.objects.exists()
    # Nor does a sign-up by anyone in a browser she used, through her link.
    browser.post("/accounts/logout/")
    browser.get("/invite/ann/")
    sign_up(browser, "ann3")
    assert not Referral.objects.exists()
    # A fresh browser's sign-up does.
    invited_by(ann, "cat")
    assert list(Referral.objects.values_list("invitee__username", flat=True)) == ["cat"]


def test_an_older_account_signing_in_after_the_link_is_no_referral(player):
    player("ann")
    old = player("old")
    old.set_password(PASSWORD)
    old.save()
    browser = Client()
    browser.get("/invite/ann/")
    browser.post("/accounts/login/", {"username": "old", "password": PASSWORD})
    assert not Referral.objects.exists()
    response = browser.get("/invite/ann/", follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["You have an account already: invite links are for new players."]
    assert Client().get("/invite/nobody/").status_code == 404


def test_the_inviter_is_paid_at_most_the_monthly_cap(at, player, monkeypatch):
    monkeypatch.setattr(rules, "REFERRAL_MONTHLY_CAP", 2)
    ann = player("ann")
    friends = [invited_by(ann, f"friend{i}") for i in range(3)]
    at(DAY3)
    for friend in friends:
        for moment in (DAY1, DAY2, DAY3):
            finished(friend, moment)
    assert len(referral_kudos(ann)) == 2
    assert all(len(referral_kudos(f)) == 1 for f in friends)  # the new players always are
    assert Referral.objects.filter(inviter_paid=False).count() == 1
    # A new month, a new cap.
    late = invited_by(ann, "late")
    at(datetime(2030, 2, 1, 12, tzinfo=UTC))
    for moment in (DAY1, DAY2, datetime(2030, 2, 1, 12, tzinfo=UTC)):
        finished(late, moment)
    assert len(referral_kudos(ann)) == 3


def test_parallel_qualifications_never_pass_the_cap(at, player, monkeypatch):
    monkeypatch.setattr(rules, "REFERRAL_MONTHLY_CAP", 3)
    ann = player("ann")
    friends = [invited_by(ann, f"friend{i}") for i in range(8)]
    at(DAY3)
    for friend in friends:  # each has settled in (the games' records, no hook run yet)
        for moment in (DAY1, DAY2, DAY3):
            game = ended_game(
                seats=[{"user_id": friend.pk}], winners=[], kind="klondike", ended=moment
            )
            record_game(game)
    connection.close()
    results, errors = in_parallel(8, lambda i: referrals.qualify(friends[i].pk))
    assert errors == [] and all(results)
    assert len(referral_kudos(ann)) == 3
    assert Referral.objects.filter(inviter_paid=True).count() == 3
    assert all(len(referral_kudos(f)) == 1 for f in friends)


def test_the_inviter_sees_who_joined_and_who_qualified(at, player):
    ann = player("ann")
    bob, cat = invited_by(ann, "bob"), invited_by(ann, "cat")
    at(DAY3)
    for moment in (DAY1, DAY2, DAY3):
        finished(bob, moment)
    finished(cat, DAY3)
    client = Client()
    client.force_login(ann)
    html = client.get("/kudos/").content.decode()
    assert 'value="http://testserver/invite/ann/"' in html
    table = html[html.index("data-invited") :]
    assert f"Qualified {DAY3:%-d %b}: +{rules.REFERRAL_INVITER} Kudos" in table
    assert "1 of 3 games, 1 of 3 days" in table
    assert table.index("bob") > 0 and table.index("cat") > 0


# ---- held for review: the invitee seen where the inviter was --------------------------------

HOME, AWAY = "203.0.113.9", "198.51.100.7"


def signs_in_from(address: str, user: User) -> Client:
    """The inviter signs in for real from an address (a sighting), and signs out."""
    user.set_password(PASSWORD)
    user.save()
    browser = Client(REMOTE_ADDR=address)
    assert (
        browser.post(
            "/accounts/login/", {"username": user.username, "password": PASSWORD}
        ).status_code
        == 302
    )
    browser.post("/accounts/logout/")
    return browser


def three_days(user) -> None:
    for moment in (DAY1, DAY2, DAY3):
        finished(user, moment)


def test_a_fresh_browser_on_the_inviters_address_is_held_for_review(at, player):
    ann = player("ann")
    signs_in_from(HOME, ann)
    bob = invited_by(ann, "bob", Client(REMOTE_ADDR=HOME))  # another browser, her address
    at(DAY3)
    three_days(bob)
    referral = Referral.objects.get(invitee=bob)
    assert referral.held and referral.qualified is None and not referral.inviter_paid
    assert referral_kudos(ann) == [] and referral_kudos(bob) == []
    address = sightings.digest(HOME)[:12]
    assert f"Signed up from the inviter's address (address hash {address})" in referral.evidence
    assert f"Seen from the inviter's address (address hash {address})" in referral.evidence
    assert "device" not in referral.evidence  # a browser of its own
    # Held stays held: more games and the hook again pay nothing.
    finished(bob, DAY3 + timedelta(hours=1))
    assert referrals.qualify(bob.pk) is None and referral_kudos(ann) == []
    client = Client()
    client.force_login(ann)
    assert "held for review" in client.get("/kudos/").content.decode()


def test_a_self_referral_with_cookies_cleared_is_held(at, player):
    ann = player("ann")
    signs_in_from(HOME, ann)
    # Cookies cleared: the browser forgot her, the address didn't change.
    ann2 = invited_by(ann, "ann2", Client(REMOTE_ADDR=HOME))
    at(DAY3)
    three_days(ann2)
    assert Referral.objects.get(invitee=ann2).held
    assert referral_kudos(ann) == [] and referral_kudos(ann2) == []


def test_playing_from_the_inviters_address_holds_it_too(at, player):
    ann = player("ann")
    signs_in_from(HOME, ann)
    browser = Client(REMOTE_ADDR=AWAY)
    bob = invited_by(ann, "bob", browser)
    assert Referral.objects.get(invitee=bob).evidence == ""  # signed up elsewhere
    at_hers = Client(REMOTE_ADDR=HOME)
    at_hers.force_login(bob)
    assert at_hers.post("/play/klondike/").status_code == 302  # sits down at her address
    at(DAY3)
    three_days(bob)
    referral = Referral.objects.get(invitee=bob)
    assert referral.held and referral.evidence.startswith("Seen from the inviter's address")


def test_another_address_and_device_on_three_utc_days_pays_once(at, player):
    ann = player("ann")
    signs_in_from(HOME, ann)
    bob = invited_by(ann, "bob", Client(REMOTE_ADDR=AWAY))
    at(DAY3)
    three_days(bob)
    referral = Referral.objects.get(invitee=bob)
    assert referral.qualified == DAY3 and not referral.held and referral.evidence == ""
    assert referrals.qualify(bob.pk) is None and referrals.qualify(bob.pk) is None
    assert referral_kudos(ann) == [(rules.REFERRAL_INVITER, INVITED)]
    assert referral_kudos(bob) == [(rules.REFERRAL_INVITEE, WELCOME)]


def test_the_inviters_address_more_than_30_days_before_is_no_evidence(at, player):
    ann = player("ann")
    signs_in_from(HOME, ann)
    long_ago = timezone.now() - timedelta(days=31)
    Sighting.objects.filter(user=ann).update(first_seen=long_ago, last_seen=long_ago)
    bob = invited_by(ann, "bob", Client(REMOTE_ADDR=HOME))
    at(DAY3)
    three_days(bob)
    referral = Referral.objects.get(invitee=bob)
    assert referral.qualified and not referral.held and len(referral_kudos(ann)) == 1


def review(admin_client, action: str, *referrals_: Referral) -> str:
    response = admin_client.post(
        "/admin/kudos/referral/",
        {"action": action, "_selected_action": [r.pk for r in referrals_]},
        follow=True,
    )
    assert response.status_code == 200
    return " ".join(str(m) for m in response.context["messages"])


def test_staff_release_pays_once_and_decline_never(at, player, admin_client):
    ann = player("ann")
    signs_in_from(HOME, ann)
    bob = invited_by(ann, "bob", Client(REMOTE_ADDR=HOME))
    cat = invited_by(ann, "cat", Client(REMOTE_ADDR=HOME))
    at(DAY3)
    three_days(bob)
    three_days(cat)
    held_bob, held_cat = Referral.objects.get(invitee=bob), Referral.objects.get(invitee=cat)
    assert held_bob.held and held_cat.held

    listed = admin_client.get("/admin/kudos/referral/?status=held").content.decode()
    assert "Held for review" in listed and "Signed up from the inviter&#x27;s address" in listed
    one = admin_client.get(f"/admin/kudos/referral/{held_bob.pk}/change/").content.decode()
    assert "Seen from the inviter&#x27;s address" in one  # the evidence, read-only

    assert review(admin_client, "release", held_bob) == "1 referral released and paid."
    said = review(admin_client, "release", held_bob)  # again: nothing more
    assert said.startswith("0 referrals released and paid.") and "not held" in said
    assert referrals.release(held_bob.pk) is None
    held_bob.refresh_from_db()
    assert held_bob.qualified == DAY3 and held_bob.inviter_paid and not held_bob.held
    assert held_bob.evidence  # kept: why it was held
    assert referral_kudos(ann) == [(rules.REFERRAL_INVITER, INVITED)]
    assert referral_kudos(bob) == [(rules.REFERRAL_INVITEE, WELCOME)]

    assert review(admin_client, "decline", held_cat) == "1 referral declined."
    finished(cat, DAY3 + timedelta(hours=2))  # the hook again
    assert referrals.qualify(cat.pk) is None and referrals.release(held_cat.pk) is None
    held_cat.refresh_from_db()
    assert held_cat.declined == DAY3 and held_cat.qualified is None and not held_cat.held
    assert referral_kudos(cat) == [] and len(referral_kudos(ann)) == 1
    assert Referral.objects.filter(held=True).count() == 0
