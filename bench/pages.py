"""Pages against the static floor: how many home pages a second one daphne serves a signed-in
player, beside a static file served by the same daphne in the same run.

    make serve PORT=8250 DAPHNES=2                      # one terminal
    .venv/bin/python bench/pages.py [--url http://127.0.0.1:8251] [--connections 8]

Signs up one player (the home page as a player sees it: the header's Kudos and level, friends'
invitations, the game tiles), then in rounds that take each path in turn, for --seconds each, keeps
--connections keep-alive HTTP/1.1 connections busy with GETs of one path: the site's
stylesheet (served by whitenoise from the same process: the floor a Django response can
reach) and the home page, and any --also paths (`--also /icon.svg`: a view that sends a kept
string, the floor of a signed-in page through the whole middleware). Prints each round's
requests/s, latency p50/p99, the medians over the rounds, and each path against static.
Point --url at one daphne (make serve's daphne i listens on PORT+i), not nginx, so every path
takes the same process. Every answer must be 200: a round with another status says so. Only
127.0.0.1; bounded by --seconds and --rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.client import SiteClient  # noqa: E402


async def read_response(reader: asyncio.StreamReader) -> int:
    """One HTTP/1.1 response off a keep-alive connection; returns its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"\r\ncontent-length:\s*(\d+)", head, re.I)
    if length:
        await reader.readexactly(int(length.group(1)))
    elif re.search(rb"\r\ntransfer-encoding:\s*chunked", head, re.I):
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    return status


async def hammer(host: str, port: int, request: bytes, stop: float, times: list, bad: list):
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while time.perf_counter() < stop:
            started = time.perf_counter()
            writer.write(request)
            status = await read_response(reader)
            times.append(time.perf_counter() - started)
            if status != 200:
                bad.append(status)
    finally:
        writer.close()


async def measure(url: str, path: str, cookie: str, connections: int, seconds: float) -> dict:
    where = urlparse(url)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {where.netloc}\r\nCookie: {cookie}\r\n"
        "Accept-Encoding: identity\r\nAccept-Language: en\r\n\r\n"
    ).encode()
    times: list[float] = []
    bad: list[int] = []
    started = time.perf_counter()
    stop = started + seconds
    await asyncio.gather(
        *(hammer(where.hostname, where.port, request, stop, times, bad) for _ in range(connections))
    )
    took = time.perf_counter() - started
    times.sort()
    return {
        "per_s": len(times) / took,
        "p50": 1000 * times[len(times) // 2],
        "p99": 1000 * times[int(len(times) * 0.99)],
        "bad": len(bad),
    }


def stylesheet(client: SiteClient) -> str:
    """The stylesheet's address as the home page links it (hashed in production)."""
    html = client.get("/").read().decode()
    return re.search(r'href="(/static/css/site[^"]*\.css)"', html).group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8251", help="one daphne, not nginx")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10, help="length of each round (<= 60)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each path (<= 10)")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="PATH",
        help="another path to measure beside them, as the same player (e.g. /icon.svg)",
    )
    args = parser.parse_args()
    assert urlparse(args.url).hostname == "127.0.0.1", "only 127.0.0.1"
    args.seconds, args.rounds = min(args.seconds, 60), min(args.rounds, 10)

    player = SiteClient(args.url)
    player.sign_up(f"pages{uuid.uuid4().hex[:8]}")
    cookie = "; ".join(f"{c.name}={c.value}" for c in player.cookies)
    assert "sessionid" in cookie, "the sign-up did not sign in"
    paths = {"static": stylesheet(player), "home": "/", **{p: p for p in args.also}}
    print(f"{args.connections} keep-alive connections to {args.url}, {args.seconds:g} s a round")
    print(f"static = {paths['static']}, home = / for a signed-in player")
    rounds: dict[str, list[dict]] = {name: [] for name in paths}
    for i in range(args.rounds):
        for name, path in paths.items():
            got = asyncio.run(measure(args.url, path, cookie, args.connections, args.seconds))
            rounds[name].append(got)
            flag = f"  {got['bad']} answers not 200" if got["bad"] else ""
            print(
                f"round {i + 1} {name:7s} {got['per_s']:8.1f}/s  p50 {got['p50']:6.1f} ms"
                f"  p99 {got['p99']:6.1f} ms{flag}",
                flush=True,
            )
    medians = {n: statistics.median(r["per_s"] for r in rs) for n, rs in rounds.items()}
    for name, value in medians.items():
        print(f"median {name:7s} {value:8.1f}/s")
    for name in medians:
        if name != "static":
            print(f"{name}/static: {medians[name] / medians['static']:.2f}")


if __name__ == "__main__":
    main()
