#!/usr/bin/env bash
# A day when the machine is half as fast: the whole server — both daphne processes, nginx, the
# Celery worker and beat, and the PostgreSQL and Redis this machine runs — pinned to one core
# with taskset, and the bench client on another, so the server has half the machine.
#
#   bench/slow_day.sh [load.py arguments…]
#   bench/slow_day.sh --tables 500 --seconds 30
#
# Starts a fresh server (ECHO_SOCKET=1 scripts/serve.sh with 2 daphnes, a database of its own
# made afresh, a flushed Redis database), runs bench/load.py against it, then stops it and gives
# PostgreSQL and Redis every core back (also on Ctrl-C or a failure). Prints the time, load
# average and the speed test on each core beside load.py's output. Needs 2 cores and root
# (PostgreSQL and Redis run as other users). Only 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(nproc)" -ge 2 ] || { echo "needs at least 2 cores"; exit 2; }
server_core=${SERVER_CORE:-0} client_core=${CLIENT_CORE:-1} every=0-$(($(nproc) - 1))
port=${PORT:-8270} db=${DB:-slow_day}
redis=${REDIS_URL:-redis://127.0.0.1:6379/10}  # flushed before the run
py=$PWD/.venv/bin/python
log=$(mktemp -t slow-day-XXXXXX.log)
server=""
. bench/stop_serve.sh

services() {  # PostgreSQL's postmaster with its processes, and Redis on 6379
  local postmaster
  postmaster=$(pgrep -o -u postgres -x postgres)
  echo "$postmaster" $(pgrep -P "$postmaster") $(pgrep -f '^redis-server 127.0.0.1:6379')
}
pin() {  # every thread of each process; PostgreSQL's new backends inherit the postmaster's
  for pid in $(services); do taskset -a -p -c "$1" "$pid" >/dev/null 2>&1 || true; done
}
cleanup() {
  [ -n "$server" ] && stop_serve "$server"
  pin "$every"
  if grep -q Traceback "$log"; then
    echo "the server printed a traceback (its whole log kept in $log):"
    grep -A 15 -m 1 Traceback "$log"
  else
    rm -f "$log"
  fi
}
trap cleanup EXIT INT TERM
speed() { taskset -c "$1" python3 -c "import time;t=time.time();sum(i*i for i in range(10**7));print(round(time.time()-t,2))"; }

psql -h 127.0.0.1 -U postgres -d postgres -q -c "SET client_min_messages = warning" \
  -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
redis-cli -u "$redis" flushdb >/dev/null
pin "$server_core"
(exec setsid taskset -c "$server_core" env ECHO_SOCKET=1 PORT="$port" DAPHNES=2 \
   DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" REDIS_URL="$redis" \
   bash scripts/serve.sh >"$log" 2>&1) &
server=$!
for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 1; done
sleep 3
echo "--- $(date -u +%H:%M) server on core $server_core, client on core $client_core;" \
  "load $(cut -d' ' -f1 /proc/loadavg); speed test $(speed "$server_core") s (server's core)," \
  "$(speed "$client_core") s (client's)"
taskset -c "$client_core" "$py" bench/load.py --url "http://127.0.0.1:$port" --server-dir "$PWD" \
  --database-url "postgres://postgres@127.0.0.1:5432/$db" --redis-url "$redis" "$@"
