#!/usr/bin/env bash
# make restore FILE=backups/cubiccards-....dump: a backup made by `make backup` into the
# PostgreSQL database RESTORE_DATABASE_URL (default DATABASE_URL), with pg_restore, in one
# transaction: all of it or, on any error, nothing. What the database held of the site is
# replaced (--clean); restore into a fresh database (createdb) for a drill.
set -euo pipefail
: "${FILE:?make restore needs FILE=<a backup made by make backup>}"
target="${RESTORE_DATABASE_URL:-${DATABASE_URL:-}}"
: "${target:?make restore needs RESTORE_DATABASE_URL or DATABASE_URL (the database to restore into)}"
[ -f "$FILE" ] || { echo "restore: no file $FILE" >&2; exit 2; }
pg_restore --clean --if-exists --no-owner --no-privileges --single-transaction \
  --exit-on-error --dbname="$target" "$FILE"
echo "restore: $FILE restored"
