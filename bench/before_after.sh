#!/usr/bin/env bash
# Two commits side by side: fresh servers of each in turn (the production shape,
# ECHO_SOCKET=1 scripts/serve.sh with 2 daphne processes), each on a database of its own
# created afresh, measured by this checkout's bench client, alternating A B A B … within the
# same run so that both sides meet the same day.
#
#   bench/before_after.sh A B [load|roundtrip|spectators|pages] [pairs] [bench arguments…]
#   bench/before_after.sh 67e93db 2602ad5 load 2 --tables 200 --seconds 30
#   bench/before_after.sh 67e93db 2602ad5 roundtrip 2 --moves 300
#   bench/before_after.sh 2e5458b a94726f spectators 2 --tables 10 --watchers 1000 --rounds 3
#   bench/before_after.sh d82c252 HEAD pages 3 --seconds 8 --rounds 2 --also /icon.svg
#
# The commits are checked out into a temporary folder (git worktree, removed at the end) and
# run with this checkout's .venv (PYTHONPATH puts each side's code first). Prints each run's
# time, load average and the bench's output. With KEEP_LOGS=<folder>, each run's server log is
# kept there (with ACTION_LOG=INFO in the environment, its action lines time each move inside
# the server). Only 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 2,13p "$0"; exit 2; }
a=$1 b=$2 what=${3:-load} pairs=${4:-2}
shift $(( $# < 4 ? $# : 4 ))
args=("$@")
here=$PWD py=$PWD/.venv/bin/python
port=${PORT:-8260}
redis=${REDIS_URL:-redis://127.0.0.1:6379/10}  # flushed before each run
work=$(mktemp -d -t before-after-XXXXXX)
server=""
. bench/stop_serve.sh
stop_server() {
  stop_serve "$server"
  server=""
}
cleanup() {
  [ -n "$server" ] && stop_server
  for side in a b; do git worktree remove --force "$work/$side" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
git worktree add -q --detach "$work/a" "$a"
git worktree add -q --detach "$work/b" "$b"
speed() { python3 -c "import time;t=time.time();sum(i*i for i in range(10**7));print(round(time.time()-t,2))"; }

one() {  # one fresh server of a side, one bench run against it
  local side=$1 commit=$2 dir=$work/$1 db=before_after_$1
  psql -h 127.0.0.1 -U postgres -d postgres -q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -qc "CREATE DATABASE $db"
  redis-cli -u "$redis" flushdb >/dev/null
  ln -sfn "$here/.venv" "$dir/.venv"
  (cd "$dir" && exec setsid env ECHO_SOCKET=1 PORT=$port DAPHNES=2 PYTHONPATH="$dir" \
     DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db REDIS_URL=$redis \
     bash scripts/serve.sh >"$work/serve-$side.log" 2>&1) &
  server=$!
  for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 1; done
  sleep 3
  echo "--- $(date -u +%H:%M) side $side ($commit), load $(cut -d' ' -f1 /proc/loadavg), machine speed $(speed) s"
  # A bench that fails is reported, and the server's log is still kept and searched.
  bench_run "$dir" "$db" || echo "side $side: the bench failed"
  stop_server
  [ -n "${KEEP_LOGS:-}" ] && cp "$work/serve-$side.log" "$KEEP_LOGS/$(date -u +%H%M)-$side-$commit.log"
  if grep -q Traceback "$work/serve-$side.log"; then
    echo "side $side printed a traceback:"; grep -A 15 -m 1 Traceback "$work/serve-$side.log"
  fi
  sleep 2
}

bench_run() {  # the bench against a side's server (its folder and database): the load bench's
  # whole output (with --games mix it is longer than a tail), the other benches' tail
  local dir=$1 db=$2
  if [ "$what" = roundtrip ]; then
    "$py" bench/table_roundtrip.py --url "http://127.0.0.1:$port" "${args[@]}" | tail -n 8
  elif [ "$what" = pages ]; then  # one daphne (PORT+1), not nginx: every path takes the same process
    "$py" bench/pages.py --url "http://127.0.0.1:$((port + 1))" "${args[@]}" | tail -n 12
  elif [ "$what" = spectators ]; then
    "$py" bench/spectators.py --url "http://127.0.0.1:$port" "${args[@]}" | tail -n 24
  else
    "$py" bench/load.py --url "http://127.0.0.1:$port" --server-dir "$dir" \
      --database-url "postgres://postgres@127.0.0.1:5432/$db" --redis-url "$redis" "${args[@]}"
  fi
}

for _ in $(seq "$pairs"); do
  one a "$a"
  one b "$b"
done
