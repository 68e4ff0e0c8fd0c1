#!/usr/bin/env bash
# Brings a fresh Debian machine (or a stale checkout) to the point where lspmcp runs and its
# tests pass: the pinned npm dependencies, Debian's maude and clangd, and a fresh build.
# Idempotent and quiet when there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v maude >/dev/null 2>&1 || missing+=(maude)
command -v clangd >/dev/null 2>&1 || missing+=(clangd)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]} from Debian" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

node_modules/.bin/tsc -p tsconfig.json
chmod +x dist/src/cli/main.js
