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
  // Answers initialize 5 s after it arrives: later than a call's 4 s, sooner than the 10 s start deadline.
  "slow-start": ["--lsp", "--initialize-delay", "5000"],
};

let bridge: Bridge;

// Deadlines long enough that a hang would show as Timeout, not as a quick start failure.
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
  for (let index = 0; index < servers.length; index++) writeFileSync(join(root, `a.f${index}`), "fn alpha\n");
  bridge = await startBridge(
    writeConfig(`
[bridge]
request_timeout_ms = 4000
start_timeout_ms = 10000
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

  test("one that never answers initialize is a Timeout at the start deadline, and the session is dead afterwards", async () => {
    const started = Date.now();
    const error = await bridge.fail("document_symbols", { path: "a.f2" });
    expect(error.code).toBe("Timeout");
    expect(error.details).toMatchObject({ timeout_ms: 10000, waiting_for: "initialize", session: "poly/hang" });
    // The call waited out the start (10 s), not only its own 4 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(10000);
    expect((await bridge.fail("document_symbols", { path: "a.f2" })).code).toBe("SessionDead");
  });

  test("a start slower than the call's request_timeout_ms is not cut short: the first call answers", async () => {
    const started = Date.now();
    const { items } = await bridge.ok("document_symbols", { path: "a.f3" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
    expect(items.map((item: any) => item.name)).toEqual(["alpha"]);
  });

  test("the bridge keeps serving", async () => {
    const { sessions } = await bridge.ok("session_status");
    expect(sessions.map((session: any) => session.state)).toEqual(["dead", "dead", "dead", "ready"]);
  });
});
