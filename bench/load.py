"""Many live tables at once, against `make serve`, beside the bare Channels relay.

    ECHO_SOCKET=1 make serve PORT=8250                   # one terminal
    .venv/bin/python bench/load.py --tables 50 [--games war|mix] [--pace 2] [--seconds 60]

Opens N rooms of two guests each (War, or with --games mix a third each of War, Poker and
Blackjack), connects both seats' JSON sockets, deals a game at each table and plays: once every
--pace seconds per table, one seat the game awaits sends an action (War's flip; otherwise a
legal action, never a fold). The round trip is the time from sending {"type": "act"} to that
client receiving its new view; an action with no answer in 10 s is "lost". Every table's
other seat must reach the same last view at the end, or the table counts as "missing".

Then everyone leaves the tables, and in the same run, through the same server and Redis, as
many connections in pairs (one pair per table) do a bare Channels group broadcast at the same
pace (/ws/echo/, routed only with ECHO_SOCKET=1): the relay floor. Prints actions/s, round trip p50/p99,
errors, dropped connections, lost actions, missing views, each server process's CPU (% of one core) in each
phase, and the ratios game/relay. Then what one action of the game phase cost: each process's
CPU, and with the server's database and Redis (--database-url, --redis-url, default
DATABASE_URL and REDIS_URL) its WAL bytes, commits, rows, the game tables' growth, Redis's
commands and bytes, and the socket messages and bytes the clients received (docs/capacity.md
derives from these). With the game phase's round trips it prints them by game and a seat's
first move after a deal apart; for each phase its timed spans (epoch seconds, to line up with
the servers' logs) and how late this client's own loop woke from a 2 ms sleep (a task that
wakes 500 times a second in both phases alike: the client's CPU figures include it). Only
127.0.0.1; bounded by --seconds per phase.

With --rounds N (2 or more) both phases' sockets are open from the start and their timed
windows take turns, N of each, game first then relay first: the machine's speed drifts from
minute to minute, and a phase measured a minute after the other compared the move with a
relayed message on another machine. With --idle S, each phase's CPU with its sockets open and
nothing sent is measured first, for S seconds. Each act carries an id, as a program that
retries sends it, so the mover is sent an ack frame before its view; with --no-ids the acts
go as the site's own table page sends them, without.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import gc
import itertools
import json
import math
import os
import random
import resource
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.e2e.client import SiteClient  # noqa: E402

MIX = ["war", "poker", "blackjack"]
AVOID = {"fold", "surrender"}  # keep games going: a fold ends a hand at once
ANSWER_WITHIN = 10.0  # seconds: an action unanswered by then is lost
SLOW = 0.25  # seconds: a round trip this long is a slow one, timed to the second it began
HANDSHAKES_AT_ONCE = 25  # clients connect in a ramp, as real players arrive


class Timed:
    """A phase's timed part, with this client's garbage collection off (as timeit does): a
    collection pauses every table's clock at once (a full one took 166 ms at 500 tables), and
    the game phase, holding every table's last state, paid far more of them than the relay's.
    What the cycles left meanwhile is collected at the end."""

    def __enter__(self):
        gc.disable()

    def __exit__(self, *exc):
        gc.enable()
        gc.collect()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


@dataclass
class Phase:
    name: str
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dropped: int = 0
    lost: int = 0  # actions (or relay messages) the sender never heard back about
    missing: int = 0  # tables whose other seat never got the last view (relay: messages)
    handshake_failures: int = 0
    connections: int = 0
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # % of one core over its windows
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    idle: dict[str, float] = field(default_factory=dict)  # CPU with every socket open, no traffic
    messages: int = 0  # WebSocket messages the clients received
    received: int = 0  # and their bytes
    costs: dict[str, float] = field(default_factory=dict)  # PostgreSQL's and Redis's counters
    # The game phase's round trips by the table's game, and apart those of a seat's first move
    # after a deal (the server may take it on a thread: its view of the new game is not built).
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    first_after_deal: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)  # this client's loop waking late, s
    windows: list[tuple[float, float]] = field(default_factory=list)  # timed spans, epoch s
    slow: list[float] = field(default_factory=list)  # epoch s at which each slow round trip began

    def rate(self) -> float:
        return len(self.times) / self.seconds if self.seconds else 0.0

    def timed(self, took: float) -> None:
        """One round trip of ``took`` seconds, just answered."""
        self.times.append(took)
        if took >= SLOW:
            self.slow.append(time.time() - took)


# ---- CPU of the server's processes -----------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")
WATCHED = ("daphne", "cubiccards.server", "celery", "nginx", "socat")


def _stat(pid: int) -> tuple[str, int, float]:
    """(name, parent pid, CPU seconds used) of a process."""
    text = Path(f"/proc/{pid}/stat").read_text()
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


SERVER_DIR = str(ROOT)  # where make serve runs (--server-dir): its processes' working folder


def _label(pid: int) -> str | None:
    """A readable name for a server process started in SERVER_DIR (daphne, celery
    worker/beat, nginx), or for the shared PostgreSQL and Redis; None for anything else."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        name = _stat(pid)[0]
    except (OSError, ValueError):
        return None
    if name.startswith("postgres") or argv[0].startswith("postgres"):
        return "postgres (shared)"
    if name.startswith("redis-server"):
        return "redis (shared)"
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None
    line = " ".join(argv)
    if cwd != SERVER_DIR or not any(w in line for w in WATCHED):
        return None
    if "daphne" in line or "cubiccards.server" in line:  # the site's daphne (python -m ...)
        # On several hosts (bench/several_hosts.py) each host's address tells them apart.
        address = argv[argv.index("-b") + 1] if "-b" in argv else "127.0.0.1"
        address = "" if address == "127.0.0.1" else address
        return f"daphne {address}:{argv[argv.index('-p') + 1]}" if "-p" in argv else "daphne"
    if argv[0].endswith("socat"):  # several_hosts.py's links to PostgreSQL and Redis
        return "socat (links)"
    if "celery" in line:
        return "celery beat" if "beat" in argv else "celery worker"
    return "nginx"


def cpu_sample() -> dict[int, tuple[str, float]]:
    sample = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            label = _label(int(entry))
            if label:
                try:
                    sample[int(entry)] = (label, _stat(int(entry))[2])
                except OSError:
                    pass
    sample[os.getpid()] = ("this bench (client)", _stat(os.getpid())[2])
    return sample


def cpu_used(before, after) -> dict[str, float]:
    """CPU seconds per label (processes with the same label add up)."""
    used: dict[str, float] = {}
    for pid, (label, cpu) in after.items():
        # A process that started during the phase (a server's new database connection) used
        # all its CPU in it.
        start = before[pid][1] if pid in before else 0.0
        used[label] = used.get(label, 0.0) + cpu - start
    return used


def cpu_between(before, after, seconds: float) -> dict[str, float]:
    """% of one core per label."""
    return {label: cpu / seconds * 100 for label, cpu in cpu_used(before, after).items()}


async def _wake_ups(late: list[float], nap: float = 0.002) -> None:
    """How late this client's own event loop wakes from a short sleep: a stall of the client
    (its threads dealing, its own work) is in every round trip it times at that moment."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(nap)
        late.append(time.perf_counter() - started - nap)


class Window:
    """One timed window of a phase (as Timed), whose seconds, server CPU and counters add up
    to the phase's."""

    def __init__(self, args, phase: Phase):
        self.args, self.phase = args, phase

    def __enter__(self):
        self.probe = asyncio.get_running_loop().create_task(_wake_ups(self.phase.late))
        gc.disable()
        self.counted = counters(self.args)
        self.messages = (self.phase.messages, self.phase.received)
        self.before, self.started = cpu_sample(), time.perf_counter()
        self.wall = time.time()

    def __exit__(self, *exc):
        self.probe.cancel()
        phase = self.phase
        phase.windows.append((self.wall, time.time()))
        phase.seconds += time.perf_counter() - self.started
        for label, cpu in cpu_used(self.before, cpu_sample()).items():
            phase.cpu_seconds[label] = phase.cpu_seconds.get(label, 0.0) + cpu
        phase.cpu = {k: v / phase.seconds * 100 for k, v in phase.cpu_seconds.items()}
        after = counters(self.args)
        for name, total in after.items():
            phase.costs[name] = phase.costs.get(name, 0.0) + total - self.counted[name]
        for name, count, was in zip(
            ("socket messages to clients", "socket bytes to clients"),
            (phase.messages, phase.received),
            self.messages,
            strict=True,
        ):
            phase.costs[name] = phase.costs.get(name, 0.0) + count - was
        gc.enable()
        gc.collect()


# ---- the tables --------------------------------------------------------------------------------


# ---- what a move writes: PostgreSQL's and Redis's own counters --------------------------------


def counters(args) -> dict[str, float]:
    """PostgreSQL's WAL position, commits, rows and the game tables' size, and Redis's commands
    and network bytes, for the server's database and Redis (--database-url, --redis-url);
    empty where one is not given."""
    found: dict[str, float] = {}
    if args.database_url:
        import psycopg

        with psycopg.connect(args.database_url, autocommit=True) as db:
            found["wal bytes"] = db.execute(
                "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')"
            ).fetchone()[0]
            row = db.execute(
                "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database"
                " WHERE datname = current_database()"
            ).fetchone()
            found["commits"], found["rows inserted"], found["rows updated"] = row
            found["game tables' bytes"] = db.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                " WHERE c.relkind = 'r' AND c.relname LIKE 'gameplay_%'"
            ).fetchone()[0]
    if args.redis_url:
        import redis

        info = redis.Redis.from_url(args.redis_url).info("stats")
        found["redis commands"] = info["total_commands_processed"]
        found["redis reads (round trips)"] = info["total_reads_processed"]
        found["redis bytes in"] = info["total_net_input_bytes"]
        found["redis bytes out"] = info["total_net_output_bytes"]
    return {k: float(v) for k, v in found.items()}


def make_table(url: str) -> tuple[str, list[SiteClient]]:
    host, guest = SiteClient(url), SiteClient(url)
    code = host.create_room()
    guest.post("/rooms/join/", {"code": code})
    return code, [host, guest]


def deal(table) -> None:
    """The host starts a game (a page request, as a person clicks Start or Play again)."""
    code, (host, _guest), kind = table
    host.post(f"/rooms/{code}/start/", {"game": kind, "seats": "2"})


class Seat:
    """One JSON socket at a table and the latest state it was sent."""

    def __init__(self, ws, phase: Phase):
        self.ws, self.phase = ws, phase
        self.state: dict = {}
        self.changed = asyncio.Event()
        self.answers: dict[str, dict] = {}
        self.closed = False

    async def read(self, done: asyncio.Event):
        try:
            async for raw in self.ws:
                self.phase.messages += 1
                self.phase.received += len(raw)
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state" and (
                    message["game_id"] != self.state.get("game_id")
                    or message["seq"] >= self.state.get("seq", -1)
                ):
                    self.state = message
                elif kind == "lobby":
                    self.state = message
                elif kind == "error":
                    if message.get("id"):
                        self.answers[message["id"]] = message
                    else:
                        self.phase.errors.append(message["message"])
                self.changed.set()
        except ConnectionClosed:
            pass
        self.closed = True
        if not done.is_set():
            self.phase.dropped += 1
        self.changed.set()

    async def wait_for(self, test, timeout: float) -> bool:
        deadline = time.perf_counter() + timeout
        while not test():
            self.changed.clear()
            if self.closed:
                return False
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True


class Beat:
    """A table's own rhythm: a turn every `pace` seconds from a random start (tables in life
    are out of step), each due a pace after the last one was due, not after it ran. Counted
    from when it ran, one pause of this client (a garbage collection) woke every table due
    during it at once, and they stayed in step for the rest of the run, all sending together
    every pace. A turn missed altogether (an answer slower than the pace) is skipped, not
    made up in a burst."""

    def __init__(self, pace: float, phase: float | None = None):
        """`phase`: seconds from now to the first turn (by default a random share of a pace)."""
        self.pace = pace
        self.at = time.perf_counter() + (random.uniform(0, pace) if phase is None else phase)

    async def wait(self, stop: float) -> bool:
        """Sleep until this table's next turn; False once that turn would be past `stop`."""
        now = time.perf_counter()
        if self.at < now:
            self.at += math.ceil((now - self.at) / self.pace) * self.pace
        if self.at >= stop:
            return False
        await asyncio.sleep(self.at - now)
        self.at += self.pace
        return True


def pick(state: dict, kind: str) -> dict:
    legal = state["legal"]
    if kind == "war":
        return {"type": "flip"}
    choices = [a for a in legal if a["type"] not in AVOID] or legal
    return random.choice(choices)


async def play_table(table, seats: list[Seat], args, phase: Phase, stop: float, ids, pool):
    kind = table[2]
    beat = Beat(args.pace)
    dealt = False  # the next move is the first after a deal
    while await beat.wait(stop):
        state = max((s.state for s in seats), key=lambda st: st.get("seq", -1))
        if state.get("type") == "state" and state.get("over"):
            game_id = state["game_id"]
            await asyncio.get_running_loop().run_in_executor(pool, deal, table)
            await seats[0].wait_for(lambda g=game_id: seats[0].state.get("game_id") != g, 10)
            dealt = True
        elif state.get("type") == "state" and state.get("to_act"):
            seat = seats[state["to_act"][0]]
            if seat.closed:
                return
            seq = seat.state.get("seq", -1)
            if seat.state.get("game_id") == state["game_id"] and seat.state.get("legal"):
                action_id = f"a{next(ids)}"
                act = {"type": "act", "action": pick(seat.state, kind), "seq": seq}
                if not args.no_ids:
                    act["id"] = action_id  # as a program that retries sends it: an ack comes
                started = time.perf_counter()
                await seat.ws.send(json.dumps(act))
                arrived = await seat.wait_for(
                    lambda s=seat, q=seq, a=action_id: s.state.get("seq", -1) > q or a in s.answers,
                    ANSWER_WITHIN,
                )
                if action_id in seat.answers:
                    phase.errors.append(seat.answers.pop(action_id)["message"])
                elif arrived:
                    took = time.perf_counter() - started
                    phase.timed(took)
                    phase.by_kind.setdefault(kind, []).append(took)
                    if dealt:
                        phase.first_after_deal.append(took)
                else:
                    phase.lost += 1
                dealt = False


async def open_socket(url: str, client: SiteClient | None, gate: asyncio.Semaphore, phase: Phase):
    headers = {"Origin": urlparse(url)._replace(path="").geturl()}
    if client is not None:
        headers["Cookie"] = "; ".join(f"{c.name}={c.value}" for c in client.cookies)
    async with gate:
        try:
            return await connect(url, additional_headers=headers, open_timeout=20, max_size=None)
        except Exception as exc:  # noqa: BLE001 -- any failed handshake counts, whatever it was
            phase.handshake_failures += 1
            phase.errors.append(f"handshake: {type(exc).__name__}: {exc}"[:200])
            return None


@dataclass
class Tables:
    """The game phase's tables, their seats' sockets open and a game dealt at each."""

    phase: Phase
    sockets: list
    seats: list[list[Seat]]
    readers: list[asyncio.Task]
    done: asyncio.Event


async def open_tables(args, tables, pool) -> Tables:
    phase = Phase("game")
    gate = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    ws_base = args.url.replace("http://", "ws://").rstrip("/")
    sockets = await asyncio.gather(
        *(
            open_socket(f"{ws_base}/ws/rooms/{code}/?format=json", client, gate, phase)
            for code, clients, *_ in tables
            for client in clients
        )
    )
    phase.connections = sum(ws is not None for ws in sockets)
    done = asyncio.Event()
    seat_lists, readers = [], []
    for i in range(len(tables)):
        pair = [Seat(ws, phase) for ws in sockets[2 * i : 2 * i + 2] if ws is not None]
        seat_lists.append(pair)
        readers += [asyncio.create_task(s.read(done)) for s in pair]
    # Deal once everyone is at the table: a seat whose person has no socket is handed to a
    # computer player after the reconnect grace, and dealing 500 tables takes longer than that.
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(pool, deal, table) for table in tables))
    await asyncio.gather(
        *(s.wait_for(lambda s=s: s.state.get("type") == "state", 30) for p in seat_lists for s in p)
    )
    print(f"game phase: {phase.connections} sockets at the tables", flush=True)
    return Tables(phase, sockets, seat_lists, readers, done)


async def play_tables(args, tables, at: Tables, seconds: float, ids, pool) -> None:
    """Every table plays for `seconds`, timed."""
    with Window(args, at.phase):
        stop = time.perf_counter() + seconds
        await asyncio.gather(
            *(
                play_table(table, pair, args, at.phase, stop, ids, pool)
                for table, pair in zip(tables, at.seats, strict=True)
                if len(pair) == 2
            )
        )


async def close_tables(at: Tables) -> None:
    # Both seats of a table end on the same view: the other seat's broadcast arrived too.
    settled = await asyncio.gather(*(_settle(pair) for pair in at.seats if len(pair) == 2))
    at.phase.missing += settled.count(False)
    at.done.set()
    await asyncio.gather(*(ws.close() for ws in at.sockets if ws is not None))
    await asyncio.gather(*at.readers)


async def measure_idle(args, phase: Phase) -> None:
    """The server's CPU with every socket of the phase open and nothing sent (--idle seconds,
    after a pause for what opening them set going): what the open sockets cost by themselves
    (heartbeats, pings), which the phase's figure includes."""
    if not args.idle:
        return
    await asyncio.sleep(3)
    with Timed():
        before, started = cpu_sample(), time.perf_counter()
        await asyncio.sleep(args.idle)
        phase.idle = cpu_between(before, cpu_sample(), time.perf_counter() - started)


async def _settle(pair: list[Seat], timeout: float = 5.0) -> bool:
    """Whether every seat reaches the latest view any of them has (game, seq) in time."""

    def where(seat: Seat) -> tuple[int, int]:
        return seat.state.get("game_id", 0), seat.state.get("seq", -1)

    last, deadline = max(where(s) for s in pair), time.perf_counter() + timeout
    while any(where(s) < last for s in pair):
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


@dataclass
class Relay:
    """The relay phase's pairs of echo sockets, each pair in a group of its own."""

    phase: Phase
    sockets: list
    inboxes: list[asyncio.Queue]
    received: list[int]
    sent: list[int]
    listeners: list[asyncio.Task]
    done: asyncio.Event


async def open_relay(args, pairs: int) -> Relay:
    """The floor: pairs of sockets in a group each; one of a pair sends at the table's pace
    and both receive it through group_send, as a table's two seats hear of an action."""
    phase = Phase("relay")
    gate = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    ws_base = args.url.replace("http://", "ws://").rstrip("/")
    sockets = await asyncio.gather(
        *(
            open_socket(f"{ws_base}/ws/echo/?group=t{i}", None, gate, phase)
            for i in range(pairs)
            for _ in range(2)
        )
    )
    phase.connections = sum(ws is not None for ws in sockets)
    if phase.connections == 0:
        raise SystemExit("No echo socket: start the server with ECHO_SOCKET=1.")
    relay = Relay(
        phase,
        sockets,
        [asyncio.Queue() for _ in sockets],
        [0] * len(sockets),
        [0] * pairs,
        [],
        asyncio.Event(),
    )

    async def listen(i, ws, inbox: asyncio.Queue):
        try:
            async for raw in ws:
                relay.received[i] += 1
                await inbox.put(raw)
        except ConnectionClosed:
            pass
        if not relay.done.is_set():
            phase.dropped += 1

    relay.listeners = [
        asyncio.create_task(listen(i, ws, relay.inboxes[i]))
        for i, ws in enumerate(sockets)
        if ws is not None
    ]
    await asyncio.sleep(0.5)
    print(f"relay phase: {phase.connections} sockets", flush=True)
    return relay


def _paired(relay: Relay) -> list[int]:
    """The pairs whose two sockets are open."""
    return [
        i
        for i in range(len(relay.sent))
        if relay.sockets[2 * i] is not None and relay.sockets[2 * i + 1] is not None
    ]


async def relay_for(args, relay: Relay, seconds: float) -> None:
    """Every pair relays for `seconds`, timed."""
    phase = relay.phase

    async def pace(i, stop):
        ws, inbox = relay.sockets[2 * i], relay.inboxes[2 * i]
        beat = Beat(args.pace)
        while await beat.wait(stop):
            relay.sent[i] += 1
            payload = json.dumps({"table": i, "n": relay.sent[i]})
            started = time.perf_counter()
            await ws.send(payload)
            try:
                while await asyncio.wait_for(inbox.get(), ANSWER_WITHIN) != payload:
                    pass
                phase.timed(time.perf_counter() - started)
            except TimeoutError:
                phase.lost += 1

    with Window(args, phase):
        stop = time.perf_counter() + seconds
        await asyncio.gather(*(pace(i, stop) for i in _paired(relay)))


async def close_relay(relay: Relay) -> None:
    await asyncio.sleep(1.0)
    # The other socket of each pair heard every message too.
    relay.phase.missing += sum(
        max(0, relay.sent[i] - relay.received[2 * i + 1]) for i in _paired(relay)
    )
    relay.done.set()
    await asyncio.gather(*(ws.close() for ws in relay.sockets if ws is not None))
    await asyncio.gather(*relay.listeners)


def report(phases: list[Phase], args, tables: int) -> None:
    print(
        f"\n{tables} tables x 2 connections, one action per table every {args.pace:g} s "
        f"(aim {tables / args.pace:.0f}/s), {args.seconds:g} s per phase, games: {args.games}"
    )
    print(
        f"{'':8} {'conns':>6} {'actions':>8} {'per s':>7} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'errors':>7} {'dropped':>8} {'lost':>5} {'missing':>8} {'handshake fail':>15}"
    )
    for p in phases:
        print(
            f"{p.name:8} {p.connections:>6} {len(p.times):>8} {p.rate():>7.1f} "
            f"{percentile(p.times, 0.5) * 1000:>8.1f} {percentile(p.times, 0.99) * 1000:>8.1f} "
            f"{len(p.errors):>7} {p.dropped:>8} {p.lost:>5} {p.missing:>8} {p.handshake_failures:>15}"
        )
    relay, game = phases
    print(
        f"ratio game/relay: p50 {percentile(game.times, 0.5) / percentile(relay.times, 0.5):.1f}x, "
        f"p99 {percentile(game.times, 0.99) / percentile(relay.times, 0.99):.1f}x"
    )
    if len(game.by_kind) > 1 or game.first_after_deal:
        parts = sorted(game.by_kind.items()) + [("first after a deal", game.first_after_deal)]
        for name, times in parts:
            if times:
                print(
                    f"  game, {name:20} {len(times):>6} actions  p50 "
                    f"{percentile(times, 0.5) * 1000:6.1f} ms  p99 {percentile(times, 0.99) * 1000:6.1f} ms"
                )
    for p in phases:  # to line up with the servers' own logs
        spans = ", ".join(f"{a:.1f}-{b:.1f}" for a, b in p.windows)
        print(f"  {p.name}: timed from-to (epoch s) {spans}")
        if p.slow:
            # Stalls cluster in a few seconds; spread out, the server's core is just full.
            by_second = Counter(int(t) for t in p.slow)
            seconds = ", ".join(f"{t} x{n}" for t, n in sorted(by_second.most_common(6)))
            print(
                f"  {p.name}: {len(p.slow)} round trips of {SLOW * 1000:.0f} ms or more began in "
                f"{len(by_second)} different seconds; the most at (epoch s) {seconds}"
            )
        if p.late:
            print(
                f"  {p.name}: this client's loop woke late p50 {percentile(p.late, 0.5) * 1000:.1f} ms,"
                f" p99 {percentile(p.late, 0.99) * 1000:.1f} ms, most {max(p.late) * 1000:.1f} ms"
            )
    print("CPU, % of one core (2 cores = 200%):")
    labels = sorted(set(relay.cpu) | set(game.cpu))
    for label in labels:
        print(
            f"  {label:24} relay {relay.cpu.get(label, 0):6.1f}   game {game.cpu.get(label, 0):6.1f}"
        )
    if relay.idle and game.idle:
        print("CPU with every socket open and nothing sent (--idle), % of one core:")
        for label in labels:
            print(
                f"  {label:24} relay {relay.idle.get(label, 0):6.1f}"
                f"   game {game.idle.get(label, 0):6.1f}"
            )
    daphnes = [label for label in labels if label.startswith("daphne")]
    if daphnes and relay.times and game.times:
        # CPU a move against CPU a relayed message (each phase's messages at its own rate).
        def per(p: Phase, cpu: dict[str, float]) -> float:
            return sum(cpu.get(label, 0) for label in daphnes) / p.rate()

        line = f"daphne CPU a move / a relayed message: {per(game, game.cpu) / per(relay, relay.cpu):.2f}x"
        if relay.idle and game.idle:
            beyond = {k: game.cpu.get(k, 0) - game.idle.get(k, 0) for k in daphnes}
            floor = {k: relay.cpu.get(k, 0) - relay.idle.get(k, 0) for k in daphnes}
            line += f", beyond each phase's idle {per(game, beyond) / per(relay, floor):.2f}x"
        print(line)
    for p in phases:
        for message, count in _counts(p.errors):
            print(f"  {p.name} error x{count}: {message}")
    if game.times:
        # What one action costs, for docs/capacity.md: CPU in ms of a core, the rest in units.
        actions = len(game.times)
        print(
            f"per action, game phase ({actions} actions; the computers' and beat's work included):"
        )
        for label in labels:
            ms = game.cpu.get(label, 0) / 100 * game.seconds * 1000 / actions
            print(f"  {label + ' CPU ms':36} {ms:8.2f}")
        for name, total in game.costs.items():
            print(f"  {name:36} {total / actions:8.1f}")
    print("this client's garbage collection: off while a phase is timed")
    print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")


def _counts(messages: list[str]) -> list[tuple[str, int]]:
    return Counter(messages).most_common(8)


async def run(args) -> None:
    host = urlparse(args.url).hostname
    if host not in ("127.0.0.1", "localhost"):
        raise SystemExit("bench/load.py runs against 127.0.0.1 only.")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets
    kinds = MIX if args.games == "mix" else ["war"]
    pool = concurrent.futures.ThreadPoolExecutor(8)
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    tables = await asyncio.gather(
        *(loop.run_in_executor(pool, make_table, args.url) for i in range(args.tables))
    )
    tables = [(code, clients, kinds[i % len(kinds)]) for i, (code, clients) in enumerate(tables)]
    print(f"{args.tables} rooms opened in {time.perf_counter() - started:.1f} s", flush=True)
    ids = itertools.count()

    async def leave():
        await asyncio.gather(
            *(
                loop.run_in_executor(pool, client.post, f"/rooms/{code}/leave/")
                for code, clients, _ in tables
                for client in clients
            ),
            return_exceptions=True,
        )

    if args.rounds == 1:
        # The tables first, then everyone leaves (the games end) and the relay runs on a quiet
        # server: no table is still being played by computer players.
        at = await open_tables(args, tables, pool)
        await measure_idle(args, at.phase)
        await play_tables(args, tables, at, args.seconds, ids, pool)
        await close_tables(at)
        await leave()
        await asyncio.sleep(10)  # the ended games' bookkeeping (stats, Kudos) runs its course
        relay = await open_relay(args, args.tables)
        await measure_idle(args, relay.phase)
        await relay_for(args, relay, args.seconds)
        await close_relay(relay)
    else:
        # Both open at once, and their windows in turn (game first, then relay first, ...):
        # the machine's speed, which drifts from minute to minute, is the same for both.
        at = await open_tables(args, tables, pool)
        relay = await open_relay(args, args.tables)
        await measure_idle(args, at.phase)
        relay.phase.idle = at.phase.idle
        window = args.seconds / args.rounds
        for i in range(args.rounds):
            turns = ["game", "relay"] if i % 2 == 0 else ["relay", "game"]
            for turn in turns:
                if turn == "game":
                    await play_tables(args, tables, at, window, ids, pool)
                else:
                    await relay_for(args, relay, window)
        await close_tables(at)
        await close_relay(relay)
        await leave()
    game = at.phase
    relay = relay.phase
    report([relay, game], args, args.tables)
    pool.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8250")
    parser.add_argument("--tables", type=int, default=50, help="tables (<= 1000)")
    parser.add_argument("--games", choices=["war", "mix"], default="war")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a table's moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase (<= 600)")
    parser.add_argument(
        "--server-dir", default=str(ROOT), help="the checkout make serve runs in (for CPU)"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL"),
        help="the server's database, for its writes a move (default: DATABASE_URL)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="2 or more: both phases' sockets open at once and their windows in turn, "
        "--seconds in all per phase (1: the game, then everyone leaves, then the relay)",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=0.0,
        help="seconds of each phase's sockets open with nothing sent, measured first",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL"),
        help="the server's Redis, for its commands and bytes a move (default: REDIS_URL)",
    )
    parser.add_argument(
        "--no-ids",
        action="store_true",
        help="acts without an id, as the site's own table page sends them (no ack frame)",
    )
    args = parser.parse_args()
    global SERVER_DIR
    SERVER_DIR = str(Path(args.server_dir).resolve())
    if not 1 <= args.tables <= 1000 or not 1 <= args.seconds <= 600 or args.pace < 0.25:
        raise SystemExit("Bounded: 1-1000 tables, 1-600 s per phase, pace of 0.25 s or more.")
    if not 1 <= args.rounds <= 20:
        raise SystemExit("Bounded: 1-20 rounds.")
    if not 0 <= args.idle <= 120:
        raise SystemExit("Bounded: --idle of 0-120 s.")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
