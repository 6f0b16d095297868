#!/usr/bin/env bash
# Make sure PostgreSQL, Redis and Debian's Chromium are here and running: start what is down,
# install from Debian what is missing (needs root, as on the project's machines and in CI).
set -euo pipefail

# shellcheck source=scripts/apt.sh
. "$(dirname "$0")/apt.sh"  # as_root, apt_install: waits for the package manager's lock

# PostgreSQL on 127.0.0.1:5432, user postgres, trust auth from localhost.
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ! command -v pg_ctlcluster >/dev/null || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    echo "services: installing PostgreSQL from Debian"
    apt_install postgresql
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    hba=/etc/postgresql/$version/main/pg_hba.conf
    # A test machine: let local connections in without a password, as on the project's machines.
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  fi
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  echo "services: starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='test'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE test"

# Redis on 127.0.0.1:6379, nothing kept on disk.
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  if ! command -v redis-server >/dev/null; then
    echo "services: installing Redis from Debian"
    apt_install redis-server
  fi
  echo "services: starting Redis"
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi

# Debian's nginx: make serve's proxy in front of several daphne processes (and its test).
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "services: installing nginx from Debian"
  apt_install nginx-light
fi

# GNU gettext: the catalogues' check (tests/test_translations.py) runs makemessages and msgfmt.
if ! command -v msgfmt >/dev/null; then
  echo "services: installing gettext from Debian"
  apt_install gettext
fi

# Debian's Chromium for the browser tests (Playwright cannot download its own here).
if [ -n "${WITH_CHROMIUM:-1}" ] && [ ! -x /usr/bin/chromium ]; then
  echo "services: installing Chromium from Debian"
  apt_install chromium
fi
echo "services: PostgreSQL, Redis, nginx, gettext and Chromium are ready"
