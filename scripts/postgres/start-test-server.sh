#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for tests, on loopback only, and prints shell exports:
#
#   eval "$(scripts/postgres/start-test-server.sh)"     # sets TEST_DATABASE_URL and TESSERA_PG_DIR
#   npx vitest run test/store-contracts test/postgres
#   scripts/postgres/stop-test-server.sh "$TESSERA_PG_DIR"
#
# With a directory argument that already holds a cluster made by this script, it starts that
# cluster again on the port it had (the failure tests stop and restart their own cluster so).
#
# Trust authentication on 127.0.0.1 and a unix socket inside the temp directory: this server is
# for tests only and must never hold real data. fsync is off for speed, for the same reason.
# Binaries: $PG_BINDIR, else the newest /usr/lib/postgresql/*/bin (Debian's `postgresql` package),
# else whatever `initdb` is on PATH. Run as root, the server runs as the `postgres` user.
set -euo pipefail

find_bindir() {
  if [[ -n "${PG_BINDIR:-}" ]]; then echo "$PG_BINDIR"; return; fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$newest" && -x "$newest/initdb" ]]; then echo "$newest"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  echo "start-test-server: no PostgreSQL binaries found (install Debian's postgresql package or set PG_BINDIR)" >&2
  exit 1
}

# Runs a command as the cluster's owner: `postgres` when we are root (initdb refuses root).
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
}

BINDIR=$(find_bindir)
DIR=${1:-}
if [[ -n "$DIR" && -f "$DIR/port" ]]; then
  PORT=$(cat "$DIR/port")
else
  DIR=${DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tessera-pg.XXXXXX")}
  mkdir -p "$DIR"
  PORT=$(free_port)
  [[ $(id -u) -eq 0 ]] && chown postgres: "$DIR"
  as_owner "$BINDIR/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$DIR/initdb.log" 2>&1 ||
    { cat "$DIR/initdb.log" >&2; exit 1; }
  echo "$PORT" >"$DIR/port"
  echo "$BINDIR" >"$DIR/bindir"
fi

OPTIONS="-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
as_owner "$BINDIR/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -o "$OPTIONS" -w -t 30 start >/dev/null ||
  { cat "$DIR/server.log" >&2; exit 1; }

echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/postgres"
echo "export TESSERA_PG_DIR=$DIR"
