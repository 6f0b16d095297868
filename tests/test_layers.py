"""The channel layer on the real Redis: a group's members in this process get a group send
without a trip through Redis, the others (another process's) through Redis as before."""

import asyncio
import contextlib

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from redis.exceptions import MaxConnectionsError, RedisError

from infra.layers import TableLayer

pytestmark = pytest.mark.usefixtures("real_services")


def _layers() -> tuple[TableLayer, TableLayer]:
    """This process's layer and another process's (its own client prefix)."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    return get_channel_layer(), TableLayer(**config)


@pytest.mark.asyncio
async def test_waiting_local_members_skip_redis_and_the_others_still_hear_it(monkeypatch):
    here, there = _layers()
    assert isinstance(here, TableLayer)
    waiting = [await here.new_channel() for _ in range(3)]
    busy, theirs = await here.new_channel(), await there.new_channel()
    for channel in (*waiting, busy, theirs):
        await here.group_add("game-1", channel)
    through_redis = []
    send = here._send_through_redis

    async def spy(channels, message):
        through_redis.extend(channels)
        await send(channels, message)

    monkeypatch.setattr(here, "_send_through_redis", spy)
    receivers = [asyncio.ensure_future(here.receive(c)) for c in waiting]
    await asyncio.sleep(0.2)  # three sockets wait for news; one is busy (not receiving)
    try:
        await here.group_send("game-1", {"type": "game.update", "seq": 7})

        assert through_redis == [theirs]  # every socket of this process got it directly
        for got in await asyncio.wait_for(asyncio.gather(*receivers), 5):
            assert got == {"type": "game.update", "seq": 7}
        for layer, channel in ((here, busy), (there, theirs)):  # when they next ask
            message = await asyncio.wait_for(layer.receive(channel), 5)
            assert message == {"type": "game.update", "seq": 7}
    finally:
        await here.flush()
        await there.close_pools()


@pytest.mark.asyncio
async def test_a_member_that_left_hears_nothing_and_each_gets_its_own_copy():
    here, _ = _layers()
    staying, leaving = await here.new_channel(), await here.new_channel()
    await here.group_add("game-2", staying)
    await here.group_add("game-2", leaving)
    await here.group_discard("game-2", leaving)
    waiting = [asyncio.ensure_future(here.receive(c)) for c in (await here.new_channel(), staying)]
    await asyncio.sleep(0.2)
    try:
        sent = {"type": "game.update", "seq": 1}
        await here.group_send("game-2", sent)
        got = await asyncio.wait_for(waiting[1], 5)
        assert got == sent and got is not sent
        waiting[0].cancel()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(here.receive(leaving), 0.3)
    finally:
        await here.flush()


@pytest.mark.asyncio
async def test_a_send_but_one_member_skips_only_that_member():
    here, there = _layers()
    mover, other, theirs = (
        await here.new_channel(),
        await here.new_channel(),
        await there.new_channel(),
    )
    for channel in (mover, other, theirs):
        await here.group_add("game-3", channel)
    try:
        sent = {"type": "game.update", "seq": 4}
        await here.group_send("game-3", sent, but=mover)
        assert await asyncio.wait_for(here.receive(other), 5) == sent
        assert await asyncio.wait_for(there.receive(theirs), 5) == sent
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(here.receive(mover), 0.3)
    finally:
        await here.flush()
        await there.close_pools()


@pytest.mark.asyncio
async def test_a_socket_that_has_gone_is_kept_nothing_though_still_in_the_group():
    """Its consumer ended without leaving (a crash, Redis away when it closed): news from
    this process or through Redis from another is dropped, not buffered for nobody."""
    here, there = _layers()
    gone, staying = await here.new_channel(), await here.new_channel()
    for channel in (gone, staying):
        await here.group_add("game-3", channel)
    receiver = asyncio.ensure_future(here.receive(gone))
    await asyncio.sleep(0.2)
    receiver.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await receiver
    try:
        await here.group_send("game-3", {"type": "game.update", "seq": 1})
        await there.group_send("game-3", {"type": "game.update", "seq": 2})
        for seq in (1, 2):  # the one still there hears both, so both have arrived
            got = await asyncio.wait_for(here.receive(staying), 5)
            assert got == {"type": "game.update", "seq": seq}
        assert gone not in here.receive_buffer
    finally:
        await here.flush()
        await there.close_pools()


@pytest.mark.asyncio
async def test_redis_going_away_reaches_every_waiting_socket(private_redis):
    config = {**settings.CHANNEL_LAYERS["default"]["CONFIG"]}
    config["hosts"] = [{**config["hosts"][0], "address": private_redis.url}]
    layer = TableLayer(**config)
    channels = [await layer.new_channel() for _ in range(3)]
    receivers = [asyncio.ensure_future(layer.receive(c)) for c in channels]
    await asyncio.sleep(0.2)
    private_redis.stop()
    done = await asyncio.wait_for(asyncio.gather(*receivers, return_exceptions=True), 30)
    assert all(isinstance(e, RedisError) for e in done), done


@pytest.mark.asyncio
async def test_a_burst_of_sockets_leaving_waits_for_a_connection_rather_than_failing():
    """More sockets leave their groups at once than the pool holds connections (a daphne's
    thousand at the end of bench/load.py's phase, with a pool of 1,000): each waits for a
    connection to come free; none fails, and no membership is left behind."""
    config = {**settings.CHANNEL_LAYERS["default"]["CONFIG"]}
    config["hosts"] = [{**config["hosts"][0], "max_connections": 4}]
    layer = TableLayer(**config)
    channels = [await layer.new_channel() for _ in range(60)]
    try:
        await asyncio.gather(*(layer.group_add("burst", c) for c in channels))
        await asyncio.gather(*(layer.group_discard("burst", c) for c in channels))
        redis = layer.connection(layer.consistent_hash("burst"))
        assert await redis.zcard(layer._group_key("burst")) == 0
    finally:
        await layer.flush()
        await layer.close_pools()


@pytest.mark.asyncio
async def test_a_pool_at_its_cap_gives_up_after_its_wait():
    config = {**settings.CHANNEL_LAYERS["default"]["CONFIG"]}
    config["hosts"] = [{**config["hosts"][0], "max_connections": 1}]
    layer = TableLayer(**config)
    pool = layer.create_pool(0)
    pool.wait = 0.05
    held = await pool.get_connection()
    try:
        with pytest.raises(MaxConnectionsError):
            await asyncio.wait_for(pool.get_connection(), 5)
        await pool.release(held)
        await pool.release(await asyncio.wait_for(pool.get_connection(), 5))  # free again
    finally:
        await pool.disconnect()


@pytest.mark.asyncio
async def test_the_reader_ends_even_when_a_cancel_is_swallowed_below_it(monkeypatch):
    """Python 3.11's asyncio.wait_for, inside redis-py's commands, can swallow a cancel that
    meets its finished wait; the reader still ends, within one blocking read."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = TableLayer(**{**config, "capacity": 100})
    layer.brpop_timeout = 1
    redis = layer.connection(0)
    bzpopmin, reading = redis.bzpopmin, asyncio.Event()

    async def swallowing(*args, **kwargs):
        reading.set()
        try:
            return await bzpopmin(*args, **kwargs)
        except asyncio.CancelledError:
            return None

    monkeypatch.setattr(redis, "bzpopmin", swallowing)
    receiver = asyncio.ensure_future(layer.receive(await layer.new_channel()))
    try:
        await asyncio.wait_for(reading.wait(), 5)
        reader = layer._reader
        reader.cancel()
        await asyncio.wait({reader}, timeout=5)  # (wait_for would wait on a stuck one)
        assert reader.cancelled()
    finally:
        receiver.cancel()
        await layer.close_pools()


@pytest.mark.asyncio
async def test_news_with_a_value_to_keep_sets_it_in_the_same_round_trip(monkeypatch):
    """A move's state goes to the shared cache in the round trip that reads the table's
    members, before them: whoever hears the news, in any process, can read the state."""
    from django.core.cache import cache

    from infra import news

    here, there = _layers()
    assert here.holds(cache.url)

    async def apart(*args, **kwargs):
        raise AssertionError("the value was set in a round trip of its own")

    monkeypatch.setattr(cache, "aset", apart)
    theirs = await there.new_channel()
    await here.group_add("game-4", theirs)
    try:
        went = await news.tell("game-4", "game.update", seq=3, keep=("kept-4", '{"seq": 3}', 60))
        assert went
        heard = await asyncio.wait_for(there.receive(theirs), 5)
        assert heard == {"type": "game.update", "seq": 3}
        assert cache.get("kept-4") == '{"seq": 3}'
        assert 0 < cache._cache.get_client().ttl(cache.make_key("kept-4")) <= 60
    finally:
        cache.delete("kept-4")
        await here.flush()
        await there.close_pools()
