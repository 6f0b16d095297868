#!/usr/bin/env bash
# make backup: the site's PostgreSQL database (DATABASE_URL), dumped by PostgreSQL's own
# pg_dump in its custom format (compressed; pg_restore can restore it whole or in part) to
# $BACKUP_DIR/cubiccards-<UTC date and time>.dump. Prints the file's name.
set -euo pipefail
: "${DATABASE_URL:?make backup needs DATABASE_URL (the PostgreSQL database to back up)}"
case "$DATABASE_URL" in
  postgres://* | postgresql://*) ;;
  *) echo "backup: DATABASE_URL is not PostgreSQL; the embedded SQLite file is copied as it is" >&2
     exit 2 ;;
esac
dir="${BACKUP_DIR:-backups}"
mkdir -p "$dir"
file="$dir/cubiccards-$(date -u +%Y-%m-%dT%H%M%SZ).dump"
# Written under another name first: a dump cut short never looks like a backup.
pg_dump --format=custom --no-owner --no-privileges --file="$file.partial" "$DATABASE_URL"
mv "$file.partial" "$file"
echo "$file"
