import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { copyFixtureWorkspace } from "../helpers/workspace.js";

const FAKE = join(REPO, "tests/fixtures/servers/fake-server.mjs");
const FLAVOURS = {
  "crash-init": ["--crash-on-initialize"],
  "exit-at-start": ["--exit-at-start"],
  hang: ["--hang"],
};

let bridge: Bridge;

// Deadline long enough that a hang would show as Timeout, not as a quick start failure.
beforeAll(async () => {
  const root = copyFixtureWorkspace("poly");
  const servers = Object.entries(FLAVOURS).map(
    ([name, args], index) => `
[[server]]
name = "${name}"
command = ${JSON.stringify(FAKE)}
args = ${JSON.stringify([...args, "--no-daemon", "--no-child"])}
version = "1.0.0"
languages = [{ id = "fake", extensions = [".f${index}"] }]
`,
  );
  for (let index = 0; index < servers.length; index++) writeFileSync(join(root, `a.f${index}`), "x\n");
  bridge = await startBridge(
    writeConfig(`
[bridge]
request_timeout_ms = 4000
${servers.join("")}
[[workspace]]
name = "poly"
root = ${JSON.stringify(root)}
servers = ${JSON.stringify(Object.keys(FLAVOURS))}
`),
  );
});
afterAll(async () => bridge?.close());

describe("servers that fail to start", () => {
  test("one that exits during initialize is ServerStartFailed with its exit, not a Timeout", async () => {
    const error = await bridge.fail("document_symbols", { path: "a.f0" });
    expect(error.code).toBe("ServerStartFailed");
    expect(error.details).toMatchObject({ exit_code: 3 });
  });

  test("one that exits before reading anything is ServerStartFailed", async () => {
    const error = await bridge.fail("document_symbols", { path: "a.f1" });
    expect(error.code).toBe("ServerStartFailed");
  });

  test("one that never answers initialize is a Timeout, and the session is dead afterwards", async () => {
    const error = await bridge.fail("document_symbols", { path: "a.f2" });
    expect(error.code).toBe("Timeout");
    expect((await bridge.fail("document_symbols", { path: "a.f2" })).code).toBe("SessionDead");
  });

  test("the bridge keeps serving", async () => {
    const { sessions } = await bridge.ok("session_status");
    expect(sessions.map((session: any) => session.state)).toEqual(["dead", "dead", "dead"]);
  });
});
