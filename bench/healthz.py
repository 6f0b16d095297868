"""/healthz under concurrent probes, alone and beside a load of busy sockets.

    ECHO_SOCKET=1 make serve            # in one terminal (PostgreSQL + Redis, daphne, Celery)
    .venv/bin/python bench/healthz.py [--url http://127.0.0.1:8000] [--probes 2000]
                                      [--concurrency 10] [--sockets 200]

Sends --probes GET /healthz, --concurrency at a time, first on an idle server, then while
--sockets clients bounce messages through the channel layer flat out (/ws/echo/, the same
daphne and Redis as the tables). Prints the answers by status and the probe latency p50, p99
and max of each round. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import concurrent.futures
import threading
import time
import urllib.error
import urllib.request

import websockets


def probe(url: str) -> tuple[object, float]:
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=30) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError as error:
        status = type(error).__name__
    return status, time.monotonic() - start


def probes(url: str, n: int, concurrency: int) -> str:
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        answers = list(pool.map(lambda _: probe(url), range(n)))
    times = sorted(t for _, t in answers)
    counts = dict(collections.Counter(status for status, _ in answers))
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000  # noqa: E731
    return f"{counts} p50 {p(0.5):.0f} ms, p99 {p(0.99):.0f} ms, max {times[-1] * 1000:.0f} ms"


def echo_load(url: str, sockets: int, stop: threading.Event) -> None:
    async def one():
        async with websockets.connect(url.replace("http", "ws", 1) + "/ws/echo/") as ws:
            while not stop.is_set():
                await ws.send("x" * 50)
                await ws.recv()

    async def all_of_them():
        await asyncio.gather(*(one() for _ in range(sockets)), return_exceptions=True)

    asyncio.run(all_of_them())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--probes", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--sockets", type=int, default=200)
    args = parser.parse_args()
    print(f"{args.probes} probes, {args.concurrency} at a time")
    print("  idle server:", probes(args.url, args.probes, args.concurrency))
    stop = threading.Event()
    load = threading.Thread(target=echo_load, args=(args.url, args.sockets, stop))
    load.start()
    time.sleep(2)
    try:
        result = probes(args.url, args.probes, args.concurrency)
    finally:
        stop.set()
        load.join()
    print(f"  beside {args.sockets} busy sockets:", result)


if __name__ == "__main__":
    main()
