#!/usr/bin/env bash
# The whole suite: everything but the browser tests, and beside it, at the same time, the
# browser tests in a run of their own (Playwright's sync API holds an event loop that upsets
# async tests run after it). The browser run mostly waits on Chromium and the servers, so the
# two together take about as long as the longer one. It gets its own test database, Redis
# database and private redis-server ports, so the two runs share nothing; its output is
# printed after the first run's.
set -uo pipefail
: "${DATABASE_URL:?make test sets DATABASE_URL}" "${REDIS_URL:?make test sets REDIS_URL}"
py=.venv/bin/python

run() {
  "$py" -m pytest "$@"
  local rc=$?
  [ $rc = 5 ] && rc=0  # this selection collected no test
  return $rc
}

# The browser run's Redis: the next database number after REDIS_URL's.
redis_db=${REDIS_URL##*/}
[[ $redis_db =~ ^[0-9]+$ ]] || redis_db=0
browser_redis="${REDIS_URL%/*}/$((redis_db + 1))"
browser_log=$(mktemp)
trap 'rm -f "$browser_log"' EXIT

TEST_DB_SUFFIX="${TEST_DB_SUFFIX:-}_browser" REDIS_URL="$browser_redis" \
  PRIVATE_REDIS_PORTS=8255-8259 DJANGO_ALLOW_ASYNC_UNSAFE=true \
  run -m browser -q -p no:cacheprovider "${@}" >"$browser_log" 2>&1 &
browser=$!

run -m "not browser" -q "${@}"
first=$?
wait $browser
second=$?
echo
echo "=== the browser tests (run beside the others) ==="
cat "$browser_log"
[ $first = 0 ] && [ $second = 0 ]
