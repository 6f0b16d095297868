"""bench/load.py against several hosts on this machine (as root):

    .venv/bin/python bench/several_hosts.py --tables 200 --seconds 30 [--daphnes 2]

Builds the shape of tests/e2e/test_several_hosts.py (tests/e2e/hosts.py): network namespaces
web1 and web2 with --daphnes daphne processes each, worker with a Celery worker (2 processes)
and beat, PostgreSQL and Redis reached at the root namespace's link address through socat,
nginx (deploy/nginx.conf) on 127.0.0.1 in front of both web hosts. Then runs bench/load.py
through that nginx with the other arguments, and takes everything down again, whatever
happened. DATABASE_URL and REDIS_URL (127.0.0.1) default to their own database and Redis
database. The hosts share this machine's cores: the figure says what the split costs, not
what two machines would add."""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cubiccards_hosts")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

import django  # noqa: E402

django.setup()

from tests.e2e.hosts import Hosts, HostsUnavailable  # noqa: E402


def prepare(database_url: str) -> None:
    """The database exists and is migrated, the static files collected (as make serve)."""
    name = database_url.rsplit("/", 1)[1]
    exists = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-tAc",
         f"SELECT 1 FROM pg_database WHERE datname='{name}'"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if exists != "1":
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-qc",
             f'CREATE DATABASE "{name}"'],
            check=True,
        )  # fmt: skip
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"]):
        subprocess.run([sys.executable, "manage.py", *command, "-v", "0"], cwd=ROOT, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--daphnes", type=int, default=2, help="daphne processes per web host")
    known, load_args = parser.parse_known_args()
    if not 1 <= known.daphnes <= 8:
        raise SystemExit("Bounded: 1-8 daphne processes per web host.")
    database_url, redis_url = os.environ["DATABASE_URL"], os.environ["REDIS_URL"]
    prepare(database_url)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket is a file
    try:
        hosts = Hosts(
            database_url,
            redis_url,
            daphnes=known.daphnes,
            worker=("worker", "--loglevel=warning", "--concurrency=2"),
            ECHO_SOCKET="1",  # load.py's relay phase
        )
    except HostsUnavailable as why:
        raise SystemExit(f"several hosts: {why}") from None
    try:
        started = time.monotonic()
        hosts.up()
        print(
            f"hosts up in {time.monotonic() - started:.1f} s: nginx {hosts.url}, "
            f"web1 {hosts.address('web1')}, web2 {hosts.address('web2')} "
            f"({known.daphnes} daphne each), worker {hosts.address('worker')}, "
            f"PostgreSQL and Redis at {hosts.address('root')}",
            flush=True,
        )
        load = [sys.executable, str(ROOT / "bench" / "load.py"), "--url", hosts.url, *load_args]
        return subprocess.run(load, cwd=ROOT).returncode
    finally:
        for server in hosts.down():
            text = server.text()
            if os.environ.get("HOSTS_LOG"):
                Path(os.environ["HOSTS_LOG"], server.name.replace(" ", "_")).write_text(text)
            if "Traceback (most recent call last)" in text:
                print(f"--- {server.name} printed:\n{text[-3000:]}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
