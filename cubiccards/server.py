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


class Server(server.Server):
    def run(self):
        self.endpoints = [with_backlog(endpoint) for endpoint in self.endpoints]
        # What exists now (Django, the site's modules, the application) lives as long as the
        # process: frozen, no collection looks at it again. A full collection at 500 tables
        # looked at every object and held every table for 90-640 ms (bench/load.py).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
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
