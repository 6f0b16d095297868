#!/usr/bin/env bash
# The whole suite: everything but the browser tests, then the browser tests in their own run
# (Playwright's sync API holds an event loop that upsets async tests run after it).
set -uo pipefail
: "${DATABASE_URL:?make test sets DATABASE_URL}" "${REDIS_URL:?make test sets REDIS_URL}"
py=.venv/bin/python

run() {
  "$py" -m pytest "$@"
  local rc=$?
  [ $rc = 5 ] && rc=0  # this selection collected no test
  return $rc
}

run -m "not browser" -q "${@}"
first=$?
DJANGO_ALLOW_ASYNC_UNSAFE=true run -m browser -q "${@}"
second=$?
[ $first = 0 ] && [ $second = 0 ]
