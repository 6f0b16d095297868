"""How long a move takes: from sending an action to receiving the new view.

    ECHO_SOCKET=1 make serve            # in one terminal (PostgreSQL + Redis, daphne, Celery)
    .venv/bin/python bench/table_roundtrip.py [--url http://127.0.0.1:8000] [--moves 300]
                                              [--pace 0.15]

Two JSON clients sit at a two-seat War table in one room (no computer players, so every move
measured is one of ours) and take turns to flip: the time from sending {"type": "act"} to
receiving the state with the next seq is one round trip (lock, engine, event row, commit,
cache, render of the view, send); the other seat's view follows the broadcast through Redis,
and the time from the act until both seats have their view is shown too. Each socket acts at most once every
2 x --pace seconds, under the server's flood limit (8 messages a second); an action the server
limits anyway is answered with an error saying it was not applied, and is sent again and not
timed. Beside it, in the same run and through the same daphne and Redis, a bare Channels echo
(group_send to itself and back, at the same pace) gives the floor. Prints p50 and p99 of both
and their ratio. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets.sync.client  # noqa: E402

from tests.e2e.client import SiteClient, act, receive  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def table_roundtrips(url: str, moves: int, pace: float) -> tuple[list[float], list[float], int]:
    """Round trips of `moves` flips (to the mover's new view, and until both seats have
    theirs), and how many flips the server limited (sent again)."""
    host, guest = SiteClient(url), SiteClient(url)
    times: list[float] = []
    others: list[float] = []
    limited = 0
    while len(times) < moves:
        code = host.create_room()
        guest.post("/rooms/join/", {"code": code})
        host.post(f"/rooms/{code}/start/", {"game": "war", "seats": "2"})
        with host.socket(code) as a, guest.socket(code) as b:
            sockets = {0: a, 1: b}
            latest = {0: receive(a), 1: receive(b)}
            while len(times) < moves and not latest[0]["over"]:
                seat = latest[0]["to_act"][0]
                ws = sockets[seat]
                seq = max(latest[0]["seq"], latest[1]["seq"])
                time.sleep(pace)
                started = time.perf_counter()
                act(ws, {"type": "flip"}, seq)
                while True:
                    message = receive(ws)
                    if message["type"] == "error":
                        if "not applied" not in message["message"]:
                            raise SystemExit(f"the server refused a flip: {message}")
                        limited += 1  # dropped, and said so: wait as told, send it again
                        time.sleep(message.get("retry_after", pace))
                        started = time.perf_counter()
                        act(ws, {"type": "flip"}, seq)
                    elif message["type"] == "state" and message["seq"] > seq:
                        break
                times.append(time.perf_counter() - started)
                latest[seat] = message
                other = 1 - seat
                while True:  # the other client hears the same seq
                    message = receive(sockets[other])
                    if message["type"] == "state" and message["seq"] >= latest[seat]["seq"]:
                        others.append(time.perf_counter() - started)
                        latest[other] = message
                        break
                latest[0]["over"] = latest[seat]["over"]
        host.post(f"/rooms/{code}/leave/")
        guest.post(f"/rooms/{code}/leave/")
    return times, others, limited


def echo_roundtrips(url: str, count: int, pace: float) -> list[float]:
    ws_url = url.replace("http://", "ws://").rstrip("/") + "/ws/echo/"
    times = []
    with websockets.sync.client.connect(ws_url, additional_headers={"Origin": url}) as ws:
        for i in range(count):
            payload = json.dumps({"n": i})
            time.sleep(pace)
            started = time.perf_counter()
            ws.send(payload)
            assert ws.recv(timeout=10) == payload
            times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument(
        "--pace", type=float, default=0.15, help="seconds between moves (default 0.15)"
    )
    args = parser.parse_args()
    echo_roundtrips(args.url, 20, args.pace)  # warm up
    table, others, limited = table_roundtrips(args.url, args.moves, args.pace)
    echo = echo_roundtrips(args.url, args.moves, args.pace)
    rows = [
        ("bare Channels echo", echo),
        ("War move (act -> new view)", table),
        ("... until both seats have it", others),
    ]
    print(f"{'':30} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for name, values in rows:
        print(
            f"{name:30} {len(values):>5} {percentile(values, 0.5) * 1000:>8.2f} "
            f"{percentile(values, 0.99) * 1000:>8.2f} {statistics.mean(values) * 1000:>8.2f}"
        )
    print(
        f"ratio move/echo: p50 {percentile(table, 0.5) / percentile(echo, 0.5):.1f}x, "
        f"p99 {percentile(table, 0.99) / percentile(echo, 0.99):.1f}x; "
        f"flips limited by the server and sent again: {limited}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
