"""Milestone badges: every badge of the catalogue is earned through its real path by a history
that reaches it, and not by one that just misses; once each, the backfill pays once, and the
player hears of it at once."""

from datetime import UTC, date, datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.test import Client

from accounts import ratings
from accounts.models import GameStat, RatingChange
from cubiccards.asgi import application
from gameplay import hooks
from gameplay.models import Game
from kudos import awards, badges, challenges, clock, rules, selectors
from kudos.badges import (
    CATALOGUE,
    ArenaPodiums,
    Challenges,
    FactBest,
    FactTotal,
    FastWins,
    Played,
    RatingReached,
    StreakDays,
    Wins,
)
from kudos.models import Account, Attempt, BadgeEarned, Challenge, Entry, Streak
from kudos.receivers import award_badges

from .conftest import ended_game

pytestmark = pytest.mark.django_db(transaction=True)


def finish(
    user, kind="war", won=False, facts=None, seconds=60, status=Game.Status.OVER, ranked=False
):
    """A game of ``kind`` with ``user`` at seat 0 ends, and the end-of-game hook runs."""
    seats = [{"user_id": user.pk}]
    if kind not in ("klondike", "gridcannon"):
        seats.append({"bot": True})
    game = ended_game(seats=seats, winners=[0] if won else [1], kind=kind, status=status)
    ended = game.ended
    Game.objects.filter(pk=game.pk).update(
        created=ended - timedelta(seconds=seconds),
        facts=[facts or {}, {}][: len(seats)],
        ranked=ranked,
    )
    hooks.deliver(game.pk)
    return game


def stat(user, kind, played, wins=0):
    GameStat.objects.update_or_create(
        user=user, kind=kind, defaults={"played": played, "wins": wins}
    )


def rated(user, shown: int):
    """A stored rating history that reached ``shown``."""
    sigma = 2.0
    mu = (shown - ratings.DISPLAY_BASE) / ratings.DISPLAY_SCALE + 3 * sigma
    assert ratings.shown(mu, sigma) == shown
    game = ended_game(seats=[{"user_id": user.pk}, {"bot": True}], winners=[0], kind="poker")
    RatingChange.objects.create(
        user=user,
        game=game,
        kind="poker",
        ended=game.ended,
        place=1,
        mu_before=25,
        sigma_before=8.3,
        mu=mu,
        sigma=sigma,
    )


def challenge_of(day: date, kind="klondike") -> Challenge:
    return Challenge.objects.get_or_create(
        day=day,
        kind=kind,
        defaults={"rules": {}, "seed": f"s/{day}", "seed_hash": "0" * 64, "chosen": clock.now()},
    )[0]


def attempt_ends(user, won: bool, status=Game.Status.OVER):
    """Today's challenge attempt, played to its end through the hook."""
    today = clock.now().astimezone(UTC).date()
    game = ended_game(seats=[{"user_id": user.pk}], winners=[0] if won else [], kind="klondike")
    Game.objects.filter(pk=game.pk).update(status=status)
    challenges.attach(
        Attempt.objects.create(challenge=challenge_of(today), user=user, started=clock.now()), game
    )  # as the lobby does
    hooks.deliver(game.pk)


def play_today(user, at, day: date):
    """Five minutes of play on ``day``: a streak day, through the end-of-game hook."""
    moment = at(datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=12))
    game = ended_game(
        seats=[{"user_id": user.pk}],
        winners=[],
        kind="gridcannon",
        ended=moment,
        seconds=rules.DAY_PLAYED_MINUTES * 60,
    )
    hooks.deliver(game.pk)


def live_up_to(badge, user, reach: bool, at):
    """Stored history one short of the badge's goal, then one more event through the real
    path: one that reaches the goal (``reach``) or one that just misses it."""
    m, goal = badge.measure, badge.goal
    if isinstance(m, Played):
        stat(user, m.kind or "war", goal - 1)
        finish(user, m.kind or "war", status=Game.Status.OVER if reach else Game.Status.ABANDONED)
    elif isinstance(m, Wins):
        stat(user, m.kind or "war", goal - 1, goal - 1)
        finish(user, m.kind or "war", won=reach)
    elif isinstance(m, FactTotal):
        if goal > 1:
            finish(user, m.kind, facts={m.fact: goal - 1})
        finish(user, m.kind, facts={m.fact: 1 if reach else 0})
    elif isinstance(m, FactBest):
        finish(user, m.kind, facts={m.fact: goal if reach else goal - 1})
    elif isinstance(m, FastWins):
        finish(user, m.kind, won=True, seconds=m.seconds - 1 if reach else m.seconds)
    elif isinstance(m, StreakDays):
        today = date(2030, 1, 10)
        at(datetime(2030, 1, 9, 12, tzinfo=UTC))
        account, _ = Account.objects.get_or_create(user=user)
        days = goal - 1 if reach else goal - 2
        Streak.objects.update_or_create(
            account=account,
            defaults={"current": days, "best": days, "last_day": today - timedelta(days=1)},
        )
        play_today(user, at, today)
    elif isinstance(m, RatingReached):
        rated(user, goal if reach else goal - 1)
        finish(user, "poker", ranked=True)  # rating badges are checked after a ranked game
    elif isinstance(m, Challenges):
        for back in range(1, goal):
            day = clock.now().astimezone(UTC).date() - timedelta(days=back)
            Attempt.objects.create(
                challenge=challenge_of(day),
                user=user,
                started=clock.now(),
                finished=clock.now(),
                won=m.won,
            )
        if m.won:
            attempt_ends(user, won=reach)
        else:
            attempt_ends(user, won=False, status=Game.Status.OVER if reach else "abandoned")
    elif isinstance(m, ArenaPodiums):
        arena_ends(user, place=3 if reach else 4)
    else:
        raise AssertionError(f"no history for {type(m).__name__}: add one to this test")


def arena_ends(user, place: int):
    """An arena with four prizes finishes with ``user`` at ``place`` (arenas.services)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from arenas import services as arenas
    from arenas.models import Arena, Entrant

    now = timezone.now()
    arena = Arena.objects.create(
        name="Badge", kind="gin", starts=now, ends=now, status="closing", prizes=[10] * 4
    )
    for ahead in range(place - 1):
        rival = get_user_model().objects.create_user(f"rival-{ahead}", password="pw-long-enough")
        Entrant.objects.create(arena=arena, user=rival, points=9 - ahead, games=3, joined=now)
    Entrant.objects.create(arena=arena, user=user, points=5, games=3, joined=now)
    assert arenas.finish(arena.pk)


@pytest.mark.parametrize("reach", [True, False], ids=["reached", "just-missed"])
@pytest.mark.parametrize("badge", CATALOGUE, ids=[b.slug for b in CATALOGUE])
def test_each_badge_is_earned_by_its_milestone_only(badge, reach, real_services, player, at):
    ann = player()
    live_up_to(badge, ann, reach, at)
    earned = BadgeEarned.objects.filter(user=ann, badge=badge.slug).exists()
    assert earned == reach
    paid = Entry.objects.filter(key=f"badge:{badge.slug}:{ann.pk}")
    if reach:
        (entry,) = paid
        assert entry.amount == badge.reward and entry.kind == Entry.Kind.BADGE
        assert entry.memo == f"Badge: {badge.name}"
    else:
        assert not paid.exists()
    assert selectors.audit()["problems"] == []


def test_the_catalogue_is_well_formed():
    assert len({b.slug for b in CATALOGUE}) == len(CATALOGUE)
    assert len({b.name for b in CATALOGUE}) == len(CATALOGUE)
    for badge in CATALOGUE:
        assert badge.reward > 0 and badge.goal >= 1 and badge.about.endswith(".")
        assert badge.ring in ("bronze", "silver", "gold")
    # Every game has its first-win badge.
    from gameplay.engine import registry

    assert {f"first-win-{k}" for k in registry.kinds()} <= {b.slug for b in CATALOGUE}


def test_a_badge_pays_once_however_often_it_is_awarded(real_services, player):
    ann = player()
    game = finish(ann, "klondike", won=True, seconds=600)
    hooks.deliver(game.pk)
    award_badges(game)  # the receiver run again by hand
    assert awards.award_due(ann.pk) == []
    assert awards.award(ann.pk, badges.get("first-win-klondike")) is False
    earned = sorted(BadgeEarned.objects.filter(user=ann).values_list("badge", flat=True))
    assert earned == ["first-game", "first-win-klondike"]
    assert Entry.objects.filter(user=ann, kind=Entry.Kind.BADGE).count() == 2


def test_rating_badges_wait_for_a_ranked_game(real_services, player):
    ann = player()
    rated(ann, 1650)  # stored history (a rating recomputed, say)
    finish(ann, "war", won=True)
    assert not BadgeEarned.objects.filter(user=ann, badge="rating-1600").exists()
    finish(ann, "poker", ranked=True)
    assert BadgeEarned.objects.filter(user=ann, badge="rating-1600").exists()
    assert not BadgeEarned.objects.filter(user=ann, badge="rating-1800").exists()


def test_the_badges_receiver_waits_for_the_games_record(real_services, player):
    ann = player()
    game = ended_game(seats=[{"user_id": ann.pk}], winners=[0], kind="klondike")
    order = hooks.in_order()
    assert order.index("badges") > max(order.index("stats"), order.index("ratings"))
    ran = hooks.deliver(game.pk)
    assert ran.index("badges") > max(ran.index("stats"), ran.index("ratings"))
    assert BadgeEarned.objects.filter(user=ann, badge="first-win-klondike").exists()


def test_the_backfill_awards_stored_history_and_pays_once(real_services, player):
    ann, bob, cat = player(), player(), player()
    stat(ann, "war", 12, 11)  # history from before the badges existed: no hook ran for it
    stat(bob, "poker", 1, 0)
    account, _ = Account.objects.get_or_create(user=cat)
    Streak.objects.update_or_create(account=account, defaults={"best": 8})
    call_command("award_badges")
    expected = {
        ann.pk: {"first-game", "wins-10", "first-win-war", "war-10"},
        bob.pk: {"first-game"},
        cat.pk: {"streak-7"},
    }
    for user_id, slugs in expected.items():
        assert set(BadgeEarned.objects.filter(user_id=user_id).values_list("badge", flat=True)) == (
            slugs
        )
    before = {u: Account.objects.get(user_id=u).balance for u in expected}
    assert before[ann.pk] == sum(badges.get(s).reward for s in expected[ann.pk])
    call_command("award_badges")
    assert {u: Account.objects.get(user_id=u).balance for u in expected} == before
    assert Entry.objects.filter(kind=Entry.Kind.BADGE).count() == 6
    call_command("verify_ledger")


def test_a_new_badge_is_announced_with_its_art_over_the_header_socket(real_services, player):
    ann = player()
    client = Client()
    client.force_login(ann)

    async def run():
        headers = [
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
        ]
        socket = WebsocketCommunicator(application, "/ws/kudos/", headers=headers)
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=5)
        await database_sync_to_async(finish)(ann, "war", won=True)
        pushed = [await socket.receive_from(timeout=5) for _ in range(3)]  # play, 2 badges
        await socket.disconnect()
        return pushed

    from asgiref.sync import async_to_sync

    pushed = async_to_sync(run)()
    toasts = [p for p in pushed if "data-badge-toast" in p]
    assert len(toasts) == 2
    for slug in ("first-game", "first-win-war"):
        toast = next(p for p in toasts if f'data-badge-toast="{slug}"' in p)
        assert 'id="kudos-toasts" hx-swap-oob="beforeend"' in toast
        assert f"/kudos/badges/{slug}.svg" in toast
        assert f"Badge earned: {badges.get(slug).name}" in toast


def test_the_profile_shows_every_badge_earned_or_not_with_progress(real_services, player, client):
    ann = player("ann")
    stat(ann, "war", 4, 3)
    finish(ann, "war", won=True)  # 4 wins: first game, first win at War
    html = client.get("/u/ann/").content.decode()
    assert html.count("data-badge=") == len(CATALOGUE)
    assert html.count("data-earned") == 2
    assert 'data-badge="first-win-war" data-earned' in html
    assert "4 of 10 · 25 Kudos" in html  # ten wins, and War veteran
    assert 'src="/kudos/badges/wins-10.svg?locked=1"' in html
    assert "Level 1" in html


def test_badge_art_is_served_as_svg(client, db):
    response = client.get("/kudos/badges/poker-five.svg")
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    body = response.content.decode()
    assert body.startswith("<svg") and "Five of a kind" in body and "5 of a kind" in body
    locked = client.get("/kudos/badges/poker-five.svg?locked=1").content.decode()
    assert locked != body and "#8b8f99" in locked  # the grey ring
    assert client.get("/kudos/badges/no-such.svg").status_code == 404


def test_a_streak_badge_is_paid_with_the_day_that_reaches_it(real_services, player, at):
    ann = player()
    at(datetime(2030, 1, 9, 12, tzinfo=UTC))
    account, _ = Account.objects.get_or_create(user=ann)
    Streak.objects.update_or_create(
        account=account, defaults={"current": 6, "best": 6, "last_day": date(2030, 1, 9)}
    )
    moment = at(datetime(2030, 1, 10, 9, tzinfo=UTC))
    game = ended_game(
        seats=[{"user_id": ann.pk}], winners=[], kind="gridcannon", ended=moment, seconds=300
    )
    hooks.deliver(game.pk)  # five minutes of play: day 7
    assert Entry.objects.get(key=f"badge:streak-7:{ann.pk}").amount == 50
    assert rules.streak_reward(7) == Entry.objects.get(key=f"streak:{ann.pk}:2030-01-10").amount
