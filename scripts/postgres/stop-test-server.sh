#!/usr/bin/env bash
# Stops a cluster started by start-test-server.sh and deletes its directory.
#
#   scripts/postgres/stop-test-server.sh "$TESSERA_PG_DIR"          # stop and delete
#   scripts/postgres/stop-test-server.sh "$TESSERA_PG_DIR" --keep   # stop only (start again with start-test-server.sh DIR)
set -euo pipefail
DIR=${1:-${TESSERA_PG_DIR:-}}
if [[ -z "$DIR" || ! -f "$DIR/port" ]]; then
  echo "stop-test-server: not a directory made by start-test-server.sh: ${DIR:-<none>}" >&2
  exit 1
fi
BINDIR=$(cat "$DIR/bindir")
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# -m fast: disconnect clients and stop at once (what a crash or failover looks like to the app).
if [[ -f "$DIR/data/postmaster.pid" ]]; then as_owner "$BINDIR/pg_ctl" -D "$DIR/data" -m fast -w -t 30 stop >/dev/null; fi
if [[ "${2:-}" != "--keep" ]]; then rm -rf "$DIR"; fi
