"""A thousand spectators on ten live tables, against `make serve`: how long a move takes to
reach the last spectator, and what watching costs the players.

    ECHO_SOCKET=1 make serve PORT=8250                   # one terminal
    .venv/bin/python bench/spectators.py [--tables 10] [--watchers 1000] [--html 0.2]
        [--games war|mix] [--pace 2] [--seconds 60] [--rounds 1]

Opens N public tables of two guests each (War, or with --games mix a third each of War, Poker
and Blackjack), both seats on JSON sockets, and plays them as bench/load.py does: once every
--pace seconds per table, a seat the game awaits sends an action. Three timed phases in one
run, through the same server and Redis:

1. alone: the tables with no spectator;
2. watched: the same tables, the same games going on, with --watchers spectator sockets spread
   evenly over them (/ws/rooms/<CODE>/watch/), a share --html of them the watch page's HTML
   socket and the rest JSON;
3. relay: after everyone has left, the bare Channels floor of that fan-out (/ws/echo/, routed
   only with ECHO_SOCKET=1): per table one sender and as many listeners as it had sockets,
   the sender's message timed to the last listener.

With --rounds N, phases 1 and 2 alternate N times (alone, watched, alone, watched, …: the
spectators arrive afresh for each watched block and all leave before the next alone one), each
block --seconds long, and each side's samples are pooled, every one of them: a p99 over a few
hundred moves is the third to fifth slowest, and blocks side by side spread the machine's other
work over both sides alike. A round's two blocks play each table on the same beat (drawn at
random for each round): two tables whose turns meet in one server process are slower for the
whole block, so a block's p99 depends on which tables meet, and a round compares the same
meetings with and without spectators.

The spectators' sockets live in a process of their own, so the bursts of views they read
don't delay the seats' process in reading the seats' own (both time with the machine's
monotonic clock). A move's round trip is the time from sending {"type": "act"} to the seat's
own new view; its spectator delay is the time from the same send to the last of the table's
spectators holding a view at that move or later (every spectator's delay is kept too). A spectator that never
shows a move (10 s) counts as a missed view; an act with no answer in 10 s is "lost". Prints,
per phase, p50/p99 of both, the seats' p99 watched over alone (the goal: at most 1.5x; and a
spectator p99 under 250 ms), the tables with lost moves or missed views (and whether they had
HTML spectators), and each server process's CPU (% of one core). Only 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import concurrent.futures
import itertools
import json
import multiprocessing
import random
import re
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (bench/load.py: its tables, seats, pace and CPU readings)
from load import (  # noqa: E402
    ANSWER_WITHIN,
    HANDSHAKES_AT_ONCE,
    MIX,
    Beat,
    Phase,
    Seat,
    Timed,
    cpu_between,
    deal,
    open_socket,
    percentile,
    pick,
)
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.e2e.client import SiteClient  # noqa: E402

# The first bytes of each message are enough to place it: no JSON or HTML parsed per view.
JSON_STATE = re.compile(r'^\{"type": "state", "seq": (\d+), "game": "[^"]*", "game_id": (\d+)')
HTML_STATE = re.compile(r'id="room-main" data-seq="(\d+)" data-kind="[^"]*" data-game-id="(\d+)"')


@dataclass
class Move:
    table: int
    game_id: int
    seq: int  # the view that shows it
    sent: float


@dataclass
class Run(Phase):
    moves: list[Move] = field(default_factory=list)
    last_spectator: list[float] = field(default_factory=list)  # per move
    every_spectator: list[float] = field(default_factory=list)
    missed: int = 0  # (move, spectator) pairs never shown
    per_table: dict[int, dict] = field(default_factory=dict)
    rounds: list[list[float]] = field(default_factory=list)  # the seats' times, block by block


WATCHING_PID: int | None = None  # the process holding the spectators' sockets
LEFT = 5.0  # seconds for the servers to see a thousand spectators leave


def cpu_sample() -> dict[int, tuple[str, float]]:
    sample = load.cpu_sample()
    if WATCHING_PID is not None:
        sample[WATCHING_PID] = ("this bench (spectators)", load._stat(WATCHING_PID)[2])
    return sample


class Spectator:
    """One watch socket and when each view reached it: per game, (seq, time) in arrival
    order, and the highest seq seen so far with it (a spectator that falls behind is sent
    the newest view, not every one)."""

    def __init__(self, ws, html: bool):
        self.ws, self.html = ws, html
        self.seen: dict[int, tuple[list[int], list[float]]] = {}

    def __getstate__(self):  # sent back to the seats' process: what it saw, not its socket
        return {"ws": None, "html": self.html, "seen": self.seen}

    async def read(self, done: asyncio.Event, dropped: list[int]):
        pattern = HTML_STATE if self.html else JSON_STATE
        try:
            async for raw in self.ws:
                found = pattern.search(raw[:2000] if self.html else raw[:120])
                if found:
                    seqs, times = self.seen.setdefault(int(found[2]), ([], []))
                    seq = int(found[1])
                    if not seqs or seq > seqs[-1]:
                        seqs.append(seq)
                        times.append(time.perf_counter())
        except ConnectionClosed:
            pass
        if not done.is_set():
            dropped[0] += 1

    def shown(self, move: Move) -> float | None:
        """When this spectator first held a view at `move` or later."""
        seqs, times = self.seen.get(move.game_id, ((), ()))
        i = bisect.bisect_left(seqs, move.seq)
        return times[i] if i < len(seqs) else None


def make_table(url: str, kind: str) -> tuple[str, list[SiteClient], str]:
    """Two guests at a public table (anyone may watch it), not yet dealt."""
    code, clients = load.make_table(url)
    clients[0].post(f"/rooms/{code}/public/", {"public": "1", "game": kind, "seats": "2"})
    return code, clients, kind


async def play_table(
    i, table, seats: list[Seat], args, run: Run, stop: float, ids, pool, phase: float
):
    """bench/load.py's table, each answered move kept with when it was sent."""
    kind = table[2]
    beat = Beat(args.pace, phase)
    while await beat.wait(stop):
        state = max((s.state for s in seats), key=lambda st: st.get("seq", -1))
        if state.get("type") == "state" and state.get("over"):
            game_id = state["game_id"]
            await asyncio.get_running_loop().run_in_executor(pool, deal, table)
            await seats[0].wait_for(lambda g=game_id: seats[0].state.get("game_id") != g, 10)
        elif state.get("type") == "state" and state.get("to_act"):
            seat = seats[state["to_act"][0]]
            if seat.closed:
                return
            seq = seat.state.get("seq", -1)
            if seat.state.get("game_id") != state["game_id"] or not seat.state.get("legal"):
                continue
            action_id = f"a{next(ids)}"
            message = {"type": "act", "action": pick(seat.state, kind), "seq": seq}
            started = time.perf_counter()
            await seat.ws.send(json.dumps({**message, "id": action_id}))
            arrived = await seat.wait_for(
                lambda s=seat, q=seq, a=action_id: s.state.get("seq", -1) > q or a in s.answers,
                ANSWER_WITHIN,
            )
            if action_id in seat.answers:
                run.errors.append(seat.answers.pop(action_id)["message"])
            elif arrived:
                run.times.append(time.perf_counter() - started)
                run.moves.append(Move(i, state["game_id"], seq + 1, started))
            else:
                run.lost += 1
                run.per_table.setdefault(i, {}).setdefault("lost", 0)
                run.per_table[i]["lost"] += 1


IDS = itertools.count()  # one count for the whole run: an id sent again is never applied again


async def play(args, tables, seat_lists, run: Run, pool, phases: list[float]) -> None:
    for pair in seat_lists:
        for seat in pair:
            seat.phase = run
    with Timed():
        before, started = cpu_sample(), time.perf_counter()
        stop = started + args.seconds
        await asyncio.gather(
            *(
                play_table(i, table, pair, args, run, stop, IDS, pool, phases[i])
                for i, (table, pair) in enumerate(zip(tables, seat_lists, strict=True))
                if len(pair) == 2
            )
        )
        run.seconds = time.perf_counter() - started
    run.cpu = cpu_between(before, cpu_sample(), run.seconds)


def spectator_delays(run: Run, watching: list[list[Spectator]]) -> None:
    for move in run.moves:
        late = []
        for spectator in watching[move.table]:
            shown = spectator.shown(move)
            if shown is None or shown - move.sent > ANSWER_WITHIN:
                run.missed += 1
                run.per_table.setdefault(move.table, {}).setdefault("missed", 0)
                run.per_table[move.table]["missed"] += 1
            else:
                late.append(max(0.0, shown - move.sent))
        if late:
            run.every_spectator += late
            run.last_spectator.append(max(late))


async def relay_phase(args, fanout: list[int]) -> Run:
    """Per table a group of as many echo sockets as it had (seats and spectators): one sends
    at the table's pace, and the message is timed to the last of the others."""
    run = Run("relay")
    gate = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    base = args.url.replace("http://", "ws://").rstrip("/")
    groups = []
    for i, n in enumerate(fanout):
        sockets = await asyncio.gather(
            *(open_socket(f"{base}/ws/echo/?group=w{i}", None, gate, run) for _ in range(n))
        )
        groups.append([ws for ws in sockets if ws is not None])
    run.connections = sum(len(g) for g in groups)
    if not run.connections:
        raise SystemExit("No echo socket: start the server with ECHO_SOCKET=1.")
    arrivals: dict[str, list[float]] = {}
    done = asyncio.Event()
    dropped = [0]

    async def listen(ws):
        try:
            async for raw in ws:
                arrivals.setdefault(raw, []).append(time.perf_counter())
        except ConnectionClosed:
            pass
        if not done.is_set():
            dropped[0] += 1

    async def drain(ws):
        # The sender is in its group too: unread, its own messages fill the client's queue
        # and the server's pongs wait behind them (a keepalive timeout after about a minute).
        try:
            async for _ in ws:
                pass
        except ConnectionClosed:
            pass

    listeners = [asyncio.create_task(listen(ws)) for g in groups for ws in g[1:]]
    listeners += [asyncio.create_task(drain(g[0])) for g in groups if g]
    sent: list[tuple[str, float, int]] = []

    async def pace(i, group, stop):
        beat = Beat(args.pace)
        n = 0
        while await beat.wait(stop):
            n += 1
            payload = json.dumps({"table": i, "n": n})
            sent.append((payload, time.perf_counter(), len(group) - 1))
            try:
                await group[0].send(payload)
            except ConnectionClosed:  # the sender was dropped: counted, its table stops
                sent.pop()
                dropped[0] += 1
                return

    await asyncio.sleep(1.0)
    print(f"relay phase: {run.connections} sockets, sending", flush=True)
    with Timed():
        before, started = cpu_sample(), time.perf_counter()
        stop = started + args.seconds
        await asyncio.gather(*(pace(i, g, stop) for i, g in enumerate(groups) if len(g) > 1))
        run.seconds = time.perf_counter() - started
    run.cpu = cpu_between(before, cpu_sample(), run.seconds)
    await asyncio.sleep(ANSWER_WITHIN / 2)
    for payload, at, listening in sent:
        got = arrivals.get(payload, [])
        run.missed += max(0, listening - len(got))
        if got:
            run.every_spectator += [t - at for t in got]
            run.last_spectator.append(max(got) - at)
    run.dropped = dropped[0]
    done.set()
    for group in groups:
        await asyncio.gather(*(ws.close() for ws in group))
    await asyncio.gather(*listeners)
    return run


def ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:8.1f}"


def report(args, runs: list[Run], html_tables: set[int], tables: int) -> None:
    alone, watched, relay = runs
    print(
        f"\n{tables} tables x 2 seats, one action per table every {args.pace:g} s, "
        f"{args.seconds:g} s per phase x {args.rounds} round(s) alternating alone and watched, "
        f"games: {args.games}; {args.watchers} spectators "
        f"({args.watchers // tables} a table), {args.html:.0%} of them HTML"
    )
    print(
        f"{'':8} {'moves':>6} {'seat p50':>8} {'seat p99':>8} {'last p50':>8} {'last p99':>8} "
        f"{'each p50':>8} {'each p99':>8} {'missed':>7} {'lost':>5} {'errors':>6} {'dropped':>7}"
    )
    for run in runs:
        print(
            f"{run.name:8} {len(run.last_spectator if run is relay else run.times):>6} "
            f"{ms(run.times, 0.5)} {ms(run.times, 0.99)} "
            f"{ms(run.last_spectator, 0.5)} {ms(run.last_spectator, 0.99)} "
            f"{ms(run.every_spectator, 0.5)} {ms(run.every_spectator, 0.99)} "
            f"{run.missed:>7} {run.lost:>5} {len(run.errors):>6} {run.dropped:>7}"
        )
    print("(seat: an act to the seat's own view; last: to the table's last spectator's view;")
    print(" each: to every spectator's; relay: a message to the last (each) listener)")
    ratio = percentile(watched.times, 0.99) / percentile(alone.times, 0.99)
    print(
        f"seats' p99 watched / alone: {ratio:.2f}x (goal <= 1.5x); "
        f"last spectator p99 {percentile(watched.last_spectator, 0.99) * 1000:.0f} ms "
        f"(goal < 250 ms), {percentile(watched.last_spectator, 0.99) / percentile(relay.last_spectator, 0.99):.1f}x the relay's"
    )
    if len(alone.rounds) > 1:
        print(
            "seats' p99 by round, alone / watched ms: "
            + ", ".join(
                f"{percentile(a, 0.99) * 1000:.1f} / {percentile(w, 0.99) * 1000:.1f}"
                for a, w in zip(alone.rounds, watched.rounds, strict=True)
            )
        )
    troubled = {i: t for run in (alone, watched) for i, t in run.per_table.items()}
    for i in sorted(troubled):
        marks = " ".join(f"{run.name}: {run.per_table.get(i, {})}" for run in (alone, watched))
        print(f"  table {i} ({'HTML spectators' if i in html_tables else 'JSON only'}): {marks}")
    print("CPU, % of one core (2 cores = 200%):")
    for label in sorted(set().union(*(run.cpu for run in runs))):
        print(f"  {label:24} " + "   ".join(f"{r.name} {r.cpu.get(label, 0):6.1f}" for r in runs))
    for run in runs:
        for message, count in load._counts(run.errors):
            print(f"  {run.name} error x{count}: {message}")
    print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")


async def run(args) -> None:
    if urlparse(args.url).hostname not in ("127.0.0.1", "localhost"):
        raise SystemExit("bench/spectators.py runs against 127.0.0.1 only.")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    kinds = MIX if args.games == "mix" else ["war"]
    pool = concurrent.futures.ThreadPoolExecutor(8)
    loop = asyncio.get_running_loop()
    tables = await asyncio.gather(
        *(
            loop.run_in_executor(pool, make_table, args.url, kinds[i % len(kinds)])
            for i in range(args.tables)
        )
    )
    gate = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    base = args.url.replace("http://", "ws://").rstrip("/")
    alone = Run("alone")
    sockets = await asyncio.gather(
        *(
            open_socket(f"{base}/ws/rooms/{code}/?format=json", client, gate, alone)
            for code, clients, _ in tables
            for client in clients
        )
    )
    done = asyncio.Event()
    seat_lists, readers = [], []
    for i in range(len(tables)):
        pair = [Seat(ws, alone) for ws in sockets[2 * i : 2 * i + 2] if ws is not None]
        seat_lists.append(pair)
        readers += [asyncio.create_task(s.read(done)) for s in pair]
    await asyncio.gather(*(loop.run_in_executor(pool, deal, table) for table in tables))
    await asyncio.gather(
        *(s.wait_for(lambda s=s: s.state.get("type") == "state", 30) for p in seat_lists for s in p)
    )
    print(f"{len(tables)} tables dealt", flush=True)
    watched = Run("watched")
    for n in range(1, args.rounds + 1):
        # Both blocks of a round play each table on the same beat: which tables' turns meet
        # (in one server process, within a few milliseconds) sets a block's slowest moves, so
        # a round compares the same meetings with and without spectators.
        phases = [random.uniform(0, args.pace) for _ in tables]
        block = Run("alone")
        print(f"round {n}: alone for {args.seconds:g} s", flush=True)
        await play(args, tables, seat_lists, block, pool, phases)
        pooled(alone, block)
        watching, block = await watched_block(args, base, tables, seat_lists, pool, phases)
        print(
            f"round {n}: seats' p99 alone {ms(alone.rounds[-1], 0.99)} ms, watched "
            f"{ms(block.times, 0.99)} ms",
            flush=True,
        )
        pooled(watched, block)
        await asyncio.sleep(LEFT)  # the spectators' leaving is over before the next block
    settled = await asyncio.gather(*(load._settle(pair) for pair in seat_lists if len(pair) == 2))
    watched.errors += ["a table's seats ended on different views"] * settled.count(False)
    done.set()
    await asyncio.gather(*(ws.close() for ws in sockets if ws is not None))
    await asyncio.gather(*readers)
    await asyncio.gather(
        *(
            loop.run_in_executor(pool, client.post, f"/rooms/{code}/leave/")
            for code, clients, _ in tables
            for client in clients
        ),
        return_exceptions=True,
    )
    await asyncio.sleep(10)  # the ended games' bookkeeping runs its course
    relay = await relay_phase(args, [2 + len(w) for w in watching])
    html_tables = {i for i, w in enumerate(watching) if any(s.html for s in w)}
    report(args, [alone, watched, relay], html_tables, len(tables))
    pool.shutdown()


async def watched_block(args, base, tables, seat_lists, pool, phases):
    """One watched block: the spectators arrive, the tables play for --seconds, they leave.
    The spectators watch from a process of their own: a burst of a hundred views arriving in
    the seats' process would delay reading the seats' own, and the seats' times would measure
    this client instead of the server. time.perf_counter is the machine's monotonic clock, the
    same in both processes."""
    global WATCHING_PID
    block = Run("watched")
    each = args.watchers // len(tables)
    here, there = multiprocessing.get_context("spawn").Pipe()
    watcher = multiprocessing.get_context("spawn").Process(
        target=watch_from_here,
        args=(there, base, [code for code, _, _ in tables], each, round(each * args.html)),
    )
    watcher.start()
    WATCHING_PID = watcher.pid
    block.connections, block.handshake_failures, errors = await _answer(here)
    block.errors += errors
    print(f"{block.connections} spectators watching; playing for {args.seconds:g} s", flush=True)
    await play(args, tables, seat_lists, block, pool, phases)
    await asyncio.sleep(ANSWER_WITHIN / 2)  # the last moves reach the last spectators
    here.send("stop")
    watching, block.dropped = await _answer(here)
    watcher.join()
    WATCHING_PID = None
    spectator_delays(block, watching)
    return watching, block


def pooled(side: Run, block: Run) -> None:
    """A block's every sample added to its side's (CPU: weighted by the block's length)."""
    seconds = side.seconds + block.seconds
    for label in set(side.cpu) | set(block.cpu):
        used = side.cpu.get(label, 0.0) * side.seconds + block.cpu.get(label, 0.0) * block.seconds
        side.cpu[label] = used / seconds
    side.seconds = seconds
    side.rounds.append(block.times)
    for name in ("times", "moves", "last_spectator", "every_spectator", "errors"):
        getattr(side, name).extend(getattr(block, name))
    for name in ("missed", "lost", "dropped", "handshake_failures"):
        setattr(side, name, getattr(side, name) + getattr(block, name))
    side.connections = max(side.connections, block.connections)
    for i, counts in block.per_table.items():
        for what, count in counts.items():
            side.per_table.setdefault(i, {}).setdefault(what, 0)
            side.per_table[i][what] += count


async def _answer(connection):
    return await asyncio.get_running_loop().run_in_executor(None, connection.recv)


def watch_from_here(connection, base: str, codes: list[str], each: int, html_each: int) -> None:
    """The spectators' process: opens `each` watch sockets a table (`html_each` of them
    HTML), says how many once each has its first view, keeps what each saw until told to
    stop, and sends that back (with the sockets the server dropped)."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    asyncio.run(_watch(connection, base, codes, each, html_each))


async def _watch(connection, base: str, codes: list[str], each: int, html_each: int) -> None:
    opening = Run("watched")
    gate = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    watching: list[list[Spectator]] = []
    for code in codes:
        paths = [f"{base}/ws/rooms/{code}/watch/"] * html_each
        paths += [f"{base}/ws/rooms/{code}/watch/?format=json"] * (each - html_each)
        opened = await asyncio.gather(*(open_socket(p, None, gate, opening) for p in paths))
        watching.append(
            [
                Spectator(ws, "format=json" not in p)
                for ws, p in zip(opened, paths, strict=True)
                if ws
            ]
        )
    spectators = [s for table in watching for s in table]
    done, dropped = asyncio.Event(), [0]
    readers = [asyncio.create_task(s.read(done, dropped)) for s in spectators]
    deadline = time.perf_counter() + 60
    while any(not s.seen for s in spectators) and time.perf_counter() < deadline:
        await asyncio.sleep(0.5)  # every spectator's first view
    await asyncio.sleep(3)  # and the tables' watching counts settle
    connection.send((len(spectators), opening.handshake_failures, opening.errors))
    await _answer(connection)  # "stop"
    done.set()
    await asyncio.gather(*(s.ws.close() for s in spectators))
    await asyncio.gather(*readers)
    connection.send((watching, dropped[0]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8250")
    parser.add_argument("--tables", type=int, default=10, help="tables (<= 100)")
    parser.add_argument("--watchers", type=int, default=1000, help="spectators in all (<= 5000)")
    parser.add_argument("--html", type=float, default=0.2, help="share of HTML spectators")
    parser.add_argument("--games", choices=["war", "mix"], default="war")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a table's moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase (<= 600)")
    parser.add_argument(
        "--rounds", type=int, default=1, help="alone and watched blocks, alternating (<= 20)"
    )
    parser.add_argument(
        "--server-dir", default=load.SERVER_DIR, help="the checkout make serve runs in (for CPU)"
    )
    args = parser.parse_args()
    load.SERVER_DIR = str(Path(args.server_dir).resolve())
    if not (
        1 <= args.tables <= 100
        and 0 <= args.watchers <= 5000
        and 0 <= args.html <= 1
        and 1 <= args.seconds <= 600
        and args.pace >= 0.25
        and 1 <= args.rounds <= 20
    ):
        raise SystemExit(
            "Bounded: 1-100 tables, 0-5000 spectators, 1-600 s, pace >= 0.25 s, 1-20 rounds."
        )
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
