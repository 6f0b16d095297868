#!/usr/bin/env bash
# The production shape on one machine: PostgreSQL + Redis, DAPHNES daphne processes (default:
# one per core) behind nginx on PORT, a Celery worker and Celery beat, started together and
# stopped together with Ctrl-C. daphne number i listens on 127.0.0.1:PORT+i; nginx's config
# (deploy/nginx.conf), pid and temporary files live in a temporary folder, removed at the end.
set -euo pipefail
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/cubiccards}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
PORT=${PORT:-8000}
DAPHNES=${DAPHNES:-$(nproc)}
CELERY_CONCURRENCY=${CELERY_CONCURRENCY:-2}
bin=.venv/bin
nginx=$(command -v nginx || echo /usr/sbin/nginx)

db=${DATABASE_URL##*/}
psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE \"$db\""
$bin/python manage.py migrate --no-input -v 0
# Production pages are served from the collected, hashed static files (whitenoise's manifest):
# without them every page is a 500, so a failed collection stops the start here.
$bin/python manage.py collectstatic --no-input -v 0 || { echo "collectstatic failed: not starting (pages would all answer 500)." >&2; exit 1; }

run=$(mktemp -d -t cubiccards-serve-XXXXXX)
chmod 755 "$run"  # nginx's workers may run as another user
# Every process writes its metrics here; /metrics adds them up (infra/metrics.py).
export PROMETHEUS_MULTIPROC_DIR="$run/metrics"
mkdir "$PROMETHEUS_MULTIPROC_DIR"
ulimit -n "$(ulimit -Hn)"  # a socket is a file: thousands of tables need thousands

pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping…"
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  rm -rf "$run"
}
trap stop INT TERM EXIT

upstreams=""
for i in $(seq 1 "$DAPHNES"); do
  # --proxy-headers: the client's address comes from nginx's X-Forwarded-For (the limits
  # count per address); daphne listens on 127.0.0.1 only, so only nginx can set it.
  $bin/python -m cubiccards.server --proxy-headers -b 127.0.0.1 -p $((PORT + i)) \
    cubiccards.asgi:application & pids+=($!)
  upstreams+="server 127.0.0.1:$((PORT + i)) max_fails=0; "
done
sed -e "s|@RUN@|$run|g" -e "s|@PORT@|$PORT|g" -e "s|@UPSTREAMS@|$upstreams|g" \
  deploy/nginx.conf > "$run/nginx.conf"
"$nginx" -p "$run" -e stderr -c "$run/nginx.conf" & pids+=($!)
$bin/celery -A cubiccards worker --loglevel=warning --concurrency="$CELERY_CONCURRENCY" & pids+=($!)
$bin/celery -A cubiccards beat --loglevel=warning & pids+=($!)
echo ""
echo "  Cubic Cards (PostgreSQL + Redis, $DAPHNES daphne behind nginx, Celery worker and beat)"
echo "  at http://127.0.0.1:$PORT/ (daphne on ports $((PORT + 1))-$((PORT + DAPHNES)))"
echo "  Ctrl-C stops everything."
echo ""
wait -n "${pids[@]}"
