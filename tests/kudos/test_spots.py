"""Sponsor spots: a token pays once, only after the spot's full length, only to the player it
was issued to, before it expires, a few times a day, and only on a day the player has played;
anything else pays nothing and says why."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import signing
from django.test import Client

from gameplay import hooks
from kudos import rules, services, spots
from kudos.models import Entry

from .conftest import ended_game

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2030, 1, 7, 12, tzinfo=UTC)
LENGTH = timedelta(seconds=rules.SPOT_SECONDS)


def played(user, moment: datetime):
    """A counted game of ``user``'s ending at ``moment``: a day of play, credited."""
    game = ended_game(seats=[{"user_id": user.pk}, {"bot": True}], winners=[1], ended=moment)
    hooks.deliver(game.pk)


@pytest.fixture
def ann(player):
    """A player who has played today (NOON's day)."""
    made = player()
    played(made, NOON - timedelta(hours=1))
    return made


def spot_kudos(user) -> int:
    return sum(
        Entry.objects.filter(user=user, kind=Entry.Kind.SPOT).values_list("amount", flat=True)
    )


def refused(user, token) -> str:
    with pytest.raises(services.Refused) as caught:
        spots.claim(user, token)
    return caught.value.message


def test_a_spot_pays_once_after_its_full_length(at, ann):
    at(NOON)
    spot, token = spots.begin(ann)
    assert spot in spots.catalogue()
    at(NOON + LENGTH)
    entry = spots.claim(ann, token)
    assert (entry.amount, entry.kind) == (rules.SPOT_PAY, Entry.Kind.SPOT)
    assert entry.memo == f"Watched a spot: {spot.title}"
    assert refused(ann, token) == "This spot was paid already."
    assert spot_kudos(ann) == rules.SPOT_PAY


def test_an_early_token_pays_nothing_until_the_spot_is_over(at, ann):
    at(NOON)
    _, token = spots.begin(ann)
    at(NOON + LENGTH - timedelta(seconds=5))
    assert refused(ann, token) == "The spot is not over yet: 5 seconds to go."
    at(NOON + LENGTH - timedelta(milliseconds=200))
    assert refused(ann, token) == "The spot is not over yet: 1 second to go."
    assert spot_kudos(ann) == 0
    at(NOON + LENGTH)  # watched to the end after all
    spots.claim(ann, token)
    assert spot_kudos(ann) == rules.SPOT_PAY


def test_an_expired_token_pays_nothing(at, ann):
    at(NOON)
    _, token = spots.begin(ann)
    at(NOON + rules.SPOT_TOKEN_LIFETIME + timedelta(seconds=1))
    assert refused(ann, token) == "That spot token has expired: start a new spot."
    assert spot_kudos(ann) == 0


def test_forged_and_altered_tokens_pay_nothing(at, ann):
    at(NOON)
    _, token = spots.begin(ann)
    at(NOON + LENGTH)
    data = signing.loads(token, salt=spots.SALT)
    forged = [
        "",
        "not-a-token",
        token[:-2] + ("aa" if not token.endswith("aa") else "bb"),  # a changed signature
        signing.dumps({**data, "t": (NOON - timedelta(hours=1)).isoformat()}, salt="other"),
        signing.dumps({**data, "n": "mine"}, key="a key that is not the site's", salt=spots.SALT),
        signing.dumps({"u": ann.pk}, salt=spots.SALT),  # signed, but not a spot token
    ]
    for bad in forged:
        assert refused(ann, bad) == "That spot token is not one we issued: nothing to pay."
    assert spot_kudos(ann) == 0


def test_someone_elses_token_pays_nothing(at, ann, player):
    bob = player()
    played(bob, NOON - timedelta(hours=1))
    at(NOON)
    _, token = spots.begin(ann)
    at(NOON + LENGTH)
    assert refused(bob, token) == "That spot was started by another player: nothing to pay."
    assert spot_kudos(bob) == 0 and spot_kudos(ann) == 0


def test_five_spots_a_utc_day_whatever_the_zone(at, player):
    ann = player(zone="America/New_York")  # her midnight is 05:00 UTC: it changes nothing
    played(ann, NOON)
    moment = datetime(2030, 1, 7, 23, 30, tzinfo=UTC)
    tokens = []
    for _ in range(rules.SPOTS_PER_DAY + 1):
        at(moment)
        tokens.append(spots.begin(ann)[1])
        moment += timedelta(minutes=1)
    at(moment + LENGTH)
    for token in tokens[:-1]:
        spots.claim(ann, token)
    said = refused(ann, tokens[-1])
    assert said == "You have watched 5 spots today, the most that pay: more tomorrow."
    with pytest.raises(services.Refused, match="more tomorrow"):
        spots.begin(ann)
    assert spot_kudos(ann) == rules.SPOTS_PER_DAY * rules.SPOT_PAY
    at(datetime(2030, 1, 8, 0, 1, tzinfo=UTC))  # after midnight UTC (evening in New York)
    played(ann, datetime(2030, 1, 8, 0, 0, 30, tzinfo=UTC))  # a new day: play first
    _, token = spots.begin(ann)
    at(datetime(2030, 1, 8, 0, 1, tzinfo=UTC) + LENGTH)
    spots.claim(ann, token)
    assert spot_kudos(ann) == (rules.SPOTS_PER_DAY + 1) * rules.SPOT_PAY


def test_watching_a_spot_in_the_pages(at, ann):
    at(NOON)
    client = Client()
    client.force_login(ann)
    html = client.get("/kudos/").content.decode()
    assert "Watched today: 0 of 5." in html and 'action="/kudos/spots/watch/"' in html
    response = client.post("/kudos/spots/watch/")
    page = response.content.decode()
    assert 'data-seconds="15"' in page and "Collect 5 Kudos" in page
    token = page.split('name="token" value="')[1].split('"')[0]
    response = client.post("/kudos/spots/claim/", {"token": token}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["The spot is not over yet: 15 seconds to go."]
    at(NOON + LENGTH)
    response = client.post("/kudos/spots/claim/", {"token": token}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["+5 Kudos: thank you for watching."]
    assert "Watched today: 1 of 5." in response.content.decode()
    assert Client().post("/kudos/spots/watch/").status_code == 302  # guests sign in first


def test_no_spot_pays_on_a_day_without_play(at, player):
    """Watching is no play: a spot opens only once the player has played that UTC day."""
    ann = player()
    played(ann, NOON - timedelta(days=1))  # yesterday's play opens nothing today
    at(NOON)
    with pytest.raises(services.Refused) as caught:
        spots.begin(ann)
    assert caught.value.message == spots.CLOSED
    client = Client()
    client.force_login(ann)
    html = client.get("/kudos/").content.decode()
    assert spots.CLOSED in html and 'action="/kudos/spots/watch/"' not in html
    response = client.post("/kudos/spots/watch/", follow=True)
    assert [str(m) for m in response.context["messages"]] == [spots.CLOSED]

    played(ann, NOON + timedelta(minutes=1))  # she plays
    at(NOON + timedelta(minutes=2))
    _, token = spots.begin(ann)
    at(NOON + timedelta(minutes=2) + LENGTH)
    spots.claim(ann, token)
    assert spot_kudos(ann) == rules.SPOT_PAY


def test_a_spot_begun_yesterday_pays_nothing_today_without_play(at, ann):
    at(datetime(2030, 1, 7, 23, 59, 50, tzinfo=UTC))
    _, token = spots.begin(ann)
    at(datetime(2030, 1, 8, 0, 0, 5, tzinfo=UTC) + LENGTH)
    assert refused(ann, token) == spots.CLOSED
    assert spot_kudos(ann) == 0


def test_a_game_that_does_not_count_opens_no_spot(at, player):
    ann = player()
    game = ended_game(
        seats=[{"user_id": ann.pk}, {"bot": True}], winners=[1], kind="gin", ended=NOON, decisions=1
    )
    hooks.deliver(game.pk)  # one draw is no game of Gin: nothing credited
    at(NOON + timedelta(minutes=1))
    assert refused_begin(ann) == spots.CLOSED


def refused_begin(user) -> str:
    with pytest.raises(services.Refused) as caught:
        spots.begin(user)
    return caught.value.message
