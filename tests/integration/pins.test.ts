import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { join } from "node:path";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { isAlive } from "../helpers/proc.js";
import { copyFixtureWorkspace } from "../helpers/workspace.js";

let bridge: Bridge;
let root: string;

beforeAll(async () => {
  root = copyFixtureWorkspace("poly");
  bridge = await startBridge(
    writeConfig(`
[[server]]
name = "clangd-wrong-pin"
profile = "clangd"
version = "15.0.0"

[[server]]
name = "pyright-wrong-pin"
profile = "pyright"
version = "1.1.999"

[[server]]
name = "fake"
command = ${JSON.stringify(join(REPO, "tests/fixtures/servers/fake-server.mjs"))}
args = ["--no-daemon", "--no-child"]
version = "2.0.0"
languages = [{ id = "fake", extensions = [".fake"] }]

[[workspace]]
name = "poly"
root = ${JSON.stringify(root)}
servers = ["clangd-wrong-pin", "pyright-wrong-pin", "fake"]
`),
  );
});
afterAll(async () => bridge?.close());

describe("pins", () => {
  test("a version that does not match is ServerVersionMismatch with both versions, and nothing keeps running", async () => {
    const error = await bridge.fail("document_symbols", { path: "src/matrix.c" });
    expect(error.code).toBe("ServerVersionMismatch");
    expect(error.details).toMatchObject({ pinned: "15.0.0" });
    expect(error.details.reported).toContain("14.0.6");
    const [status] = (await bridge.ok("session_status")).sessions;
    expect(status.state).toBe("dead");
    expect(status.pid).toBeGreaterThan(0);
    expect(isAlive(status.pid)).toBe(false);
    expect(isAlive(status.supervisor_pid)).toBe(false);
  });

  test("serverInfo.version is checked when there is no version_command", async () => {
    writeFileSync(join(root, "src/a.fake"), "x\n");
    const error = await bridge.fail("document_symbols", { path: "src/a.fake" });
    expect(error.code).toBe("ServerVersionMismatch");
    expect(error.details).toMatchObject({ pinned: "2.0.0", reported: "1.0.0" });
  });

  test("the version_command output is checked too", async () => {
    const error = await bridge.fail("document_symbols", { path: "src/inventory.py" });
    expect(error.code).toBe("ServerVersionMismatch");
    expect(error.details).toMatchObject({ pinned: "1.1.999", reported: "pyright 1.1.414" });
  });

  test("a session that failed to start stays dead, with the reason, until restarted", async () => {
    const error = await bridge.fail("document_symbols", { path: "src/matrix.c" });
    expect(error.code).toBe("SessionDead");
    expect(error.details.last_error).toMatchObject({ code: "ServerVersionMismatch" });
  });
});
