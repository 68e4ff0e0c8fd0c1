#!/usr/bin/env bash
# `npm run test:fresh`: `npm test` as a fresh machine runs it, on this machine. A new clone of HEAD
# (what is committed; the working tree's changes are not in it) in a temporary folder, with an
# empty tool cache (XDG_CACHE_HOME, where the servers built from source, pip's and Go's caches,
# and the package-manager tests' pnpm store and Yarn cache go) and an empty npm cache, then the
# README's `npm test` there. Everything it made is removed when it ends, however it ends
# (LSPMCP_FRESH_KEEP=1 keeps the folder and prints where). It takes a first run's time: about half
# an hour on 2 cores, most of it the servers' builds from source.
set -euo pipefail
cd "$(dirname "$0")/.."
head="$(git rev-parse HEAD)"
temp="$(mktemp -d "${TMPDIR:-/tmp}/lspmcp-fresh-XXXXXX")"
# mktemp makes it 0700; the tests that run a process as a second user (the orphan sweep, a
# compiler another user owns) need to read the clone, as they can in any checkout CI makes.
chmod 755 "$temp"
run=""
finish() {
  status=$?
  # The run is a process group of its own (below): a signal here reaches all of it, its own
  # handlers stop the builds and the test files' servers, and the folder goes once it is gone.
  if [ -n "$run" ] && kill -0 "$run" 2>/dev/null; then
    kill -TERM -- "-$run" 2>/dev/null || true
    wait "$run" 2>/dev/null || true
  fi
  if [ -n "${LSPMCP_FRESH_KEEP:-}" ]; then
    echo "test:fresh: kept $temp" >&2
  else
    rm -rf "$temp"
  fi
  exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "test:fresh: a clone of $head in $temp, with an empty tool cache and an empty npm cache" >&2
git clone --quiet --no-checkout --no-hardlinks . "$temp/lspmcp"
git -C "$temp/lspmcp" checkout --quiet --detach "$head"
mkdir -p "$temp/cache" "$temp/npm-cache"
cd "$temp/lspmcp"
# The README's test command, in a session of its own so that one signal reaches every process it starts.
XDG_CACHE_HOME="$temp/cache" npm_config_cache="$temp/npm-cache" setsid npm test &
run=$!
wait "$run"
