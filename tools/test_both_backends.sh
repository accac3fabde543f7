#!/usr/bin/env bash
# The whole test suite twice: on the embedded SQLite backend, then on PostgreSQL
# (HERMES_DATABASE_URL, each opened database in a schema of its own). The PostgreSQL pass fails
# loudly when no server answers — it never skips. Exits non-zero when either pass failed.
set -u
deno test -A --parallel tests/
sqlite=$?
url=${HERMES_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/hermes_test}
echo
echo "== the same suite on PostgreSQL ($url) =="
HERMES_DATABASE_URL=$url HERMES_DATABASE_ISOLATE=1 deno test -A --parallel tests/
postgres=$?
echo "SQLite pass exit $sqlite, PostgreSQL pass exit $postgres"
[ "$sqlite" -eq 0 ] && [ "$postgres" -eq 0 ]
