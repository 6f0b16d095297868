"""The end-of-game hook: every receiver runs once per ended game, whatever retries it."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gameplay import hooks, services, tasks
from gameplay.models import Game, GameEndReceipt
from kudos.models import PlayCredit
from tests.played import ended_game, worker_delivers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def receivers(monkeypatch):
    """Test receivers in place of the apps' own, counting the calls they commit (a receiver's
    work is what its transaction commits: the hook may roll a try back and run it again)."""
    calls: dict[str, list[int]] = {"count": [], "flaky": []}
    table = {}
    monkeypatch.setattr(hooks, "RECEIVERS", table)
    monkeypatch.setattr(hooks, "AFTER", {})
    monkeypatch.setattr(hooks, "IDLE", {})
    monkeypatch.setattr(hooks, "ALONE", set())

    @hooks.on_game_end("count")
    def count(game):
        transaction.on_commit(lambda: calls["count"].append(game.pk))

    state = {"fail": True}

    @hooks.on_game_end("flaky")
    def flaky(game):
        if state["fail"]:
            GameEndReceipt.objects.filter(game=game).count()  # some work, rolled back
            raise RuntimeError("a receiver's bug")
        transaction.on_commit(lambda: calls["flaky"].append(game.pk))

    return calls, state


def finished_war():
    game = services.start_game(kind="war", seats=[{"name": "a"}, {"name": "b"}], seed="hook/1")
    services.abandon_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def test_a_failing_receiver_is_retried_alone(real_services, receivers):
    calls, state = receivers
    game = finished_war()
    assert calls["count"] == [] and worker_delivers(game.pk) == [game.pk]  # queued at the end
    assert calls["count"] == [game.pk] and calls["flaky"] == []
    assert hooks.undelivered() == [game.pk]
    state["fail"] = False
    assert tasks.sweep_game_ends() == 1  # eager or on the broker: deliver again
    hooks.deliver(game.pk)
    assert calls == {"count": [game.pk], "flaky": [game.pk]}
    assert hooks.undelivered() == []
    assert hooks.deliver(game.pk) == []


def test_a_receiver_runs_after_those_it_names_and_waits_while_one_fails(real_services, receivers):
    calls, state = receivers
    order = []

    @hooks.on_game_end("reads", after=("flaky", "count"))  # registered last, named first below
    def reads(game):
        transaction.on_commit(lambda: order.append("reads"))

    hooks.RECEIVERS = {"reads": hooks.RECEIVERS.pop("reads"), **hooks.RECEIVERS}
    assert hooks.in_order() == ["flaky", "count", "reads"]  # each after what it names
    game = finished_war()
    worker_delivers(game.pk)
    assert order == [] and calls["count"] == [game.pk]  # "flaky" failed: "reads" waits
    state["fail"] = False
    assert hooks.deliver(game.pk) == ["flaky", "reads"]
    assert hooks.undelivered() == [] and hooks.deliver(game.pk) == []


def transaction_id() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid_current()")
        return cursor.fetchone()[0]


def test_a_game_s_receivers_share_one_transaction_unless_one_must_be_alone(
    real_services, receivers
):
    _, state = receivers
    state["fail"] = False
    seen: dict[str, list[int]] = {"pays": [], "keeps": [], "rates": []}

    @hooks.on_game_end("pays")
    def pays(game):
        seen["pays"].append(transaction_id())

    @hooks.on_game_end("keeps")
    def keeps(game):
        seen["keeps"].append(transaction_id())

    @hooks.on_game_end("rates", idle=lambda game: game.seed == "hook/1")
    def rates(game):
        seen["rates"].append(transaction_id())

    together = finished_war()  # "rates" has nothing to do: the others share one commit
    hooks.deliver(together.pk)
    assert seen["pays"] == seen["keeps"] and not seen["rates"]
    hooks.on_game_end("rates", alone=True)(rates)  # holds a lock many games wait for
    game = services.start_game(kind="war", seats=[{"name": "a"}, {"name": "b"}], seed="hook/9")
    services.abandon_game(game_id=game.pk)
    assert sorted(hooks.deliver(game.pk)) == ["count", "flaky", "keeps", "pays", "rates"]
    assert len(set(seen["rates"] + seen["pays"][1:] + seen["keeps"][1:])) == 3  # each its own


def test_receivers_that_wait_for_each_other_are_refused(receivers):
    hooks.on_game_end("count", after=("flaky",))(lambda game: None)
    hooks.on_game_end("flaky", after=("count",))(lambda game: None)
    with pytest.raises(ValueError, match="wait for each other"):
        hooks.in_order()


def test_parallel_deliveries_run_each_receiver_once(real_services, receivers):
    calls, state = receivers
    state["fail"] = False
    hooks.RECEIVERS.clear()
    seen = []

    @hooks.on_game_end("count")
    def count(game):
        transaction.on_commit(lambda: seen.append(game.pk))

    game = services.start_game(kind="war", seats=[{"name": "a"}, {"name": "b"}], seed="hook/2")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
    barrier = threading.Barrier(8)

    def worker():
        barrier.wait()
        try:
            hooks.deliver(game.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [game.pk]
    assert GameEndReceipt.objects.filter(game=game).count() == 1


def test_active_games_get_no_delivery(real_services, receivers):
    calls, _ = receivers
    game = services.start_game(kind="war", seats=[{"name": "a"}, {"name": "b"}], seed="hook/3")
    assert hooks.deliver(game.pk) == []
    assert calls["count"] == []


def test_an_idle_receiver_gets_its_receipt_without_running(real_services, receivers):
    calls, state = receivers
    state["fail"] = False
    skipped = []
    hooks.on_game_end("idle", idle=lambda game: True)(skipped.append)
    # Waits for "idle": runs once "idle" is done, though idle receivers run first.
    hooks.on_game_end("last", after=("idle",), idle=lambda game: False)(skipped.append)
    game = finished_war()
    worker_delivers(game.pk)
    assert skipped == [game] and calls["count"] == [game.pk] == calls["flaky"]
    assert set(GameEndReceipt.objects.filter(game=game).values_list("receiver", flat=True)) == {
        "count",
        "flaky",
        "idle",
        "last",
    }
    assert hooks.undelivered() == [] and hooks.deliver(game.pk) == []


def test_a_game_no_one_played_costs_the_hook_a_few_statements(real_services):
    """Every receiver of the apps, for a two-person game that counts as play for no one (no
    move was made): those with nothing to do are not run, their receipts one statement."""
    now = timezone.now()
    game = Game.objects.create(
        kind="war",
        seats=[{"name": "a", "user_id": None}, {"name": "b", "user_id": None}],
        seed="hook/4",
        seed_hash="0" * 64,
        status=Game.Status.OVER,
        result={"scores": [1, 0], "winners": [0], "ranking": [[0], [1]]},
        ended=now,
    )
    with CaptureQueriesContext(connection) as queries:
        ran = hooks.deliver(game.pk)
    assert sorted(ran) == sorted(hooks.RECEIVERS)
    assert hooks.undelivered() == []
    # The game and its receipts, then the idle receivers' receipts: every receiver is idle.
    assert len(queries) == 2, [q["sql"][:60] for q in queries]


def test_a_counted_game_costs_the_hook_a_few_statements_a_person(real_services):
    """Stats and Kudos read and lock a counted game's people at once: a person more at the
    table adds only that person's own writes (the record, the stat, the credit, the account),
    not a round of reads and locks of their own."""
    users = get_user_model().objects
    people = [users.create_user(f"count{i}", password="x-Long-pass-77").pk for i in range(4)]

    def statements(table: list[int], ended: str) -> int:
        seats = [{"user_id": u} for u in table]
        game = ended_game(seats=seats, winners=[1], ended=ended)
        with CaptureQueriesContext(connection) as queries:
            hooks.deliver(game.pk)
        assert PlayCredit.objects.filter(game=game).count() == len(table)  # everyone paid
        return len(queries)

    statements(people, "2030-01-07 09:00")  # first games: accounts, stats and badges made
    two = statements(people[:2], "2030-01-07 09:30")
    four = statements(people, "2030-01-07 10:00")
    # 7 a person now; 22 when each person's account, stat and ledger keys were read alone.
    assert (four - two) / 2 <= 10, (two, four)
