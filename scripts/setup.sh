#!/usr/bin/env bash
# Brings a fresh Debian machine (or a stale checkout) to the point where lspmcp runs and its
# tests pass: the pinned npm dependencies, the Debian packages of the system servers, and a
# fresh build.
# Idempotent and quiet when there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Debian packages of the system-installed servers (CONTRACT §3 profiles): maude, clangd,
# gopls (+ the go toolchain it drives), pylsp (+ pyflakes, without which it reports nothing),
# ccls and fortls. One dpkg-query answers for all of them, so a ready machine pays one process.
packages=(maude clangd golang-go gopls python3-pylsp python3-pyflakes ccls fortran-language-server)
installed="$(dpkg-query --show --showformat='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null | awk '$2 == "installed" { print $1 }' || true)"
missing=()
for package in "${packages[@]}"; do
  grep -qx "$package" <<<"$installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]} from Debian" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # A fresh machine has no package lists yet; a stale one may not know a package.
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

node_modules/.bin/tsc -p tsconfig.json
node scripts/bundle.mjs
