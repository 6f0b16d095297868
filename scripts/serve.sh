#!/usr/bin/env bash
# The production shape on one machine: PostgreSQL + Redis, daphne, a Celery worker and Celery
# beat, started together and stopped together with Ctrl-C.
set -euo pipefail
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/cubiccards}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
PORT=${PORT:-8000}
bin=.venv/bin

db=${DATABASE_URL##*/}
psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE \"$db\""
$bin/python manage.py migrate --no-input -v 0
# Production pages are served from the collected, hashed static files (whitenoise's manifest):
# without them every page is a 500, so a failed collection stops the start here.
$bin/python manage.py collectstatic --no-input -v 0 || { echo "collectstatic failed: not starting (pages would all answer 500)." >&2; exit 1; }

pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping…"
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop INT TERM EXIT

$bin/python -m cubiccards.server -b 127.0.0.1 -p "$PORT" cubiccards.asgi:application & pids+=($!)
$bin/celery -A cubiccards worker --loglevel=warning --concurrency=2 & pids+=($!)
$bin/celery -A cubiccards beat --loglevel=warning --schedule="/tmp/cubiccards-beat-$PORT" & pids+=($!)
echo ""
echo "  Cubic Cards (PostgreSQL + Redis, daphne, Celery worker and beat) at http://127.0.0.1:$PORT/"
echo "  Ctrl-C stops everything."
echo ""
wait -n "${pids[@]}"
