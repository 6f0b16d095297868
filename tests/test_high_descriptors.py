"""A server process holding a thousand sockets (a table's spectators) opens its database
connections at descriptors above 1023, where select() refuses to look: the pool's check of an
idle connection raised there, and the move that took the connection died with its socket."""

import os
import resource
import socket

import pytest

from infra.database.base import _heard_from

HIGH = 1500  # above select()'s FD_SETSIZE of 1024


class Idle:
    """A connection as the check sees it: open, and a socket to look at."""

    closed = False

    def __init__(self, fd: int):
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


@pytest.fixture
def high_descriptor():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= HIGH:
        pytest.fail(f"this test needs more than {HIGH} open files (ulimit -Hn is {hard})")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, HIGH + 1), hard))
    ours, server = socket.socketpair()
    os.dup2(ours.fileno(), HIGH)
    yield server
    os.close(HIGH)
    ours.close()
    server.close()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_an_idle_connection_above_descriptor_1023_is_checked(high_descriptor):
    assert _heard_from(Idle(HIGH)) is False  # quiet: used as it is
    high_descriptor.send(b"x")  # the database said something (or closed it)
    assert _heard_from(Idle(HIGH)) is True
