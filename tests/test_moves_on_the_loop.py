"""A person's move from a table socket's event loop, with no thread: the statement on the
loop's own connections (infra.database.loop), the shared cache written from the loop
(infra.cache), the move itself (gameplay.moves.on_loop) and the table
socket that uses them, on PostgreSQL and Redis. Anything but the common move is left to the
thread path, which decides it as before: nothing is written twice or lost."""

import asyncio
import json
import threading

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from gameplay import hooks, moves, services, store
from gameplay.engine import registry
from gameplay.models import Game, GameEndReceipt, GameEvent
from gameplay.moves import Move
from infra.database import loop as loop_database
from lobby import consumers, viewpoints

from .test_room_socket import _create_room, _join, _start_seeded, connect, receive_until

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SEATS = [
    {"name": "Ann", "user_id": None, "bot": False},
    {"name": "Ben", "user_id": None, "bot": False},
]
SHORT_WAR = "short/235"  # a two-player War that ends in 47 rounds


# ---- the loop's own connections ---------------------------------------------------------------


def _admin() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    return psycopg.connect(**params, autocommit=True)


def _backends(marker: str) -> list[int]:
    """Connections whose last statement carried `marker`."""
    with _admin() as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE query LIKE %s AND pid <> pg_backend_pid()",
            [f"%{marker}%"],
        ).fetchall()
    return [pid for (pid,) in rows]


async def test_a_statement_on_the_loop_counts_its_rows_and_keeps_its_connection(real_services):
    game = await database_sync_to_async(services.start_game)(kind="war", seats=SEATS)
    changed = await loop_database.execute(
        "UPDATE gameplay_game SET speed_play = %s WHERE id = %s /* kept */", ["fast", game.pk]
    )
    assert changed == 1
    assert await loop_database.execute("SELECT 1 WHERE false /* kept */", []) == 0
    first = await database_sync_to_async(_backends)("kept")
    assert len(first) == 1  # the second statement went to the first one's connection
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).speed_play == "fast"


async def test_a_loop_connection_the_database_closed_is_replaced(real_services):
    await loop_database.execute("SELECT 1 /* closed-then */", [])
    [pid] = await database_sync_to_async(_backends)("closed-then")
    await database_sync_to_async(_terminate)(pid)
    assert await loop_database.execute("SELECT 1 /* closed-now */", []) == 1  # no error
    assert await database_sync_to_async(_backends)("closed-now") != [pid]


def _terminate(pid: int) -> None:
    with _admin() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            if not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
                return
            threading.Event().wait(0.05)
    raise AssertionError(f"backend {pid} did not end")


async def test_a_loop_closes_its_connections_when_it_ends(real_services):
    def on_a_loop_of_its_own():
        asyncio.run(loop_database.execute("SELECT 1 /* short-lived */", []))

    await asyncio.get_running_loop().run_in_executor(None, on_a_loop_of_its_own)
    assert await database_sync_to_async(_backends)("short-lived") == []


async def test_the_cache_sets_from_the_loop(real_services):
    await cache.aset("loop-set", {"a": [1, 2]}, 30)
    assert await database_sync_to_async(cache.get)("loop-set") == {"a": [1, 2]}
    await cache.aset("loop-set", "gone", 0)  # a timeout of 0 deletes, as Django's set does
    assert await database_sync_to_async(cache.get)("loop-set") is None


# ---- the move -----------------------------------------------------------------------------


def _start(seed: str, seats=SEATS) -> Game:
    return services.start_game(kind="war", seats=seats, seed=seed)


def _log(game_id: int) -> list[tuple[int, int]]:
    return list(
        GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "seat")
    )


async def _published() -> None:
    """Until what the loop's moves started (the shared cache, the news, what follows) is done."""
    while moves._publishing:
        await asyncio.gather(*moves._publishing, return_exceptions=True)


async def test_a_move_on_the_loop_is_written_cached_and_told(real_services):
    game = await database_sync_to_async(_start)("loop-move")
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(services.group_name(game.pk), channel)
    outcome = await moves.on_loop(
        Move(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0, action_id="a1")
    )
    assert outcome is not None and outcome.game.seq == 1 and outcome.game.to_act == [1]
    await _published()
    assert await database_sync_to_async(_log)(game.pk) == [(1, 0)]
    row = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.seq == 1 and row.to_act == [1] and row.last_actions == {"0": "flip"}
    news = [await asyncio.wait_for(layer.receive(channel), 5)]
    if news[0]["seq"] == 0:  # the deal's own news may come first
        news.append(await asyncio.wait_for(layer.receive(channel), 5))
    assert news[-1] == {"type": "game.update", "seq": 1}
    # Another process (the worker, for a computer player) finds the new state there.
    cached = await database_sync_to_async(cache.get)(store._state_key(row, 1))
    assert json.loads(cached) == outcome.state
    # The same action id again is the thread path's to answer: applied once, as action 1.
    assert (
        await moves.on_loop(
            Move(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0, action_id="a1")
        )
        is None
    )
    with pytest.raises(services.AlreadyApplied):
        await database_sync_to_async(services.submit_action)(
            game_id=game.pk, seat=0, action={"type": "flip"}, seq=0, action_id="a1"
        )


@pytest.mark.parametrize(
    "case",
    ["old seq", "illegal", "changed elsewhere", "moved on elsewhere", "state not held", "over"],
)
async def test_anything_but_the_common_move_is_left_to_the_thread_path(real_services, case):
    game = await database_sync_to_async(_start)(f"left-{case}")
    seat, seq, action = 0, 0, {"type": "flip"}
    if case == "old seq":
        await moves.on_loop(Move(game_id=game.pk, seat=0, action=action, seq=0))
        seat = 1  # seat 1 flips against the state before seat 0's flip: a rebase
    elif case == "illegal":
        action = {"type": "fold"}
    elif case == "changed elsewhere":  # another process gave seat 1 to the computer
        await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(
            seats=[SEATS[0], {**SEATS[1], "bot": True}], updated=timezone.now()
        )
    elif case == "moved on elsewhere":  # another process wrote seat 1's flip
        await database_sync_to_async(services.submit_action)(
            game_id=game.pk, seat=1, action=action, seq=0
        )
        store._latest.pop(game.pk)  # ... so this one has not heard of it
        store.remember_row(game)
    elif case == "state not held":
        store.forget_states()
    elif case == "over":
        await database_sync_to_async(services.abandon_game)(game_id=game.pk)
    before = await database_sync_to_async(_log)(game.pk)
    outcome = await moves.on_loop(Move(game_id=game.pk, seat=seat, action=action, seq=seq))
    assert outcome is None
    assert await database_sync_to_async(_log)(game.pk) == before  # nothing was written
    await _published()


@pytest.mark.parametrize("shape", ["worker", "embedded"])
async def test_a_game_played_on_the_loop_replays_and_its_end_is_heard(
    real_services, shape, request, settings
):
    if shape == "worker":  # the end's bookkeeping on the worker, not in the table's process
        request.getfixturevalue("celery_worker_process")
    else:  # as under `make run`: eager tasks, run from the server's own loop
        settings.CELERY_TASK_ALWAYS_EAGER = True
    game = await database_sync_to_async(_start)(SHORT_WAR)
    engine = registry.get("war")
    on_loop = 0
    while not game.is_over:
        seat = game.to_act[0]
        outcome = await moves.on_loop(
            Move(game_id=game.pk, seat=seat, action={"type": "flip"}, seq=game.seq)
        )
        on_loop += outcome is not None
        if outcome is None:  # e.g. the row read back by a receiver: decided on a thread
            outcome = await database_sync_to_async(services.submit_action)(
                game_id=game.pk, seat=seat, action={"type": "flip"}, seq=game.seq
            )
        game = outcome.game
        assert engine.to_act(outcome.state) == game.to_act
    await _published()
    row = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.status == "over" and row.seq == game.seq and on_loop == game.seq
    assert await database_sync_to_async(store.verify)(row) == []
    receipts = GameEndReceipt.objects.filter(game=row).count
    for _ in range(300):
        if await database_sync_to_async(receipts)() == len(hooks.RECEIVERS):
            break
        await asyncio.sleep(0.1)
    assert await database_sync_to_async(receipts)() == len(hooks.RECEIVERS)


async def test_the_computer_moves_after_a_move_on_the_loop(real_services, celery_worker_process):
    game = await database_sync_to_async(_start)(
        "loop-computer", seats=[SEATS[0], {"name": "Cy", "user_id": None, "bot": True}]
    )
    outcome = await moves.on_loop(Move(game_id=game.pk, seat=0, action={"type": "flip"}, seq=0))
    assert outcome is not None and outcome.game.to_act == [1]
    await _published()
    for _ in range(600):  # the worker's computer player flips for seat 1 (30 s: a busy CI)
        row = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        if row.seq >= 2:
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(_log)(game.pk) == [(1, 0), (2, 1)]


# ---- the table socket -------------------------------------------------------------------------


async def _seated_war_table() -> list:
    """Two people's JSON sockets at a War table, each with its first view of the game."""
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    sockets = [await connect(client, code) for client in (host, guest)]
    for ws in sockets:
        assert (await ws.connect())[0]
        await receive_until(ws, lambda m: m["type"] == "lobby")
    await database_sync_to_async(_start_seeded)(code, "war", 2, SHORT_WAR)
    for ws in sockets:
        await receive_until(ws, lambda m: m["type"] == "state")
    return sockets


def _count_hops(monkeypatch) -> list:
    """Every trip a table socket makes to a database thread from now on."""
    hops = []
    on_thread = consumers.on_thread
    for module in (consumers, moves):
        monkeypatch.setattr(module, "on_thread", lambda fn: hops.append(fn) or on_thread(fn))
    return hops


async def test_a_table_plays_with_no_thread_once_seated(real_services, monkeypatch):
    """Two people at a War table: after each has their first view, every flip is written and
    both seats' views are rendered on the event loop, and each seat sees every move."""
    sockets = await _seated_war_table()
    hops = _count_hops(monkeypatch)
    seen = [0, 0]

    async def until(i: int, seq: int) -> None:
        while seen[i] < seq:
            message = await receive_until(sockets[i], lambda m: m["type"] == "state")
            seen[i] = max(seen[i], message["seq"])

    for seq in range(20):  # the seats flip in turn, each as of the last view it was sent
        await until(seq % 2, seq)
        await sockets[seq % 2].send_to(
            text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": seq})
        )
    for i in (0, 1):
        await until(i, 20)
    assert hops == []
    for ws in sockets:
        await ws.disconnect()


async def test_the_mover_is_sent_its_view_and_not_its_own_moves_news(real_services, monkeypatch):
    """The seat that moved is sent its view by its own socket at once: the table's news of
    the move goes to the other seat only (the mover's socket would wake just to drop it)."""
    sockets = await _seated_war_table()
    heard = []  # (the hearing socket's seat, the seq its news was of)
    game_update = consumers.RoomConsumer.game_update

    async def hearing(consumer, event):
        heard.append((consumer.seen[0].seat, event["seq"]))
        await game_update(consumer, event)

    monkeypatch.setattr(consumers.RoomConsumer, "game_update", hearing)
    seen = [0, 0]
    for seq in range(10):
        mover = seq % 2
        await sockets[mover].send_to(
            text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": seq})
        )
        for i in (0, 1):  # both seats see the move
            while seen[i] < seq + 1:
                message = await receive_until(sockets[i], lambda m: m["type"] == "state")
                seen[i] = max(seen[i], message["seq"])
    assert sorted(heard) == sorted((1 - (seq - 1) % 2, seq) for seq in range(1, 11))
    for ws in sockets:
        await ws.disconnect()


async def test_a_game_dealt_by_another_process_plays_on_the_loop_once_read(
    real_services, monkeypatch
):
    """The deal is a page request, which the proxy may send to another daphne than the
    table's sockets: the row that process wrote is not this one's. The view each socket reads
    then is remembered, so the first move is on the loop too."""
    sockets = await _seated_war_table()
    # As if another process had dealt: this one holds no row, state or view of the game.
    store._latest.clear()
    store._local_states.clear()
    viewpoints._parts.clear()
    for ws in sockets:
        await ws.send_to(text_data=json.dumps({"type": "sync"}))
        await receive_until(ws, lambda m: m["type"] == "state" and m["seq"] == 0)
    hops = _count_hops(monkeypatch)
    await sockets[0].send_to(
        text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": 0})
    )
    for ws in sockets:
        await receive_until(ws, lambda m: m["type"] == "state" and m["seq"] == 1)
    assert hops == []
    for ws in sockets:
        await ws.disconnect()
