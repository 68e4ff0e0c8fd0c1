// Where the tests find the repository, the built bridge and the fixture programs: one definition
// each, resolved from this file, never from the working directory.
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dirname, "../..");
export const BRIDGE_MAIN = join(REPO, "dist/lspmcp/main.js");
export const FAKE_SERVER = join(REPO, "tests/fixtures/servers/fake-server.mjs");
export const FAKE_DAEMON = join(REPO, "tests/fixtures/servers/fake-server-daemon.mjs");
export const DYING_BRIDGE = join(REPO, "tests/supervision/fixtures/bridge-that-dies.mjs");
export const SWEEP_ONCE = join(REPO, "tests/supervision/fixtures/sweep-once.mjs");
export const TSLS = join(REPO, "node_modules/.bin/typescript-language-server");
export const PYRIGHT = join(REPO, "node_modules/.bin/pyright-langserver");
export const BIOME_PROXY = join(REPO, "servers/biome/lsp-proxy");
