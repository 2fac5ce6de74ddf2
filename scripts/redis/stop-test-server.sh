#!/usr/bin/env bash
# Stops a server started by start-test-server.sh; with `--keep`, keeps its directory (and port)
# so that start-test-server.sh can start it again. Without a running server, does nothing.
set -euo pipefail
DIR=${1:?usage: stop-test-server.sh <dir> [--keep]}
if [[ -f "$DIR/redis.pid" ]]; then
  PID=$(cat "$DIR/redis.pid")
  kill "$PID" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
  rm -f "$DIR/redis.pid"
fi
[[ "${2:-}" == "--keep" ]] || rm -rf "$DIR"
