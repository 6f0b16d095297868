"""One arena on the real stack: JSON clients over nginx, daphne, a Celery worker and beat.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cubiccards REDIS_URL=redis://127.0.0.1:6379/8 \\
        nice -n 10 .venv/bin/python bench/arena_stack.py --players 100 [--seconds 240] \\
        [--port 8270] [--daphnes 2] [--fill-after 10] [--think 1.0] [--kind crazy8] [--keep]

Starts the production shape (scripts/serve.sh: --daphnes daphne processes behind nginx on
--port, a Celery worker and beat) on a database of its own (``<name>_arenabench``, created
fresh, dropped at the end unless --keep) and REDIS_URL's database (emptied first: give it one
nobody else uses), with the arena clock sped up through the environment: the computers' wait
(ARENA_FILL_AFTER, --fill-after) and an arena of --seconds made by this script, starting a few
seconds after everyone has joined.

Each of --players people signs up over HTTP (ten to an address, 127.0.0.2 and up, as the
sign-up limit counts them), joins the arena (POST, ?format=json) and follows its JSON socket;
when the socket says they are seated they open their table's JSON socket and play as a person:
on their turn, after a pause of about --think seconds, a legal action taken from the view the
server sent (a card to play rather than a draw where there is one). Computer players fill a
table only after the wait the arena page shows.

Prints: pairing delay p50/p99 from free to seated (from the database's times, and as the
clients saw it), games played (with computers), players ever at two tables at once (must be
0), prize entries against prize-winners, ``manage.py verify_ledger``, and each process's CPU
from /proc. Stops everything it started (serve.sh stops its children).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.parse
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from own_database import own_database, release_connections  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
PER_ADDRESS = 10  # sign-ups an address may make in an hour (infra.limits)
RETRIES = 8
PASSIVE = {"draw", "pass"}  # taken only when nothing else is legal


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# ---- processes and their CPU --------------------------------------------------------------


def _stat(pid: int) -> tuple[str, int, float]:
    text = Path(f"/proc/{pid}/stat").read_text()
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def _cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def descendants(root: int) -> list[int]:
    children = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children[_stat(int(entry.name))[1]].append(int(entry.name))
            except (OSError, ValueError):
                pass
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def label(pid: int, database: str) -> str | None:
    """What a process is: one of ours (under serve.sh), or our database's PostgreSQL backends,
    or the shared Redis."""
    try:
        line = _cmdline(pid)
        name = _stat(pid)[0]
    except (OSError, ValueError):
        return None
    if "cubiccards.server" in line:
        return "daphne :" + line.split(" -p ")[1].split()[0]
    if "celery" in line and " beat" in line:
        return "celery beat"
    if "celery" in line and " worker" in line:
        return "celery worker (+ its pool)"
    if name == "nginx":
        return "nginx"
    if name.startswith("postgres") and f" {database} " in line + " ":
        return f"postgres backends of {database}"
    if name.startswith("redis-server"):
        return "redis-server (shared by the machine)"
    return None


def cpu_by_label(root: int, database: str) -> dict[str, float]:
    pids = set(descendants(root))
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name = _stat(int(entry.name))[0]
            except (OSError, ValueError):
                continue
            if name.startswith(("postgres", "redis-server")):
                pids.add(int(entry.name))
    totals: dict[str, float] = defaultdict(float)
    for pid in pids:
        what = label(pid, database)
        if what is not None:
            try:
                totals[what] += _stat(pid)[2]
            except (OSError, ValueError):
                pass
    return dict(totals)


# ---- HTTP as a browser would, from an address of its own ---------------------------------------


class Http:
    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60, source_address=(self.source, 0)
        )
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if method == "POST":
            body = urllib.parse.urlencode(form or {})
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
                "Referer": f"http://127.0.0.1:{self.port}/",
            }
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                for key, morsel in SimpleCookie(header).items():
                    self.cookies[key] = morsel.value
            return response.status, response.read()
        finally:
            conn.close()


# ---- one person ------------------------------------------------------------------------------


class Person:
    def __init__(self, index: int, port: int, args, rng: random.Random):
        self.name = f"arena{index:04d}"
        self.source = f"127.0.0.{2 + index // PER_ADDRESS}"
        self.http = Http(port, self.source)
        self.port, self.args, self.rng = port, args, rng
        self.games: list[int] = []
        self.free_at: float | None = None  # when this client last saw itself free
        self.seen_delays: list[float] = []
        self.two_tables = False
        self.errors: list[str] = []
        self.actions = 0
        self.retries = 0  # sockets refused or dropped, opened again

    def sign_up(self) -> None:
        self.http.request("GET", "/accounts/signup/")
        password = "a long enough pw 1"
        status, body = self.http.request(
            "POST",
            "/accounts/signup/",
            {"username": self.name, "password1": password, "password2": password},
        )
        if status != 302 or "sessionid" not in self.http.cookies:
            raise RuntimeError(f"{self.name} could not sign up: {status} {body[:200]!r}")

    def join(self, arena_id: int) -> None:
        status, body = self.http.request("POST", f"/arenas/{arena_id}/join/?format=json")
        if status != 200:
            raise RuntimeError(f"{self.name} could not join: {status} {body[:200]!r}")

    async def _open(self, path: str):
        """A socket, tried again as a person reloads when the server refuses or drops it."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        for attempt in range(RETRIES):
            try:
                return await connect(
                    f"ws://127.0.0.1:{self.port}{path}",
                    additional_headers={
                        "Cookie": cookie,
                        "Origin": f"http://127.0.0.1:{self.port}",
                    },
                    local_addr=(self.source, 0),
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**23,
                )
            except (InvalidHandshake, OSError, TimeoutError) as exc:
                self.retries += 1
                last = exc
                await asyncio.sleep(1 + attempt)
        raise RuntimeError(f"{path}: no connection after {RETRIES} tries ({last!r})")

    async def follow(self, arena_id: int, done: asyncio.Event) -> None:
        """The arena page as a program: wait to be seated, play the table, again until the end."""
        table: asyncio.Task | None = None
        arena = None
        try:
            while not done.is_set():
                if arena is None:
                    arena = await self._open(f"/ws/arenas/{arena_id}/?format=json")
                try:
                    raw = await asyncio.wait_for(arena.recv(), timeout=5)
                except TimeoutError:
                    continue
                except ConnectionClosed:
                    self.retries += 1
                    arena = None
                    continue
                state = json.loads(raw)
                if state.get("type") != "arena":
                    continue
                if state["status"] == "live" and self.free_at is None and not self.games:
                    self.free_at = time.monotonic()
                playing = (state.get("you") or {}).get("playing")
                if playing and playing["game_id"] not in self.games:
                    if table is not None and not table.done():
                        self.two_tables = True
                    self.games.append(playing["game_id"])
                    if self.free_at is not None:
                        self.seen_delays.append(time.monotonic() - self.free_at)
                    self.free_at = None
                    table = asyncio.ensure_future(self.play(playing["code"]))
                if state["status"] == "finished":
                    break
            if table is not None:
                await table
        except Exception as exc:  # noqa: BLE001 - the report counts it
            self.errors.append(f"{self.name}: {exc!r}")
        finally:
            if arena is not None:
                await arena.close()

    async def play(self, code: str) -> None:
        self.acted_at = -1
        for _ in range(RETRIES):
            try:
                ws = await self._open(f"/ws/rooms/{code}/?format=json")
            except RuntimeError as exc:
                self.errors.append(f"table {code}: {exc}"[:300])
                return
            try:
                if await self._play(ws):
                    return
            except (TimeoutError, ConnectionClosed):
                pass
            finally:
                await ws.close()
            self.retries += 1  # dropped mid-game: back to the table
        self.errors.append(f"table {code}: left after {RETRIES} dropped connections")

    async def _play(self, ws) -> bool:
        """Play until the game is over (True)."""
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=120))
            if message.get("type") == "error":
                self.errors.append(f"table: {message.get('message')}")
                await ws.send(json.dumps({"type": "sync"}))
                continue
            if message.get("type") != "state":
                continue
            if message["over"]:
                self.free_at = time.monotonic()
                return True
            seat, seq = message["seat"], message["seq"]
            if seat not in message["to_act"] or not message["legal"] or seq <= self.acted_at:
                continue
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.args.think)
            legal = message["legal"]
            choice = self.rng.choice([a for a in legal if a["type"] not in PASSIVE] or legal)
            self.acted_at = seq
            self.actions += 1
            await ws.send(json.dumps({"type": "act", "action": choice, "seq": seq}))


# ---- the run ---------------------------------------------------------------------------------


def wait_healthy(port: int, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(1)
    raise RuntimeError(f"the stack on port {port} did not become healthy in {seconds:.0f} s")


def start_stack(args, env: dict) -> subprocess.Popen:
    log = open(args.log, "w")  # noqa: SIM115 - lives as long as the stack
    return subprocess.Popen(
        ["bash", "scripts/serve.sh"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop_stack(stack: subprocess.Popen) -> None:
    """serve.sh's trap stops its children; anything left of ours after that is killed by pid."""
    ours = descendants(stack.pid)
    if stack.poll() is None:
        stack.send_signal(signal.SIGTERM)
        try:
            stack.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
    for pid in ours:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=240.0, help="the arena's length")
    parser.add_argument("--fill-after", type=float, default=10.0, help="the computers' wait")
    parser.add_argument("--think", type=float, default=1.0, help="a person's pause per move")
    parser.add_argument("--kind", default="crazy8")
    parser.add_argument("--port", type=int, default=8270)
    parser.add_argument("--daphnes", type=int, default=2)
    parser.add_argument("--pool", type=int, default=8, help="DB_POOL_MAX per process")
    parser.add_argument("--log", default="/tmp/arena_stack.log", help="the stack's output")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    rng = random.Random("arena-stack")

    import redis

    layer = redis.Redis.from_url(os.environ.get("REDIS_URL", ""))
    if layer.connection_pool.connection_kwargs.get("db", 0) == 0:
        sys.exit("Give the bench a Redis database of its own (REDIS_URL=.../8): it empties it.")
    layer.flushdb()
    with own_database("_arenabench", keep=args.keep) as database:
        from arenas.models import ArenaSchedule

        ArenaSchedule.objects.update(active=False)  # only the bench's arena
        release_connections()
        env = os.environ | {
            "PORT": str(args.port),
            "DAPHNES": str(args.daphnes),
            "ARENA_FILL_AFTER": str(args.fill_after),
            "ACTION_LOG": "WARNING",
            # PostgreSQL's connections are shared by the whole machine: each process's pool
            # may be made smaller than its default 8 (--pool) to fit beside other programs.
            "DB_POOL_MAX": str(args.pool),
            "LOG_LEVEL": "WARNING",
        }
        stack = start_stack(args, env)
        try:
            run(args, rng, stack, database)
        finally:
            stop_stack(stack)
            release_connections()
        print(f"stopped the stack (serve.sh pid {stack.pid}); its output is in {args.log}")


def run(args, rng, stack, database) -> None:
    from django.utils import timezone

    from arenas.models import Arena

    wait_healthy(args.port)
    print(f"arena stack bench: {args.players} players, {args.kind}, {args.seconds:.0f} s, "
          f"computers after {args.fill_after:.0f} s, {args.daphnes} daphne behind nginx on "
          f":{args.port}, database {database}")  # fmt: skip
    people = [Person(i, args.port, args, random.Random(rng.random())) for i in range(args.players)]
    t0 = time.monotonic()
    with ThreadPoolExecutor(4) as pool:  # password hashing is slow on purpose
        list(pool.map(Person.sign_up, people))
    print(f"{len(people)} signed up in {time.monotonic() - t0:.0f} s")
    now = timezone.now()
    arena = Arena.objects.create(
        name="Bench",
        kind=args.kind,
        starts=now + timedelta(seconds=15 + args.players / 10),
        ends=now + timedelta(seconds=15 + args.players / 10 + args.seconds),
        prizes=[100, 60, 40],
        min_games=1,
    )
    release_connections()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda p: p.join(arena.pk), people))
    print(f"all joined {(arena.starts - timezone.now()).total_seconds():.0f} s before the start")
    cpu0 = cpu_by_label(stack.pid, database)
    wall0 = time.monotonic()

    async def everyone() -> None:
        done = asyncio.Event()
        clients = [asyncio.ensure_future(p.follow(arena.pk, done)) for p in people]
        deadline = time.monotonic() + args.seconds + 300
        while time.monotonic() < deadline:
            await asyncio.sleep(5)
            if await asyncio.to_thread(_finished, arena.pk):
                break
        await asyncio.sleep(3)  # the finished state's news
        done.set()
        await asyncio.wait(clients, timeout=60)

    asyncio.run(everyone())
    wall = time.monotonic() - wall0
    cpu1 = cpu_by_label(stack.pid, database)
    report(arena.pk, people, wall, cpu0, cpu1)


def _finished(arena_id: int) -> bool:
    from django.db import OperationalError

    from arenas.models import Arena

    try:
        return Arena.objects.get(pk=arena_id).status == Arena.Status.FINISHED
    except OperationalError:  # the database busy (PostgreSQL's connections all taken): later
        return False
    finally:
        release_connections()


def report(arena_id, people, wall, cpu0, cpu1) -> None:
    from arenas.models import Arena, ArenaGame, Entrant, Result
    from gameplay.models import Game
    from kudos.models import Entry

    arena = Arena.objects.get(pk=arena_id)
    games = list(ArenaGame.objects.filter(arena=arena).select_related("game").order_by("created"))
    # Free to seated, from the database: free at the start (or joining), and when a result is
    # scored while the arena is live; seated when the next arena game with them is made.
    seated_at = defaultdict(list)
    for ag in games:
        for user_id in ag.people:
            seated_at[user_id].append(ag.created)
    delays = []
    for entrant in Entrant.objects.filter(arena=arena):
        frees = [max(entrant.joined, arena.starts)] + [
            r.created
            for r in Result.objects.filter(entrant=entrant).order_by("created")
            if r.created < arena.ends
        ]
        seats = sorted(seated_at[entrant.user_id])
        for free in frees:
            after = [s for s in seats if s >= free]
            if after:
                delays.append((after[0] - free).total_seconds())
    spans = defaultdict(list)
    for ag in games:
        for user_id in ag.people:
            spans[user_id].append((ag.game.created, ag.game.ended or ag.game.updated))
    overlapping = 0
    for runs in spans.values():
        runs.sort()
        overlapping += any(b[0] < a[1] for a, b in zip(runs, runs[1:], strict=False))
    seen = [d for p in people for d in p.seen_delays]
    winners = Entrant.objects.filter(arena=arena, prize__gt=0).count()
    prizes = Entry.objects.filter(key__startswith=f"arena:{arena.pk}:").count()
    per_key = Entry.objects.filter(key__startswith=f"arena:{arena.pk}:").values("key").distinct()
    audit = subprocess.run(
        [sys.executable, "manage.py", "verify_ledger"], cwd=ROOT, capture_output=True, text=True
    )
    errors = [e for p in people for e in p.errors]
    print(f"arena {arena.status}: {wall:.0f} s from joining to finished; "
          f"{sum(p.actions for p in people):,} moves sent by the people")  # fmt: skip
    print(f"pairing delay, free to seated (database): p50 {percentile(delays, 50):.1f} s, "
          f"p99 {percentile(delays, 99):.1f} s over {len(delays)} seatings")  # fmt: skip
    print(f"pairing delay as the clients saw it: p50 {percentile(seen, 50):.1f} s, "
          f"p99 {percentile(seen, 99):.1f} s over {len(seen)}")  # fmt: skip
    print(f"games: {len(games)} ({sum(g.computers for g in games)} with computers), "
          f"{sum(g.game.status == Game.Status.OVER for g in games)} played to the end")  # fmt: skip
    print(f"players ever at two tables at once: {overlapping} (as clients saw it: "
          f"{sum(p.two_tables for p in people)})")  # fmt: skip
    print(f"prize entries: {prizes} ({per_key.count()} keys) for {winners} prize-winners")
    print(f"verify_ledger: {(audit.stdout + audit.stderr).strip()} (exit {audit.returncode})")
    print(f"sockets refused or dropped and opened again: {sum(p.retries for p in people)}")
    print(f"client errors: {len(errors)}" + (f", e.g. {errors[:2]}" if errors else ""))
    gave_up = sum(1 for p in people if any(e.startswith("table") for e in p.errors))
    print(f"people who could not reach a table at least once: {gave_up}")
    print("CPU seconds over the run (% of one core):")
    for what in sorted(cpu1):
        used = cpu1[what] - cpu0.get(what, 0.0)
        print(f"  {what:40} {used:7.1f} s  {100 * used / wall:5.1f} %")


if __name__ == "__main__":
    main()
