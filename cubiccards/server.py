"""daphne as the site runs it (`python -m cubiccards.server <daphne's arguments>`): incoming
WebSocket messages are capped at MAX_FRAME bytes, and one past the cap is refused with a close
frame (1009, "message too big", and the sizes) instead of a silently dropped connection; and
the garbage collector is set for many live tables (settle_memory)."""

import gc
import importlib
import sys

from daphne import server
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketFactory

# Far above any real message (the table socket itself answers those over 4 KB with an
# error), far below what would cost the server memory.
MAX_FRAME = 64 * 1024

# Python's full garbage collection holds the event loop, and so every table of the process,
# for its whole run: 60-160 ms of CPU with 500 tables, about every 15 s under load, which was
# most of the slowest 1% of moves (bench/load.py). The objects startup makes live as long as
# the process, so they are frozen out of every collection; and a full collection waits for 10x
# more younger collections than Python's default (young garbage is still collected as often).
FULL_COLLECTION_AFTER = 100  # collections of the middle generation (Python's default: 10)


class ClosingWebSocketFactory(WebSocketFactory):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # autobahn's default drops the TCP connection: the client never learns why.
        self.setProtocolOptions(failByDrop=False)


def settle_memory() -> None:
    importlib.import_module("cubiccards.asgi")  # the site, as daphne is about to load it
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_AFTER)


def main(argv: list[str]) -> None:
    settle_memory()
    server.WebSocketFactory = ClosingWebSocketFactory
    for option in ("--websocket-max-message-size", "--websocket-max-frame-size"):
        if not any(arg.startswith(option) for arg in argv):
            argv = [option, str(MAX_FRAME), *argv]
    CommandLineInterface().run(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
