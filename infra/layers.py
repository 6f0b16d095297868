"""The channel layer behind the live tables."""

import asyncio
import logging
import time

from channels_redis.core import RedisChannelLayer
from redis.asyncio import ConnectionPool
from redis.exceptions import MaxConnectionsError

log = logging.getLogger(__name__)


class TableLayer(RedisChannelLayer):
    """channels_redis's layer, with a group's members in this process spared the trip
    through Redis.

    The proxy keeps a table's sockets on one daphne process, so a move's news is mostly for
    sockets of the process that wrote it. channels_redis would queue each one in Redis, and
    this process would take them back one at a time, four round trips each; here they go
    straight into the member's receive buffer. Membership still lives in Redis (read in one
    round trip), so other processes' members (a table's sockets spread across processes, a
    sender on a Celery worker) get the message through Redis as before.

    What comes through Redis is read by one reader task per process, which fills the
    buffers; every socket waits on its own buffer (channels_redis instead lends the Redis
    read to one waiting socket at a time, which would sit in Redis with a message already in
    its buffer). When the reader fails (Redis away), every waiting socket gets the error in
    its buffer, as each would have in turn, and the next receive starts a new reader.

    A socket whose consumer has ended (its receive cancelled, or `forget` called) gets
    nothing more here: its membership can outlive it in Redis (a crash, or Redis away when it
    closed), and a buffer nobody reads would grow with every message to its groups for the
    process's life.
    """

    _reader: asyncio.Task | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._open: set[str] = set()  # this process's channels whose consumer still reads
        self._waiting: set[str] = set()  # those waiting on the reader now

    async def new_channel(self, prefix="specific"):
        channel = await super().new_channel(prefix)
        self._open.add(channel)
        return channel

    def create_pool(self, index):
        """channels_redis's pool, waiting at its `max_connections` (`_WaitingPool`)."""
        host = dict(self.hosts[index])
        address = host.pop("address", None)
        if address is None:
            return super().create_pool(index)
        pool = _WaitingPool.from_url(address, **host)
        pool.wait = host.get("socket_timeout") or 20
        return pool

    def holds(self, url: str) -> bool:
        """Whether every group lives in the Redis at `url` (a write there can go in a group
        send's round trip)."""
        return len(self.hosts) == 1 and self.hosts[0].get("address") == url

    async def group_send(
        self, group, message, *, first: tuple[str, bytes, int] | None = None, but: str = ""
    ):
        """As channels_redis's, and `first` (key, value, seconds), where the layer `holds` the
        key's Redis, set before the members are read, in the same round trip: every member
        that hears the message can read it. A member of this process named `but` is not sent
        it."""
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        async with self.connection(self.consistent_hash(group)).pipeline(False) as pipe:
            if first is not None:
                pipe.set(first[0], first[1], ex=first[2])
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            pipe.zrange(key, 0, -1)
            *_, members = await pipe.execute()
        through_redis = []
        for name in (m.decode("utf8") for m in members):
            if self._is_local(name):
                if name != but:
                    self._deliver(name, message)
            else:
                through_redis.append(name)
        if through_redis:
            await self._send_through_redis(through_redis, message)

    def _is_local(self, channel: str) -> bool:
        """A channel of this process, read on this loop (a layer is received on from one)."""
        reader = self._reader
        return (
            "!" in channel
            and self.non_local_name(channel).endswith(self.client_prefix + "!")
            and (reader is None or reader.get_loop() is asyncio.get_running_loop())
        )

    async def receive(self, channel):
        if "!" not in channel:
            return await super().receive(channel)
        assert self.non_local_name(channel).endswith(self.client_prefix + "!")
        # A socket keeps its buffer while it reads (one message after another, and no task
        # or wait of its own each time): waiting on it is all a receive costs.
        queue = self.receive_buffer[channel]
        if queue.empty():
            self._reading()
            self._waiting.add(channel)
            try:
                message = await queue.get()
            except asyncio.CancelledError:  # the consumer ended
                self.forget(channel)
                raise
            finally:
                self._waiting.discard(channel)
        else:
            message = queue.get_nowait()
        if isinstance(message, _Stopped):  # the reader failed (Redis away): so does this socket
            self.forget(channel)
            raise message.error
        return message

    def forget(self, channel: str) -> None:
        """The channel's consumer has ended: keep nothing more for it."""
        self.receive_buffer.pop(channel, None)
        self._open.discard(channel)

    def _reading(self) -> asyncio.Task:
        reader = self._reader
        if reader is None or reader.done() or reader.get_loop() is not asyncio.get_running_loop():
            self._reader = asyncio.ensure_future(self._read())
            self._reader.add_done_callback(_stopped)
        return self._reader

    async def _read(self) -> None:
        """Take this process's messages from Redis into the sockets' buffers.

        Read straight off the process's queue: channels_redis's backup queue guards a message
        against a cancelled receiver, but this reader is cancelled only when its event loop
        (and so every socket the message was for) ends. Python 3.11's asyncio.wait_for, which
        redis-py awaits inside a command, can swallow a cancel that meets its finished wait,
        so the loop asks its task whether it was cancelled instead of trusting the error to
        arrive; a blocking read ends within brpop_timeout."""
        channel = f"specific.{self.client_prefix}!"
        key = self.prefix + channel
        connection = self.connection(self.consistent_hash(channel))
        reader = asyncio.current_task()
        try:
            while not reader.cancelling():
                popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
                if popped is None:
                    continue
                message = self.deserialize(popped[1])
                names = message.pop("__asgi_channel__")
                for name in names if isinstance(names, list) else [names]:
                    self._deliver(name, message)
        except Exception as exc:
            self._stop_waiting(exc)
            raise
        self._stop_waiting(RuntimeError("the channel layer's reader stopped"))
        raise asyncio.CancelledError

    def _stop_waiting(self, error: Exception) -> None:
        """Every socket waiting on the reader gets its error (one with a message already in
        its buffer reads that first, and the next receive starts a new reader)."""
        for channel in self._waiting:
            queue = self.receive_buffer[channel]
            if queue.empty():
                queue.put_nowait(_Stopped(error))

    def _deliver(self, channel: str, message) -> None:
        if channel in self._open:
            self.receive_buffer[channel].put_nowait(dict(message))

    async def _send_through_redis(self, channels: list[str], message) -> None:
        """channels_redis's group send to these channels: expired messages dropped and the
        new one queued under each channel's capacity, in one round trip per Redis host."""
        by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channels, message
        )
        now = time.time()
        for index, keys in by_connection.items():
            async with self.connection(index).pipeline(False) as pipe:
                for key in keys:
                    pipe.zremrangebyscore(key, min=0, max=int(now) - int(self.expiry))
                pipe.eval(
                    GROUP_SEND_LUA,
                    len(keys),
                    *keys,
                    *[messages[k] for k in keys],
                    *[capacities[k] for k in keys],
                    now,
                    self.expiry,
                )
                await pipe.execute()


class _WaitingPool(ConnectionPool):
    """A pool that, at its `max_connections`, waits up to `wait` seconds for a connection to
    come free instead of failing the command. A thousand sockets closing at once (a bench's
    phase ending, a server restarting) each take one to leave their groups, and with the
    plain pool the last few failed, leaving their memberships behind and the rest of their
    cleanup undone. Below the cap it is the plain pool, at no cost per command (redis-py's
    BlockingConnectionPool takes a condition and a timer for every one)."""

    wait = 20.0
    POLL = 0.005  # seconds between two looks for a free connection, at the cap only

    async def get_connection(self, *args, **kwargs):
        deadline = None
        while True:
            try:
                return await super().get_connection(*args, **kwargs)
            except MaxConnectionsError:
                now = asyncio.get_running_loop().time()
                deadline = deadline or now + self.wait
                if now >= deadline:
                    raise
            await asyncio.sleep(self.POLL)


class _Stopped:
    """In a waiting socket's buffer: the reader failed with `error`."""

    def __init__(self, error: Exception):
        self.error = error


def _stopped(reader: asyncio.Task) -> None:
    # Read here, so an error no socket was waiting to hear is not reported as a crash.
    if not reader.cancelled() and reader.exception() is not None:
        log.warning("the channel layer's reader stopped: %r", reader.exception())


# channels_redis's own script (core.RedisChannelLayer.group_send): queue each channel's
# message unless the channel is at capacity.
GROUP_SEND_LUA = """
    local over_capacity = 0
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""
