"""Finished games' logs move out of the live event table into one compressed row each, and
still replay, publish (log.json) and verify exactly as before. The hot queries use indexes."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from gameplay import archive, services, store
from gameplay.models import ArchivedLog, Game, GameEvent
from tests.test_gameplay_services import play_to_end, start

pytestmark = pytest.mark.django_db


def test_an_archived_game_replays_publishes_and_verifies_as_before(client, capsys):
    game = play_to_end(start("short/235"))  # 47 rounds
    before_log = client.get(f"/games/{game.pk}/log.json").json()
    before_page = _main(client.get(f"/games/{game.pk}/?step=5").content)
    before_entries = archive.entries(game)
    assert all(e.to_act is not None and e.to_act <= e.created for e in before_entries)
    assert b"Seat " in before_page  # the step's action is shown
    Game.objects.filter(pk=game.pk).update(ended=timezone.now() - timedelta(days=31))
    in_play = start("still-playing")
    services.submit_action(game_id=in_play.pk, seat=0, action={"type": "flip"}, seq=0)

    call_command("archive_games", "--days", "30")
    assert "Archived 1 games" in capsys.readouterr().out
    assert not GameEvent.objects.filter(game=game).exists()
    stored = ArchivedLog.objects.get(game=game)
    assert stored.actions == game.seq
    assert GameEvent.objects.filter(game=in_play).count() == 1  # a live game stays where it is

    assert client.get(f"/games/{game.pk}/log.json").json() == before_log
    assert archive.entries(game) == before_entries  # when each seat was asked, too
    assert _main(client.get(f"/games/{game.pk}/?step=5").content) == before_page
    assert store.verify(Game.objects.get(pk=game.pk)) == []
    call_command("verify_game", game.pk)
    assert "verifies" in capsys.readouterr().out
    assert archive.archive_game(game.pk) == 0  # once only
    assert archive.archive_game(in_play.pk) == 0  # never a game in play


def _main(page: bytes) -> bytes:
    """The page's own content (the header carries a fresh CSRF mask every time)."""
    return page[page.index(b"<main") : page.index(b"</main>")]


def _plan(sql: str, params) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # a test table is tiny: ask what it *can* use
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SET enable_seqscan = on")
    return plan


def test_the_hot_queries_are_served_by_indexes():
    game = start("indexes")
    queries = {
        "a retry's check (game, seat, action id)": (store._APPLIED_SQL, [game.pk, 0, "a1"]),
        "a rebase check (game, seq)": (store._SINCE_SQL, [game.pk, 0, 1]),
        "rebuilding a state (game, seq)": GameEvent.objects.filter(game=game)
        .order_by("seq")
        .query.sql_with_params(),
        "the stalled-game sweep (status, updated)": Game.objects.filter(
            status=Game.Status.ACTIVE, updated__lt=timezone.now()
        ).query.sql_with_params(),
    }
    for name, (sql, params) in queries.items():
        plan = _plan(sql, params)
        assert "Index" in plan and "Seq Scan" not in plan, f"{name}:\n{plan}"


def test_the_event_table_keeps_no_index_another_one_covers():
    """Every action writes each index: GameEvent's are the primary key, (game, seq) and
    (game, seat, action id), and no separate index on game, which (game, seq) covers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'gameplay_gameevent'")
        names = {row[0] for row in cursor.fetchall()}
    assert names == {"gameplay_gameevent_pkey", "unique_game_seq", "one_action_per_client_id"}
