#!/bin/sh
# Starts a throwaway PostgreSQL on 127.0.0.1 for the store/sql tests and prints its DSN.
#
#   export LLMFS_TEST_POSTGRES="$(.ci/postgres.sh)"
#
# Installs Debian's postgresql package if no server is installed. The cluster lives in
# $LLMFS_PGDATA (default /tmp/llmfs-pg), listens on 127.0.0.1:$LLMFS_PGPORT (default 5433) with
# trust authentication, and is reused when already running. Stop it with
#   pg_ctl -D /tmp/llmfs-pg stop    (as the postgres user when run as root)
# Progress goes to stderr; only the DSN goes to stdout.
set -eu

PGDATA=${LLMFS_PGDATA:-/tmp/llmfs-pg}
PORT=${LLMFS_PGPORT:-5433}
DB=${LLMFS_PGDB:-llmfs_test}

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(bindir)" ]; then
	echo "postgres.sh: installing postgresql" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update >&2
	apt-get install -y --no-install-recommends postgresql >&2
fi
BIN=$(bindir)

# The server refuses to run as root: run it as the postgres user then.
as_pg() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

if [ ! -f "$PGDATA/PG_VERSION" ]; then
	mkdir -p "$PGDATA"
	[ "$(id -u)" = 0 ] && chown postgres:postgres "$PGDATA"
	chmod 700 "$PGDATA"
	as_pg "$BIN/initdb" -D "$PGDATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >&2
fi
if ! as_pg "$BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
	as_pg "$BIN/pg_ctl" -D "$PGDATA" -w -l "$PGDATA/server.log" \
		-o "-h 127.0.0.1 -p $PORT -k /tmp -c fsync=off -c max_connections=200" start >&2
fi
# CI starts from an empty database: a cluster left on the machine by an earlier run may hold
# a database that another version of the schema migrated.
if [ -n "${CI:-}" ]; then
	as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >&2
fi
if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
	as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB" >&2
fi
echo "postgres://postgres@127.0.0.1:$PORT/$DB?sslmode=disable"
