"""A process's spectators of a game (lobby.spectating): one subscription to the game's group
however many watch, one delivery per move, and that delivery gives way to the seats' moves in
the process, so a table's crowd doesn't slow another table's players; and the view it
delivers is built once, off the event loop (lobby.viewpoints)."""

import asyncio
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import pytest_asyncio
from channels.layers import get_channel_layer

from lobby import spectating, viewpoints
from lobby.models import Room

WATCHING = 3 * spectating.CHUNK


class Spectator:
    def __init__(self, offers: list):
        self.sent_seq, self.gone, self.offers = -1, False, offers
        self.kind = "json"

    def offer(self, view, seq: int) -> None:
        self.offers.append(view)
        self.sent_seq = seq

    async def crowd_view(self, seq: int) -> str:
        return f"view {seq}"

    async def prepare(self, view) -> None:
        pass


async def members(group: str) -> int:
    """The channels in the game's group, as the channel layer holds them."""
    layer = get_channel_layer()
    if hasattr(layer, "_group_key"):  # Redis
        connection = layer.connection(layer.consistent_hash(group))
        return await connection.zcard(layer._group_key(group))
    return len(layer.groups.get(group, {}))


async def moved(group: str, seq: int) -> None:
    await get_channel_layer().group_send(group, {"type": "game.update", "seq": seq})


@pytest_asyncio.fixture
async def crowd():
    """WATCHING spectators of one game, and the views offered to them."""
    group, offers = f"game-test-{uuid.uuid4().hex[:8]}", []
    spectators = [Spectator(offers) for _ in range(WATCHING)]
    for spectator in spectators:
        await spectating.follow(spectator, None, group)
    yield group, offers, spectators
    for spectator in spectators:
        spectating.spectator_left(spectator, group)


async def _settle(seconds: float = 0.05) -> None:
    await asyncio.sleep(seconds)


@pytest.mark.asyncio
async def test_a_move_is_one_message_however_many_watch(crowd):
    group, offers, spectators = crowd
    assert await members(group) == 1  # the crowd's channel, not one per spectator
    await moved(group, 1)
    await _settle()
    assert offers == ["view 1"] * WATCHING
    for spectator in spectators:
        spectating.spectator_left(spectator, group)
    await _settle()
    assert await members(group) == 0  # the last to go took the subscription with it


@pytest.mark.asyncio
async def test_a_delivery_waits_while_a_seat_here_is_moving(crowd):
    group, offers, _ = crowd
    with spectating.seat_busy():
        await moved(group, 1)
        await asyncio.sleep(spectating.SEATS_AHEAD / 5)
        assert offers == []  # nobody is sent the move while the seat's own view is pending
    await _settle()
    assert offers == ["view 1"] * WATCHING


@pytest.mark.asyncio
async def test_a_busy_process_delays_its_spectators_only_so_long(crowd):
    group, offers, _ = crowd
    with spectating.seat_busy():
        await moved(group, 1)
        await asyncio.sleep(spectating.SEATS_AHEAD * 3)
        # however busy the seats are, the crowd is sent the move after SEATS_AHEAD
        assert offers == ["view 1"] * WATCHING


@pytest.mark.asyncio
async def test_a_crowds_chunks_are_spread_out(crowd):
    """Between two chunks the loop pauses: it writes the chunk's frames and reads any seat's
    move then, so a seat waits for one chunk's sends at most, not the crowd's."""
    group, offers, spectators = crowd
    times = []
    for spectator in spectators:
        spectator.offer = lambda view, seq: (times.append(time.monotonic()), offers.append(view))
    await moved(group, 1)
    await _settle(0.2)
    assert len(times) == WATCHING
    gaps = [times[n] - times[n - 1] for n in range(spectating.CHUNK, WATCHING, spectating.CHUNK)]
    pause = min(spectating.CHUNK_PAUSE, spectating.SPREAD * spectating.CHUNK / WATCHING)
    assert pause == spectating.CHUNK_PAUSE and min(gaps) >= pause


@pytest.mark.asyncio
async def test_a_spectator_arriving_later_joins_the_same_subscription(crowd):
    group, offers, _ = crowd
    later = Spectator([])
    await spectating.follow(later, None, group)
    assert await members(group) == 1
    await moved(group, 1)
    await _settle()
    assert later.offers == ["view 1"] and len(offers) == WATCHING
    spectating.spectator_left(later, group)


def test_a_crowd_left_by_an_ended_event_loop_is_made_again():
    """A crowd belongs to its event loop: a spectator on a new loop (as each test's is) gets a
    crowd of its own, not one whose subscription died with the old loop."""
    group = f"game-test-{uuid.uuid4().hex[:8]}"
    left_behind = Spectator([])
    asyncio.run(spectating.follow(left_behind, None, group))  # and never leaves

    async def watch_again() -> list:
        spectator = Spectator([])
        await spectating.follow(spectator, None, group)
        await moved(group, 1)
        await _settle()
        spectating.spectator_left(spectator, group)
        return spectator.offers

    assert asyncio.run(watch_again()) == ["view 1"]


def test_a_view_two_threads_want_at_once_is_built_once():
    """A view wanted on two threads at once (sockets reading a table on their threads as a
    crowd arrives) was built by each: now the second waits for the first's build."""
    key, builds = ("test-view", uuid.uuid4().hex), []
    building, done = threading.Event(), threading.Event()

    def build() -> str:
        builds.append(1)
        building.set()
        done.wait(timeout=5)
        return "the view"

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(viewpoints.shared, key, build)
        building.wait(timeout=5)
        second = pool.submit(viewpoints.shared, key, build)
        time.sleep(0.2)  # the second thread reaches the key while the first still builds it
        done.set()
        assert first.result() == second.result() == "the view"
    assert len(builds) == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_view_built_aside_reads_no_database():
    """What is built on the render thread works from what was read before: a query there
    would open a database connection that thread never gives back."""
    with pytest.raises(RuntimeError, match="reads no database"):
        await viewpoints.built_aside(("test-view", uuid.uuid4().hex), Room.objects.count)


def test_a_brief_view_goes_with_the_next_view_kept_after_its_time(monkeypatch):
    """A seat's view at one state is asked for within moments of the move; kept until the
    next move, each lived through the young garbage collections between, every one of which
    looked at it while every table of the process waited."""
    monkeypatch.setattr(viewpoints, "BRIEF", 0.05)
    seat, people = ("test-seat", uuid.uuid4().hex), ("test-people", uuid.uuid4().hex)
    viewpoints.shared(seat, lambda: "the seat's view", brief=True)
    viewpoints.shared(people, lambda: "the people")
    assert viewpoints.kept(seat) == "the seat's view"
    time.sleep(0.06)
    viewpoints.shared(("test-seat", uuid.uuid4().hex), lambda: "the next", brief=True)
    assert viewpoints.kept(seat) is None  # gone: nothing holds it any more
    assert viewpoints.kept(people) == "the people"  # not brief: kept while there is room
