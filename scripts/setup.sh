#!/usr/bin/env bash
# Brings a fresh Debian machine (or a stale checkout) to the point where lspmcp runs and its
# tests pass: the pinned npm dependencies, the Debian packages of the system servers, the servers
# built from the Go module proxy, PyPI and crates.io into lspmcp's tool cache, and a fresh build.
# Idempotent and quiet when there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Debian packages of the system-installed servers (CONTRACT §3 profiles): maude, clangd,
# pylsp (+ pyflakes, without which it reports nothing), ccls and fortls; and git, which the tests
# use to make their throwaway repositories (and lspmcp to find a workspace's files). One
# dpkg-query answers for all of them, so a ready machine pays one process.
packages=(maude clangd python3-pylsp python3-pyflakes ccls fortran-language-server git)
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

# The servers that no npm or Debian package brings, each built or installed once into lspmcp's
# tool cache (the `{cache}` of servers/*.toml; src/config/tool-cache.ts computes the same folder),
# never into the checkout, and only when the pinned version is not there yet. Each pin is read from
# its profile, the one place it is written.
case "${XDG_CACHE_HOME:-}" in /*) cache="$XDG_CACHE_HOME/lspmcp" ;; *) cache="$HOME/.cache/lspmcp" ;; esac
pin() { sed -n 's/^version = "\(.*\)"$/\1/p' "servers/$1.toml"; }

# gopls from the Go module proxy, built with the machine's Go (1.25 or newer).
gopls_pin="$(pin gopls)"
if [ "$("$cache/go/bin/gopls" version 2>/dev/null | awk '{ print $2 }')" != "$gopls_pin" ]; then
  command -v go >/dev/null || { echo "setup: gopls $gopls_pin needs Go 1.25 or newer on PATH" >&2; exit 1; }
  echo "setup: building gopls $gopls_pin into $cache/go (about a minute)" >&2
  GOPATH="$cache/go" GOBIN="$cache/go/bin" GOMODCACHE="$cache/go/mod" GOCACHE="$cache/go/build" \
    GOFLAGS=-modcacherw GOTOOLCHAIN=local go install "golang.org/x/tools/gopls@$gopls_pin"
fi

# ruff from PyPI, in a virtualenv of its own.
ruff_pin="$(pin ruff)"
if [ "$("$cache/ruff/bin/ruff" --version 2>/dev/null)" != "ruff $ruff_pin" ]; then
  echo "setup: installing ruff $ruff_pin into $cache/ruff" >&2
  python3 -m venv --clear "$cache/ruff"
  "$cache/ruff/bin/pip" install --quiet --disable-pip-version-check "ruff==$ruff_pin"
fi

# basedpyright from npm, outside lspmcp's node_modules: its package also installs commands named
# pyright and pyright-langserver, which would replace pyright's own.
basedpyright_pin="$(pin basedpyright)"
if ! "$cache/basedpyright/node_modules/.bin/basedpyright" --version 2>/dev/null | grep -x "basedpyright $basedpyright_pin" >/dev/null; then
  echo "setup: installing basedpyright $basedpyright_pin into $cache/basedpyright" >&2
  mkdir -p "$cache/basedpyright"
  npm install --prefix "$cache/basedpyright" --no-save --no-audit --no-fund --loglevel=error "basedpyright@$basedpyright_pin"
fi

# rust-analyzer built from crates.io (the crate ra_ap_rust-analyzer publishes the server's own
# driver), once: about 24 minutes with the 2 cores shared, 14 minutes of CPU. Its build folder stays
# in the cache, so a later pin rebuilds only what changed. `cargo install --list` is cargo's record
# of what is installed there (the binary itself says "rust-analyzer 0.0.0").
ra_pin="$(pin rust-analyzer)"
if [ ! -x "$cache/rust-analyzer/bin/rust-analyzer" ] || ! cargo install --list --root "$cache/rust-analyzer" 2>/dev/null | grep -x "ra_ap_rust-analyzer v$ra_pin:" >/dev/null; then
  command -v cargo >/dev/null || { echo "setup: rust-analyzer $ra_pin needs Rust 1.95 (cargo) on PATH" >&2; exit 1; }
  echo "setup: building rust-analyzer $ra_pin into $cache/rust-analyzer (about 25 minutes on 2 cores, once)" >&2
  CARGO_TARGET_DIR="$cache/rust-analyzer/target" cargo install --quiet --locked ra_ap_rust-analyzer \
    --version "$ra_pin" --root "$cache/rust-analyzer"
fi

node_modules/typescript-7/bin/tsc -p tsconfig.json
node scripts/bundle.mjs
