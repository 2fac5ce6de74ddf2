#!/usr/bin/env bash
# Starts a throwaway Redis server for tests, on loopback only, and prints shell exports:
#
#   eval "$(scripts/redis/start-test-server.sh)"     # sets TEST_REDIS_URL and TESSERA_REDIS_DIR
#   npx vitest run test/redis
#   scripts/redis/stop-test-server.sh "$TESSERA_REDIS_DIR"
#
# With a directory argument that already holds a server made by this script, it starts that
# server again on the port it had (the outage tests stop and restart their own server so).
#
# No persistence (no RDB, no AOF) and no password: this server is for tests only, bound to
# 127.0.0.1, and must never hold real data. Binary: $REDIS_SERVER, else `redis-server` on PATH
# (Debian's `redis-server` package).
set -euo pipefail

BINARY=${REDIS_SERVER:-$(command -v redis-server || true)}
if [[ -z "$BINARY" ]]; then
  echo "start-test-server: no redis-server found (install Debian's redis-server package or set REDIS_SERVER)" >&2
  exit 1
fi

free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
}

DIR=${1:-}
if [[ -n "$DIR" && -f "$DIR/port" ]]; then
  PORT=$(cat "$DIR/port")
else
  DIR=${DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tessera-redis.XXXXXX")}
  mkdir -p "$DIR"
  PORT=$(free_port)
  echo "$PORT" >"$DIR/port"
fi

"$BINARY" --bind 127.0.0.1 --port "$PORT" --protected-mode yes --save '' --appendonly no \
  --dir "$DIR" --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --daemonize yes

# Ready when it answers PING (up to 10 s).
for _ in $(seq 1 200); do
  if node -e "
    const s = require('node:net').connect($PORT, '127.0.0.1');
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => process.exit(String(d).startsWith('+PONG') ? 0 : 1));
    s.on('error', () => process.exit(1));
  " 2>/dev/null; then
    echo "export TEST_REDIS_URL=redis://127.0.0.1:$PORT"
    echo "export TESSERA_REDIS_DIR=$DIR"
    exit 0
  fi
  sleep 0.05
done
cat "$DIR/redis.log" >&2
exit 1
