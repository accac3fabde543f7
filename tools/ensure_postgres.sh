#!/usr/bin/env bash
# Make sure a PostgreSQL server answers on 127.0.0.1:5432 for the tests of the PostgreSQL
# backend (lib/storage/postgres/) and create their database, hermes_test, afresh. In order:
# the machine's own server when one already answers; the machine's cluster started with
# pg_ctlcluster; else Debian's postgresql package (installed with apt when root) and a
# throwaway cluster (initdb --no-sync, fsync off: it starts in about a second). Prints what it
# did; never fails the caller — the tests themselves fail loudly when no server answers. The test
# database commits without waiting for its WAL flush: the tests kill consoles, never the server.
set -u
HOST=127.0.0.1
PORT=${HERMES_TEST_PG_PORT:-5432} # another port: a cluster of its own (used to test this script)
answers() { pg_isready -q -h "$HOST" -p "$PORT" 2>/dev/null; }

if ! command -v pg_isready >/dev/null 2>&1 && [ -d /usr/lib/postgresql ]; then
  PATH="$(ls -d /usr/lib/postgresql/*/bin | tail -1):$PATH"
fi

if ! answers && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || true
  done
  for _ in $(seq 1 50); do answers && break; sleep 0.1; done
fi

if ! answers && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing postgresql with apt-get (needed by the PostgreSQL backend's tests)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null 2>&1 || true
    apt-get install -y -qq postgresql >/dev/null 2>&1 || echo "apt-get could not install postgresql" >&2
  fi
fi

if ! answers && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  bin=$(ls -d /usr/lib/postgresql/*/bin | tail -1)
  dir=/tmp/hermes-pg-cluster
  runas=()
  # initdb refuses to run as root: the throwaway cluster belongs to the postgres user.
  if [ "$(id -u)" = "0" ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    runas=(runuser -u postgres --)
  fi
  rm -rf "$dir" && mkdir -p "$dir" && chown "$(id -u postgres 2>/dev/null || id -u)" "$dir"
  echo "Starting a throwaway PostgreSQL cluster in $dir..." >&2
  "${runas[@]}" "$bin/initdb" --no-sync -A trust -U postgres -D "$dir/data" >/dev/null 2>&1
  "${runas[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-c fsync=off -c listen_addresses=$HOST -p $PORT -k $dir -c max_connections=300" start >/dev/null 2>&1
fi

if answers; then
  psql -q -h "$HOST" -p "$PORT" -U postgres -d postgres \
    -c "DROP DATABASE IF EXISTS hermes_test WITH (FORCE)" -c "CREATE DATABASE hermes_test" \
    -c "ALTER DATABASE hermes_test SET synchronous_commit = off" \
    >/dev/null 2>&1 || echo "could not create the hermes_test database" >&2
else
  echo "No PostgreSQL answers on $HOST:$PORT: the PostgreSQL backend's tests will fail." >&2
fi
exit 0
