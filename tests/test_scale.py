"""Many tables in one daphne process: database calls side by side on a pool-sized set of
threads."""

import asyncio
import logging
import threading

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from cubiccards.checks import pool_covers_the_socket_threads
from infra.scheduling import DB_THREADS, on_thread


@pytest.mark.asyncio
async def test_socket_database_calls_run_side_by_side_on_threads_the_pool_covers():
    meeting = threading.Barrier(2, timeout=5)  # both calls must be running at once

    def meet():
        meeting.wait()
        return threading.current_thread().name

    names = await asyncio.gather(on_thread(meet)(), on_thread(meet)())
    assert all(name.startswith("table-db") for name in names)
    assert DB_THREADS._max_workers == settings.DB_THREADS
    # A pooled connection for every socket thread and the process's thread for pages.
    assert pool_covers_the_socket_threads(None) == []


def test_a_pool_smaller_than_the_socket_threads_is_flagged(settings):
    settings.DATABASES = {"default": {"OPTIONS": {"pool": {"max_size": 4}}}}
    settings.DB_THREADS = 4
    assert [w.id for w in pool_covers_the_socket_threads(None)] == ["cubiccards.W001"]
    settings.DB_THREADS = 3
    assert pool_covers_the_socket_threads(None) == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_never_waits_in_the_shared_thread(real_services, monkeypatch):
    """channels hops to the process's one thread-sensitive thread before every message to close
    stale connections: with hundreds of tables, every message queued there. A table socket's
    messages (its own moves, the other seat's news) skip it; its database calls run on
    DB_THREADS and give their connections back themselves."""
    import json

    import channels.consumer

    from .test_room_socket import _create_room, _join, _start, connect, receive_until

    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    host, code = await database_sync_to_async(_create_room)()
    guest = await database_sync_to_async(_join)(code)
    await database_sync_to_async(_start)(host, code, game="war", seats="2")
    sockets = [await connect(client, code) for client in (host, guest)]
    for ws in sockets:
        assert (await ws.connect())[0]
        state = await receive_until(ws, lambda m: m["type"] == "state")
    for ws in sockets:
        await ws.send_to(
            text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": 0})
        )
    for ws in sockets:
        state = await receive_until(ws, lambda m: m["type"] == "state" and m["seq"] == 2)
    assert state["seq"] == 2 and hops == []
    for ws in sockets:
        await ws.disconnect()


# ---- what an operator watches ------------------------------------------------------------


def _metrics(client, token="s3cret"):
    return client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")


@pytest.mark.django_db
def test_metrics_are_off_without_a_token_and_closed_to_anyone_without_it(client, settings):
    settings.METRICS_TOKEN = ""
    assert _metrics(client).status_code == 404
    settings.METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 401
    assert _metrics(client, token="guess").status_code == 401
    body = _metrics(client).content.decode()
    for name in (
        "cubiccards_open_sockets",
        "cubiccards_live_tables",
        "cubiccards_action_seconds",
        "cubiccards_computer_turn_delay_seconds",
        "cubiccards_celery_queue_depth",
        "cubiccards_task_failures",
    ):
        assert f"# HELP {name}" in body, name


def _sample(client, name: str, **labels) -> float:
    from prometheus_client.parser import text_string_to_metric_families

    text = _metrics(client).content.decode()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return sample.value
    return 0.0


def test_the_action_log_is_off_unless_asked_for():
    """ACTION_LOG=INFO turns it on; by default a move pays for no line (docs/operating.md)."""
    assert settings.LOGGING["loggers"]["cubiccards.actions"]["level"] == "WARNING"
    assert logging.getLogger("cubiccards.actions").level == logging.WARNING


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_action_is_timed_counted_and_logged_in_one_line(settings, monkeypatch):
    import json

    from django.test import Client

    from tests.test_room_socket import _create_room, _start, connect, receive, receive_until

    settings.METRICS_TOKEN = "s3cret"
    logged = []  # what the action log's handlers are handed (settings.LOGGING prints it)
    action_log = logging.getLogger("cubiccards.actions")
    monkeypatch.setattr(action_log, "handle", logged.append)
    monkeypatch.setattr(action_log, "disabled", False)  # whatever an earlier test configured
    level = action_log.level
    action_log.setLevel(logging.INFO)  # as ACTION_LOG=INFO sets it (off by default)
    try:
        client, code = await database_sync_to_async(_create_room)()
        await database_sync_to_async(_start)(client, code, game="war", seats="2")
        watcher = Client()
        before = await database_sync_to_async(_sample)(
            watcher, "cubiccards_action_seconds_count", game="war"
        )
        ws = await connect(client, code)
        assert (await ws.connect())[0]
        assert await database_sync_to_async(_sample)(watcher, "cubiccards_open_sockets") >= 1
        state = await receive(ws)
        await ws.send_to(
            text_data=json.dumps({"type": "act", "action": {"type": "flip"}, "seq": 0})
        )
        await receive_until(ws, lambda m: m.get("seq") == 1)
        await ws.disconnect()
        after = await database_sync_to_async(_sample)(
            watcher, "cubiccards_action_seconds_count", game="war"
        )
        assert after == before + 1
        lines = [json.loads(record.getMessage()) for record in logged]
        person = [line for line in lines if line["by"] == "person"]
        assert person and person[0]["game"] == state["game_id"] and person[0]["seq"] == 1
        assert person[0]["ms"] > 0 and person[0]["seat"] == 0
    finally:
        action_log.setLevel(level)
