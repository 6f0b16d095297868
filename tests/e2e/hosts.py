"""Several hosts on one machine: network namespaces joined by virtual links, each its own
"host" with its own address. Two web hosts run daphne processes, a worker host runs the Celery
worker and beat; all reach PostgreSQL and Redis at the root namespace's link address, and nginx
(deploy/nginx.conf) in the root namespace spreads pages and sockets over both web hosts.

Needs root and `ip netns`. Everything is named after the subnet it takes (10.77.N.0/24, N
free when it starts): namespaces `cchN-web1`, `cchN-web2`, `cchN-worker`, the bridge `cchN-br`
and its links; `down()` removes them all and stops every process it started."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse, urlunparse

from tests.conftest import ROOT, WORKER, ServerOutput

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PR_SET_PDEATHSIG = 1


class HostsUnavailable(Exception):
    """Not root, or no `ip netns` here."""


def _die_with_parent() -> None:
    # If the program that built the hosts dies (killed, crashed), what it started goes too.
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def _remove_namespace(ns: str) -> None:
    # Anything still inside (a Celery pool child) goes with its namespace, and its links.
    pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True)
    for pid in pids.stdout.split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
    subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def available() -> str | None:
    """Why several hosts can't be built here, or None if they can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2)"
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"`ip netns` does not work here: {probe.stderr.strip()}"
    return None


def _with_host(url: str, host: str) -> str:
    parts = urlparse(url)
    netloc = parts.netloc.rsplit("@", 1)
    port = parts.port
    where = f"{host}:{port}" if port else host
    netloc[-1] = where
    return urlunparse(parts._replace(netloc="@".join(netloc)))


class Hosts:
    """web1 and web2 (DAPHNES daphne processes each), worker (Celery worker and beat), socat
    forwarding the link address to PostgreSQL and Redis on 127.0.0.1, and nginx on
    127.0.0.1:port. `database_url` and `redis_url` are the root namespace's own (127.0.0.1)."""

    WEB = ("web1", "web2")
    FIRST_PORT = 8001  # web1's daphne processes listen on 8001, 8002, ..., web2's on 8101, ...

    def __init__(
        self,
        database_url: str,
        redis_url: str,
        daphnes: int = 2,
        worker: tuple[str, ...] = tuple(WORKER),
        **env: str,
    ):
        why = available()
        if why:
            raise HostsUnavailable(why)
        self.database_url, self.redis_url, self.daphnes = database_url, redis_url, daphnes
        self.extra_env, self.worker = env, list(worker)
        self.subnet: int | None = None
        self.namespaces: list[str] = []
        self.processes: dict[str, ServerOutput] = {}
        self.finished: list[ServerOutput] = []
        self.run_dir: str | None = None
        self.port = 0

    # ---- addresses -----------------------------------------------------------------------

    def address(self, host: str) -> str:
        """The root namespace's end of the links is .1; web1 .11, web2 .12, worker .13."""
        last = {"root": 1, "web1": 11, "web2": 12, "worker": 13}[host]
        return f"10.77.{self.subnet}.{last}"

    def daphne_urls(self, host: str) -> list[str]:
        h = self.WEB.index(host) + 1
        return [
            f"http://{self.address(host)}:{self.FIRST_PORT + 100 * (h - 1) + i}"
            for i in range(self.daphnes)
        ]

    @property
    def url(self) -> str:
        """nginx, in front of both web hosts."""
        return f"http://127.0.0.1:{self.port}"

    def _name(self, what: str) -> str:
        return f"cch{self.subnet}-{what}"

    # ---- up ------------------------------------------------------------------------------

    def up(self) -> Hosts:
        try:
            self._network()
            self._forwarders()
            self._servers()
            self._nginx()
            self.wait_healthy()
        except BaseException:
            self.down()
            raise
        return self

    @staticmethod
    def _left_behind() -> None:
        """Remove the namespaces and bridge of an earlier run whose program died before it
        could (its pid is the bridge's alias); a live run's are left alone."""
        links = subprocess.run(["ip", "-o", "link", "show", "type", "bridge"],
                               capture_output=True, text=True).stdout  # fmt: skip
        for line in links.splitlines():
            name = line.split(":")[1].strip()
            if not (name.startswith("cch") and name.endswith("-br")) or " alias pid=" not in line:
                continue
            pid = int(line.rsplit(" alias pid=", 1)[1].split()[0])
            if Path(f"/proc/{pid}").exists():
                continue
            tag = name.removesuffix("-br")
            namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
            for ns in namespaces.stdout.split("\n"):
                ns = ns.split(" ")[0]
                if ns.startswith(f"{tag}-"):
                    _remove_namespace(ns)
            subprocess.run(["ip", "link", "del", name], capture_output=True)
            # nginx's workers outlive their master; their pids were written down at the start.
            for folder in Path(tempfile.gettempdir()).glob(f"{tag}-*"):
                workers = folder / "workers"
                for pid in workers.read_text().split() if workers.exists() else []:
                    try:
                        if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"nginx: worker"):
                            os.kill(int(pid), signal.SIGKILL)
                    except (OSError, ProcessLookupError):
                        pass
                shutil.rmtree(folder, ignore_errors=True)

    def _network(self) -> None:
        self._left_behind()
        used = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True).stdout
        free = [n for n in range(1, 255) if f" 10.77.{n}." not in used]
        random.shuffle(free)
        for n in free:  # the bridge's name is the claim: two runs never take one subnet
            try:
                _ip("link", "add", f"cch{n}-br", "type", "bridge")
            except subprocess.CalledProcessError:
                continue
            self.subnet = n
            break
        else:
            raise RuntimeError("no free 10.77.N.0/24 subnet for the hosts")
        bridge = self._name("br")
        _ip("link", "set", bridge, "alias", f"pid={os.getpid()}")  # see _left_behind
        _ip("addr", "add", f"{self.address('root')}/24", "dev", bridge)
        _ip("link", "set", bridge, "up")
        for host in ("web1", "web2", "worker"):
            ns, outer, inner = self._name(host), self._name(host[0] + host[-1]), "cch-inner"
            _ip("netns", "add", ns)
            self.namespaces.append(ns)
            _ip("link", "add", outer, "type", "veth", "peer", "name", inner, "netns", ns)
            _ip("link", "set", outer, "master", bridge, "up")
            _ip("-n", ns, "link", "set", inner, "name", "eth0")
            _ip("-n", ns, "addr", "add", f"{self.address(host)}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")
            _ip("-n", ns, "link", "set", "lo", "up")

    def _start(self, name: str, args: list[str], env: dict[str, str], host: str | None) -> None:
        if host is not None:
            args = ["ip", "netns", "exec", self._name(host), *args]
        proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        self.processes[name] = ServerOutput(proc, name)

    def _forwarders(self) -> None:
        """PostgreSQL and Redis listen on 127.0.0.1 only: socat takes their ports on the link
        address (a connection through it comes from 127.0.0.1, so trust auth applies)."""
        gateway = self.address("root")
        for name, url in (("postgresql", self.database_url), ("redis", self.redis_url)):
            port = urlparse(url).port
            self._start(
                f"socat {name}",
                [
                    "socat",
                    f"TCP-LISTEN:{port},bind={gateway},fork,reuseaddr,backlog=1024",
                    f"TCP:127.0.0.1:{port}",
                ],
                dict(os.environ),
                host=None,
            )
            self._wait_port(self.processes[f"socat {name}"], gateway, port)

    def host_env(self) -> dict[str, str]:
        """What every host's processes get: the services at the link address."""
        gateway = self.address("root")
        allowed = ["127.0.0.1", "localhost", *(self.address(h) for h in self.WEB)]
        return {
            **os.environ,
            "DATABASE_URL": _with_host(self.database_url, gateway),
            "REDIS_URL": _with_host(self.redis_url, gateway),
            "ALLOWED_HOSTS": ",".join(allowed),
            **self.extra_env,
        }

    def _servers(self) -> None:
        env = self.host_env()
        for host in self.WEB:
            for url in self.daphne_urls(host):
                port = str(urlparse(url).port)
                self.start_daphne(host, port, env)
        self._start(
            "celery worker",
            [sys.executable, "-m", "celery", "-A", "cubiccards", *self.worker],
            env,
            "worker",
        )
        self._start(
            "celery beat",
            [sys.executable, "-m", "celery", "-A", "cubiccards", "beat", "--loglevel=warning"],
            env,
            "worker",
        )
        for host in self.WEB:
            for url in self.daphne_urls(host):
                port = urlparse(url).port
                self._wait_port(self.processes[f"{host} daphne :{port}"], self.address(host), port)

    def start_daphne(self, host: str, port: str, env: dict[str, str]) -> None:
        # --proxy-headers, as make serve: the client's address comes from nginx.
        args = [sys.executable, "-m", "cubiccards.server", "--proxy-headers",
                "-b", self.address(host), "-p", port, "cubiccards.asgi:application"]  # fmt: skip
        self._start(f"{host} daphne :{port}", args, env, host)

    def _nginx(self) -> None:
        self.run_dir = tempfile.mkdtemp(prefix=self._name("nginx-"))
        os.chmod(self.run_dir, 0o755)  # nginx's workers may run as another user
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        upstreams = "".join(
            f"server {urlparse(url).netloc} max_fails=0; "
            for host in self.WEB
            for url in self.daphne_urls(host)
        )
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        conf = conf.replace("@RUN@", self.run_dir).replace("@PORT@", str(self.port))
        conf = conf.replace("@UPSTREAMS@", upstreams)
        Path(self.run_dir, "nginx.conf").write_text(conf)
        args = [NGINX, "-p", self.run_dir, "-e", "stderr", "-c", f"{self.run_dir}/nginx.conf"]
        self._start("nginx", args, dict(os.environ), host=None)
        self._wait_port(self.processes["nginx"], "127.0.0.1", self.port)
        master = self.processes["nginx"].proc.pid
        children, deadline = "", time.monotonic() + 10
        while not children.strip() and time.monotonic() < deadline:  # forked after listening
            children = Path(f"/proc/{master}/task/{master}/children").read_text()
            time.sleep(0.05)
        Path(self.run_dir, "workers").write_text(children)  # see _left_behind

    def _wait_port(self, server: ServerOutput, address: str, port: int, seconds=60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and server.proc.poll() is None:
            try:
                with socket.create_connection((address, port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"{server.name} did not start:\n{server.text()[-4000:]}")

    def health(self) -> dict:
        try:
            with urllib.request.urlopen(self.url + "/healthz", timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            return json.loads(error.read())

    def wait_healthy(self, seconds: float = 60) -> dict:
        """Until /healthz through nginx is well: every host reached PostgreSQL and Redis (the
        worker's and beat's heartbeats come through Redis from the worker host)."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                said = self.health()
                if said.get("ok"):
                    return said
            except OSError as error:
                said = {"error": str(error)}
            if time.monotonic() > deadline:
                raise RuntimeError(f"the hosts never became healthy: {said}")
            time.sleep(0.5)

    # ---- faults and down -----------------------------------------------------------------

    def signal_host(self, host: str, signum: int) -> None:
        for name, server in self.processes.items():
            if name.startswith(f"{host} "):
                server.proc.send_signal(signum)

    def kill_host(self, host: str) -> None:
        """SIGKILL every process of the host: nothing of their own shutdown runs."""
        for name in [n for n in self.processes if n.startswith(f"{host} ")]:
            server = self.processes.pop(name)
            server.proc.send_signal(signal.SIGKILL)
            server.proc.wait()
            server.stop()
            self.finished.append(server)

    def down(self) -> list[ServerOutput]:
        """Stop everything started and remove every namespace and link made; returns every
        process's output (for the caller to check)."""
        forwarders = {n for n in self.processes if n.startswith("socat")}
        for name, server in self.processes.items():  # all at once: each takes seconds to stop
            if name not in forwarders and server.proc.poll() is None:
                server.proc.terminate()
        for name in reversed(list(self.processes)):  # the forwarders last
            server = self.processes.pop(name)
            if name not in forwarders:
                # Before stop(): a second SIGTERM met Celery beat in its exit and it printed
                # a traceback.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.proc.wait(timeout=15)
            server.stop()
            self.finished.append(server)
        for ns in self.namespaces:
            _remove_namespace(ns)
        self.namespaces = []
        if self.subnet is not None:
            subprocess.run(["ip", "link", "del", self._name("br")], capture_output=True)
            self.subnet = None
        if self.run_dir:
            shutil.rmtree(self.run_dir, ignore_errors=True)
        return self.finished
