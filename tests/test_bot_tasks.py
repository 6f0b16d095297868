"""Computer players on a real Celery worker: moves are idempotent by seq, a lost task is
re-sent by the sweep, a failed turn is tried again, and a person's turn timer runs out into a
computer move."""

import asyncio
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError
from django.utils import timezone

from cubiccards.celery import app
from gameplay import services, tasks
from gameplay.models import Game
from infra import scheduling

pytestmark = pytest.mark.django_db(transaction=True)

PEOPLE = [{"name": "Ann", "player": "guest:a"}, {"name": "Ben", "player": "guest:b"}]


def wait_for(predicate, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_bot_turn_does_nothing_once_seq_moved_on(real_services):
    game = services.start_game(
        kind="war", seats=[PEOPLE[0], {"name": "Cubot", "bot": True}], seed="s"
    )
    assert tasks.play_for_seats(game.pk, 5) == 0  # not the current seq
    assert tasks.play_for_seats(game.pk, 0) == 1  # the computer flips for seat 1
    assert tasks.play_for_seats(game.pk, 0) == 0  # replayed task: seq moved on
    game.refresh_from_db()
    assert game.seq == 1 and game.log.get().by_bot


def test_sweep_resends_a_lost_bot_turn(real_services, celery_worker_process):
    app.control.purge()
    game = services.start_game(
        kind="war", seats=[{"name": "A", "bot": True}, {"name": "B", "bot": True}], seed="short/235"
    )
    app.control.purge()  # the worker "died" with the first turn: nothing is queued any more
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(minutes=5))
    assert tasks.sweep_stalled_games() == 1
    # The computers take up the game again and carry on by themselves.
    assert wait_for(lambda: Game.objects.get(pk=game.pk).seq >= 10)


def test_turn_timer_plays_for_a_person_who_does_not_act(real_services):
    game = services.start_game(kind="war", seats=PEOPLE, seed="s", turn_timer=15)
    assert tasks.turn_timeout.run(game.pk, 0) == 2  # both people's flips, by the computer
    game.refresh_from_db()
    assert game.seq == 2 and all(e.by_bot for e in game.log.all())
    assert not any(s["bot"] for s in game.seats)  # the seats stay theirs


def _fails_once(monkeypatch) -> list:
    """The next action a computer player submits fails as a busy database would."""
    failures = []
    submit = services.submit_action

    def flaky(**kwargs):
        if not failures:
            failures.append(kwargs["seq"])
            raise OperationalError("database is locked")
        return submit(**kwargs)

    monkeypatch.setattr(services, "submit_action", flaky)
    return failures


def test_a_failed_computer_turn_is_retried_by_celery(real_services, monkeypatch):
    game = services.start_game(
        kind="war", seats=[PEOPLE[0], {"name": "Cubot", "bot": True}], seed="s"
    )
    failures = _fails_once(monkeypatch)
    tasks.bot_turn.apply((game.pk, 0), throw=False)  # as a worker would (the retry: at once)
    game.refresh_from_db()
    assert failures == [0] and game.seq == 1 and game.log.get().by_bot


@pytest.mark.asyncio
async def test_a_failed_computer_turn_is_retried_embedded(real_services, monkeypatch, settings):
    game = await database_sync_to_async(services.start_game)(
        kind="war", seats=[PEOPLE[0], {"name": "Cubot", "bot": True}], seed="s"
    )
    settings.CELERY_TASK_ALWAYS_EAGER = True  # as under `make run`: on the server's own loop
    failures = _fails_once(monkeypatch)
    schedule = database_sync_to_async(scheduling.run_later, thread_sensitive=False)
    await schedule("gameplay.bot_turn", game.pk, 0, delay=0)
    seq = database_sync_to_async(lambda: Game.objects.get(pk=game.pk).seq)
    for _ in range(100):
        await asyncio.sleep(0.1)
        if await seq() == 1:
            break
    assert failures == [0] and await seq() == 1
