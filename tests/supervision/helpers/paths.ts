import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));
export const FAKE_SERVER = `${REPO}tests/fixtures/servers/fake-server.mjs`;
export const DAEMON_SCRIPT = `${REPO}tests/fixtures/servers/fake-server-daemon.mjs`;
export const DYING_BRIDGE = `${REPO}tests/supervision/fixtures/bridge-that-dies.mjs`;
export const TSLS = `${REPO}node_modules/.bin/typescript-language-server`;
export const PYRIGHT = `${REPO}node_modules/.bin/pyright-langserver`;
