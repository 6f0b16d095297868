"""`make test` installs what is missing with Debian's apt-get: when another program holds the
package manager's lock it waits (a bounded time) instead of failing at once. A stand-in
apt-get on PATH plays the busy package manager."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUSY_APT = """#!/usr/bin/env bash
echo "$@" >> "{calls}"
n=$(cat "{count}" 2>/dev/null || echo 0)
echo $((n + 1)) > "{count}"
if [ "$n" -lt {busy} ]; then
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)" >&2
  exit 100
fi
"""


def run_apt(tmp_path: Path, busy: int, wait: int, command: str):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls, count = tmp_path / "calls", tmp_path / "count"
    fake = bin_dir / "apt-get"
    fake.write_text(BUSY_APT.format(calls=calls, count=count, busy=busy))
    fake.chmod(0o755)
    sudo = bin_dir / "sudo"  # not root: sudo runs the command as it is
    sudo.write_text('#!/usr/bin/env bash\nexec "$@"\n')
    sudo.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "APT_LOCK_WAIT": str(wait),
        "APT_RETRY_EVERY": "0.2",
    }
    script = f"set -euo pipefail; . scripts/apt.sh; {command}"
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    return done, calls.read_text().splitlines() if calls.exists() else []


def test_a_held_lock_is_waited_for_then_the_install_goes_on(tmp_path):
    done, calls = run_apt(tmp_path, busy=3, wait=30, command="apt_install redis-server")
    assert done.returncode == 0, done.stderr
    assert "waiting up to 30 s" in done.stdout
    assert calls[:4] == ["-o DPkg::Lock::Timeout=30 update -qq"] * 4  # 3 busy, then done
    assert calls[4] == "-o DPkg::Lock::Timeout=30 install -y -qq redis-server"


def test_a_lock_held_past_the_wait_fails_and_says_why(tmp_path):
    done, calls = run_apt(tmp_path, busy=10**6, wait=1, command="apt_install redis-server")
    assert done.returncode != 0
    assert "Could not get lock" in done.stderr
    assert all(call.endswith("update -qq") for call in calls)
