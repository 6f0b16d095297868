"""The weekly leaderboard: Kudos from play per ISO week, closed once, late or not, and frozen."""

import pytest

from kudos import rules, services
from kudos.models import Entry, WeekClose, WeekPlace

from .test_ledger import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)


def earn(at, user, amount, moment, kind=Entry.Kind.PLAY):
    at(moment)
    services.credit(
        user_id=user.pk,
        amount=amount,
        kind=kind,
        key=f"test:{user.pk}:{moment}:{kind}",
        memo="Test",
    )


def prizes(user) -> list[tuple[int, str]]:
    return list(
        Entry.objects.filter(user=user, kind=Entry.Kind.WEEKLY)
        .order_by("id")
        .values_list("amount", "reference")
    )


def test_the_close_pays_once_after_the_week(at, player):
    ann, bob, cat = player("ann"), player("bob"), player("cat")
    earn(at, ann, 30, "2030-01-07 00:00")  # Monday 00:00 UTC: the first moment of 2030-W02
    earn(at, bob, 50, "2030-01-09 12:00")
    earn(at, cat, 40, "2030-01-13 23:59:59")  # the last second of the week
    earn(at, cat, 1000, "2030-01-13 20:00", kind=Entry.Kind.STREAK)  # not from play
    at("2030-01-14 00:04")
    assert services.close_weeks() == []  # the week closes a few minutes after it ends
    at("2030-01-14 00:06")
    assert services.close_weeks() == ["2030-W02"]
    assert services.close_weeks() == []
    at("2030-01-21 12:00")
    assert services.close_weeks() == ["2030-W03"]  # an empty week closes too
    assert prizes(bob) == [(500, "week:2030-W02")]
    assert prizes(cat) == [(300, "week:2030-W02")]
    assert prizes(ann) == [(200, "week:2030-W02")]
    close = WeekClose.objects.get(week="2030-W02")
    assert close.players == 3
    assert [(p.place, p.name, p.earned, p.prize) for p in close.places.all()] == [
        (1, "bob", 50, 500),
        (2, "cat", 40, 300),
        (3, "ann", 30, 200),
    ]
    assert Entry.objects.get(user=bob, kind=Entry.Kind.WEEKLY).memo == "1st place in week 2030-W02"


def test_a_late_close_pays_each_week_that_ended_on_its_own_kudos(at, player):
    ann, bob = player("ann"), player("bob")
    earn(at, ann, 30, "2030-01-08 10:00")  # 2030-W02: ann
    earn(at, bob, 20, "2030-01-08 11:00")
    earn(at, bob, 60, "2030-01-15 10:00")  # 2030-W03: bob
    earn(at, ann, 10, "2030-02-04 10:00")  # 2030-W06, not over yet
    at("2030-02-05 09:00")  # the worker was down for three weeks
    assert services.close_weeks() == ["2030-W02", "2030-W03", "2030-W04", "2030-W05"]
    assert prizes(ann) == [(500, "week:2030-W02")]
    assert prizes(bob) == [(300, "week:2030-W02"), (500, "week:2030-W03")]
    assert services.close_weeks() == []


def test_prizes_do_not_count_as_play(at, player):
    ann, bob = player("ann"), player("bob")
    earn(at, ann, 30, "2030-01-08 10:00")
    at("2030-01-14 00:10")
    services.close_weeks()  # ann's 500 is paid in 2030-W03, and is not Kudos from play
    earn(at, bob, 5, "2030-01-15 10:00")
    at("2030-01-21 00:10")
    services.close_weeks()
    assert [p.name for p in WeekClose.objects.get(week="2030-W03").places.all()] == ["bob"]


def test_ties_go_to_whoever_got_there_first(at, player):
    ann, bob = player("ann"), player("bob")
    earn(at, bob, 20, "2030-01-08 10:00")
    earn(at, ann, 20, "2030-01-09 10:00")
    earn(at, ann, 10, "2030-01-10 10:00")  # ann 30 at the 10th, bob 20 at the 8th
    earn(at, bob, 10, "2030-01-11 10:00")  # bob 30 at the 11th: ann got there first
    at("2030-01-14 00:10")
    services.close_weeks()
    assert [p.name for p in WeekClose.objects.get(week="2030-W02").places.all()] == ["ann", "bob"]


def test_parallel_closes_pay_once(at, player):
    users = [player() for _ in range(12)]
    for i, user in enumerate(users):
        earn(at, user, 10 + i, f"2030-01-08 10:{i:02d}")
    at("2030-01-14 00:10")
    results, errors = in_parallel(6, lambda i: services.close_weeks())
    assert errors == []
    assert sorted(map(len, results)) == [0, 0, 0, 0, 0, 1]
    assert Entry.objects.filter(kind=Entry.Kind.WEEKLY).count() == len(rules.WEEKLY_PRIZES)
    assert sum(
        Entry.objects.filter(kind=Entry.Kind.WEEKLY).values_list("amount", flat=True)
    ) == sum(rules.WEEKLY_PRIZES)
    assert WeekPlace.objects.count() == 12


def test_a_deleted_player_leaves_the_board(at, player):
    ann, bob, cat = player("ann"), player("bob"), player("cat")
    earn(at, ann, 50, "2030-01-08 10:00")
    earn(at, bob, 40, "2030-01-08 10:00")
    earn(at, cat, 30, "2030-01-15 10:00")
    ann.delete()  # before the close: her Kudos went with her
    at("2030-01-14 00:10")
    services.close_weeks()
    assert prizes(bob) == [(500, "week:2030-W02")]
    bob.delete()  # after it: the frozen week keeps the place, not the name
    place = WeekPlace.objects.get(close__week="2030-W02", place=1)
    assert place.user is None and place.name == "" and place.earned == 40


def test_the_pages_live_and_frozen(at, player, client):
    ann, bob = player("ann"), player("bob")
    earn(at, ann, 30, "2030-01-08 10:00")
    earn(at, bob, 20, "2030-01-09 10:00")
    at("2030-01-10 12:00")
    client.force_login(ann)
    live = client.get("/leaderboards/weekly/").content.decode()
    assert "Week 2030-W02" in live and "Live: it closes and pays on Mon 14 Jan, 00:05 UTC." in live
    assert "You: 30 Kudos from play, place 1." in live
    assert live.index(">ann<") < live.index(">bob<") and "Prize if it ended now" in live
    at("2030-01-14 00:10")
    services.close_weeks()
    earn(at, bob, 100, "2030-01-13 23:00")  # a clock behind the close: the week stays as it closed
    at("2030-01-14 00:20")
    frozen = client.get("/leaderboards/weekly/2030-W02/").content.decode()
    assert "Closed Mon 14 Jan, 00:10 UTC: 2 players earned Kudos from play." in frozen
    assert frozen.index(">ann<") < frozen.index(">bob<") and ">500<" in frozen
    assert client.get("/leaderboards/weekly/2030-W03/").status_code == 200  # this week
    assert client.get("/leaderboards/weekly/2030-W09/").status_code == 404  # not yet
    assert client.get("/leaderboards/weekly/2030-W99/").status_code == 404
    assert client.get("/leaderboards/weekly/last-week/").status_code == 404
