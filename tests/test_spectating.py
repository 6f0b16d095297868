"""A move's delivery to a process's spectators gives way to the seats' moves in that process
(lobby.spectating): a table's crowd must not slow another table's players."""

import asyncio

import pytest

from lobby import spectating

pytestmark = pytest.mark.asyncio


class Spectator:
    def __init__(self, offers: list):
        self.sent_seq, self.gone, self.offers = -1, False, offers

    def offer(self, view, seq: int) -> None:
        self.offers.append(seq)
        self.sent_seq = seq


@pytest.fixture
def crowd():
    offers: list[int] = []
    spectators = [Spectator(offers) for _ in range(3 * spectating.CHUNK)]
    for spectator in spectators:
        spectating.spectator_moved(spectator, None, "game-1")
    yield offers
    for spectator in spectators:
        spectating.spectator_moved(spectator, "game-1", None)


async def _read(seq: int) -> str:
    return f"view {seq}"


async def test_a_delivery_waits_while_a_seat_here_is_moving(crowd):
    with spectating.seat_busy():
        assert spectating.moved("game-1", 1, _read)
        await asyncio.sleep(spectating.SEATS_AHEAD / 5)
        assert crowd == []  # nobody is sent the move while the seat's own view is pending
    await asyncio.sleep(0.02)
    assert crowd == [1] * 3 * spectating.CHUNK


async def test_a_busy_process_delays_its_spectators_only_so_long(crowd):
    with spectating.seat_busy():
        spectating.moved("game-1", 1, _read)
        await asyncio.sleep(spectating.SEATS_AHEAD * 3)
        # however busy the seats are, the crowd is sent the move after SEATS_AHEAD
        assert crowd == [1] * 3 * spectating.CHUNK


async def test_an_idle_process_delivers_at_once(crowd):
    spectating.moved("game-1", 1, _read)
    await asyncio.sleep(0.01)
    assert crowd == [1] * 3 * spectating.CHUNK
