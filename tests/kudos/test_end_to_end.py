"""The whole stack on a controlled clock: daphne, a Celery worker and Celery beat, PostgreSQL
and Redis. A War game flipped at a script's speed through the socket pays nothing; games played
at a person's pace pay Kudos from play and the day's streak reward; beat's upkeep spends a
grace day on a missed day, and beat closes the week and pays its prize, which the open header
hears at once."""

import time

import pytest
import websockets.sync.client
from django.core.management import call_command

from accounts.models import User
from gameplay import hooks
from gameplay.models import GameEndReceipt
from kudos.models import Entry, StreakDay, WeekClose
from tests.played import ended_game

from ..e2e.client import SiteClient
from ..e2e.test_war_online import SHORT_WAR, _seeded_war, play_until_over

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stack_clock(at, monkeypatch):
    """The test clock for every process of the stack, and beat's Kudos tasks every second.
    Listed before the processes, so they start with it."""
    monkeypatch.setenv("KUDOS_TEST_CLOCK", "1")
    monkeypatch.setenv("KUDOS_BEAT_EVERY", "1")
    return at


def eventually(check, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{check.__doc__ or check} did not happen within {timeout} s")


def header_socket(client: SiteClient):
    cookie = "; ".join(f"{c.name}={c.value}" for c in client.cookies)
    url = client.base.replace("http://", "ws://") + "/ws/kudos/"
    return websockets.sync.client.connect(
        url, additional_headers={"Cookie": cookie, "Origin": client.base}, open_timeout=10
    )


def test_streak_play_upkeep_and_weekly_close_on_the_whole_stack(
    stack_clock, daphne_server, celery_worker_process, celery_beat_process
):
    at = stack_clock
    ann = User.objects.create_user("ann", password="kudos-e2e-pass-1")
    at("2030-01-07 10:00")  # Monday of 2030-W02
    site = SiteClient(daphne_server)
    site.post("/accounts/login/", {"username": "ann", "password": "kudos-e2e-pass-1"})
    page = site.get("/kudos/").read().decode()  # a visit pays nothing: play does
    assert 'class="kudos-balance">0<' in page

    code = site.create_room()
    game = _seeded_war(code, 2, SHORT_WAR)
    assert game.seats[0]["user_id"] == ann.pk
    with site.socket(code) as ws:
        play_until_over(ws, seat=0)  # each flip the moment it is asked for

    def delivered():
        return GameEndReceipt.objects.filter(game=game, receiver="kudos").exists()

    eventually(delivered)
    assert not Entry.objects.filter(user=ann).exists()  # no play at a script's speed

    def person_plays(moment: str) -> None:
        """Ten minutes of War at a person's pace, ending at ``moment``."""
        at(moment)
        played = ended_game(
            seats=[{"user_id": ann.pk, "name": "ann"}, {"bot": True}], winners=[0], seconds=600
        )
        hooks.deliver(played.pk)

    person_plays("2030-01-07 10:30")
    page = site.get("/kudos/").read().decode()
    assert "Won War at a table of 2: 10 min 0 s of play" in page
    assert "Day 1 of your daily streak" in page

    person_plays("2030-01-08 09:00")
    assert "Day 2 of your daily streak" in site.get("/kudos/").read().decode()

    at("2030-01-10 09:00")  # Wednesday the 9th was missed: beat's upkeep covers it

    def grace_day():
        return StreakDay.objects.filter(user=ann, outcome="grace").first()

    assert eventually(grace_day).day.isoformat() == "2030-01-09"

    with header_socket(site) as header:
        assert 'id="kudos-slot"' in header.recv(timeout=10)
        at("2030-01-14 00:06")  # the week ended six minutes ago: beat closes it

        def prize():
            return Entry.objects.filter(user=ann, kind=Entry.Kind.WEEKLY).first()

        assert eventually(prize).amount == 500
        pushed = header.recv(timeout=10)
        assert "+500 Kudos: 1st place in week 2030-W02" in pushed
    time.sleep(2)  # beat keeps running the close: it pays once
    assert WeekClose.objects.get(week="2030-W02").places.count() == 1
    assert Entry.objects.filter(kind=Entry.Kind.WEEKLY).count() == 1
    assert celery_worker_process.poll() is None and celery_beat_process.poll() is None
    call_command("verify_ledger")
