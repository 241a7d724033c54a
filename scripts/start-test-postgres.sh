#!/usr/bin/env bash
# Starts a throw-away PostgreSQL server on a free loopback port for the integration suites and
# prints the ARCA_TEST_DATABASE_URL to use. `initdb` refuses root, so it runs as `postgres`.
# Usage: eval "$(scripts/start-test-postgres.sh)"; stop with: scripts/start-test-postgres.sh stop
# A server this script started and that still runs is reused (a suite running beside a benchmark
# keeps its database); `scripts/start-test-postgres.sh fresh` starts a new one regardless.
set -euo pipefail
dir=/tmp/arca-test-postgres
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "${1:-}" = "stop" ]; then
  [ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  exit 0
fi
if [ "${1:-}" != "fresh" ] && [ -f "$dir/data/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  echo "export ARCA_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$(sed -n 4p "$dir/data/postmaster.pid")/postgres"
  exit 0
fi
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
[ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
rm -rf "$dir" && mkdir -p "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off -c max_connections=200" \
  start >/dev/null
echo "export ARCA_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
