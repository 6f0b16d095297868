"""End-of-game hooks of games that share players run at once without deadlocks: every
multi-row lock is taken in one global order (sorted primary keys)."""

import logging
import queue
import random
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from accounts.models import GameRecord, GameStat
from gameplay import hooks, services
from gameplay.models import Game, GameEndReceipt
from kudos import selectors
from kudos.models import Entry
from tests.played import played_log

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = 200
THREADS = 8


def finished_games(people: list[int], count: int) -> list[int]:
    """``count`` ended four-seat games among ``people``, seated in shuffled orders, whose hook
    has not run yet (they are marked over directly, as a crashed worker would leave them)."""
    rng = random.Random("hook-locks")
    ids = []
    now = timezone.now()
    for n in range(count):
        table = rng.sample(people, 4)
        game = services.start_game(
            kind="war",
            seats=[{"name": f"p{u}", "user_id": u} for u in table],
            seed=f"locks/{n}",
            ranked=n % 2 == 0,
        )
        winner = rng.randrange(4)
        ranking = [[winner]] + [[s] for s in range(4) if s != winner]
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.OVER,
            result={"scores": [0, 0, 0, 0], "winners": [winner], "ranking": ranking},
            ended=now + timedelta(seconds=n),
        )
        game.refresh_from_db()
        played_log(game)  # each person played it
        ids.append(game.pk)
    return ids


def test_hooks_of_games_sharing_players_deliver_concurrently_without_deadlock(
    real_services, caplog
):
    users = get_user_model().objects
    people = [users.create_user(f"lock{i}", password="x-Long-pass-77").pk for i in range(6)]
    ids = finished_games(people, GAMES)
    work: queue.Queue[int] = queue.Queue()
    for game_id in random.Random(2).sample(ids, len(ids)):
        work.put(game_id)
    barrier = threading.Barrier(THREADS)

    def worker():
        barrier.wait()
        try:
            while True:
                try:
                    game_id = work.get_nowait()
                except queue.Empty:
                    return
                hooks.deliver(game_id)
                connection.close()  # as a worker's task does: its connection back to the pool
        finally:
            connection.close()

    with caplog.at_level(logging.ERROR, logger="gameplay.hooks"):
        threads = [threading.Thread(target=worker) for _ in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    failures = [r.getMessage() + str(r.exc_info and r.exc_info[1]) for r in caplog.records]
    assert [f for f in failures if "deadlock" in f.lower()] == []
    assert failures == []
    assert hooks.undelivered() == []  # every receiver ran for every game, nothing left over
    receipts = GameEndReceipt.objects.filter(game_id__in=ids)
    assert receipts.count() == GAMES * len(hooks.RECEIVERS)
    assert GameRecord.objects.count() == GAMES * 4
    assert sum(GameStat.objects.values_list("played", flat=True)) == GAMES * 4
    paid = Entry.objects.filter(key__startswith="play:").values_list("key", flat=True)
    assert len(paid) == len(set(paid)) > 0  # Kudos from play, once per player and game
    assert selectors.audit()["problems"] == []
