"""daphne as the site runs it (`python -m cubiccards.server <daphne's arguments>`): incoming
WebSocket messages are capped at MAX_FRAME bytes, and one past the cap is refused with a close
frame (1009, "message too big", and the sizes) instead of a silently dropped connection.
Garbage collection is set for a long-lived server (Server below). When the server has stopped
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


class Server(server.Server):
    def run(self):
        # What exists now (Django, the site's modules, the application) lives as long as the
        # process: frozen, no collection looks at it again. A full collection at 500 tables
        # looked at every object and held every table for 90-640 ms (bench/load.py).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        super().run()


class SiteCommandLine(CommandLineInterface):
    server_class = Server


def main(argv: list[str]) -> None:
    server.WebSocketFactory = ClosingWebSocketFactory
    for option in ("--websocket-max-message-size", "--websocket-max-frame-size"):
        if not any(arg.startswith(option) for arg in argv):
            argv = [option, str(MAX_FRAME), *argv]
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
