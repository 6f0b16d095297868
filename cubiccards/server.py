"""daphne as the site runs it (`python -m cubiccards.server <daphne's arguments>`): incoming
WebSocket messages are capped at MAX_FRAME bytes, and one past the cap is refused with a close
frame (1009, "message too big", and the sizes) instead of a silently dropped connection. It
listens with a deeper queue of waiting connections (BACKLOG) and gives a WebSocket longer to be
accepted (CONNECT_TIMEOUT) than daphne's defaults, for bursts of sockets opening at once.
Garbage collection is set for a long-lived server, and the event loop gets the GIL back
quickly from threads (Server below). When the server has stopped
the process exits, whatever threads are left."""

import gc
import logging
import os
import sys
import threading
import time

from daphne import server
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketFactory

# Far above any real message (the table socket itself answers those over 4 KB with an
# error), far below what would cost the server memory.
MAX_FRAME = 64 * 1024


class ClosingWebSocketFactory(WebSocketFactory):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # autobahn's default drops the TCP connection: the client never learns why.
        self.setProtocolOptions(failByDrop=False)


# A young collection after 10,000 new objects instead of 700, and each older one after 20 of
# the one below instead of 10: a move's objects are mostly freed (by their counts) before a
# collection looks at them, so far fewer are carried into the older generations.
GC_THRESHOLDS = (10_000, 20, 20)


# Seconds a thread that holds the GIL keeps it while another waits (Python's default: 0.005).
# The event loop lets the GIL go at every socket read and write; a thread rendering meanwhile
# (a table's spectators' view, a view read on a thread) then kept it up to 5 ms each time the
# loop asked for it back, several times within one move: a seat's move handled during a
# spectators' render waited that long at each of its reads and writes.
SWITCH_INTERVAL = 0.0005


# The kernel's queue of connections not yet accepted, per listening socket. Twisted's default of
# 50 overflowed when an arena's pairing opened every new table's sockets at once while the
# event loop was busy: connections beyond it were dropped and nginx saw them reset.
BACKLOG = 1024
# Seconds a WebSocket may take from its request to the application's accept; daphne's command
# line says 5, and a room socket's first reads can wait that long for a pooled database
# connection in such a burst (the socket was then refused with a 403).
CONNECT_TIMEOUT = 20


def with_backlog(endpoint: str) -> str:
    if endpoint.startswith("tcp:") and ":backlog=" not in endpoint:
        return f"{endpoint}:backlog={BACKLOG}"
    return endpoint


class CollectionLog:
    """With GC_LOG=1 in the environment: every garbage collection of the process that took 1 ms
    or more, on stderr, with its generation, wall and CPU time, what it freed and its thread,
    and every 10 s how many there were and what all of them freed. A collection holds every
    table of the process while it runs (docs/performance.md)."""

    def __init__(self):
        self.started = {}
        self.count = self.freed = 0
        self.since = time.monotonic()

    def __call__(self, phase, info):
        thread = threading.get_ident()
        if phase == "start":
            self.started[thread] = (time.perf_counter(), time.thread_time())
            return
        wall, cpu = self.started.pop(thread, (None, None))
        if wall is None:
            return
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        self.count += 1
        self.freed += info["collected"]
        name = threading.current_thread().name
        if wall >= 0.001:
            print(
                f"gc: {time.time():.3f} generation {info['generation']} wall "
                f"{wall * 1000:.1f} ms cpu {cpu * 1000:.1f} ms freed {info['collected']} "
                f"on {name}",
                file=sys.stderr,
                flush=True,
            )
        if time.monotonic() - self.since >= 10:
            print(
                f"gc: {time.time():.3f} {self.count} collections freed {self.freed} in "
                f"{time.monotonic() - self.since:.0f} s",
                file=sys.stderr,
                flush=True,
            )
            self.count = self.freed = 0
            self.since = time.monotonic()


class Server(server.Server):
    def run(self):
        self.endpoints = [with_backlog(endpoint) for endpoint in self.endpoints]
        # What exists now (Django, the site's modules, the application) lives as long as the
        # process: frozen, no collection looks at it again. A full collection at 500 tables
        # looked at every object and held every table for 90-640 ms (bench/load.py).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        if os.environ.get("GC_LOG") == "1":
            gc.callbacks.append(CollectionLog())
        sys.setswitchinterval(SWITCH_INTERVAL)
        super().run()


class SiteCommandLine(CommandLineInterface):
    server_class = Server


def main(argv: list[str]) -> None:
    server.WebSocketFactory = ClosingWebSocketFactory
    defaults = {
        "--websocket-max-message-size": MAX_FRAME,
        "--websocket-max-frame-size": MAX_FRAME,
        "--websocket_connect_timeout": CONNECT_TIMEOUT,
    }
    for option, value in defaults.items():
        if not any(arg.startswith(option) for arg in argv):
            argv = [option, str(value), *argv]
    SiteCommandLine().run(argv)
    # The server has stopped (SIGTERM, Ctrl-C). A thread still waiting on its event loop (a
    # sync view's call into async code when the stop came) would wait forever, and Python's
    # exit waits for every such thread: the process would outlive `make serve`'s stop.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
