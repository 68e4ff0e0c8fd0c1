import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { GateClock, holdsWithin } from "../helpers/gate-clock.js";
import { isAlive, waitForExit } from "../helpers/proc.js";
import { copyFixtureWorkspace } from "../helpers/workspace.js";

let bridge: Bridge;

beforeAll(async () => {
  const root = copyFixtureWorkspace("poly");
  bridge = await startBridge(
    writeConfig(`
[[server]]
name = "clangd"
profile = "clangd"

[[workspace]]
name = "poly"
root = ${JSON.stringify(root)}
servers = ["clangd"]
`),
  );
});
afterAll(async () => bridge?.close());

const status = async () => (await bridge.ok("session_status")).sessions[0];

describe("session lifecycle", () => {
  test("sessions start on first use, not at initialize", async () => {
    expect(await status()).toMatchObject({ state: "idle", pid: null, pinned_version: "14.0.6", reported_version: null });
    await bridge.ok("document_symbols", { path: "src/matrix.c" });
    const ready = await status();
    expect(ready.state).toBe("ready");
    expect(ready.reported_version).toContain("14.0.6");
    expect(isAlive(ready.pid)).toBe(true);
    expect(ready.open_documents).toBe(1);
  });

  test("session_restart gives a new pid and the old tree is gone when it returns", async () => {
    const before = await status();
    const restarted = await bridge.ok("session_restart", { server: "clangd" });
    expect(restarted.state).toBe("ready");
    expect(restarted.pid).not.toBe(before.pid);
    expect(restarted.restarts).toBe(before.restarts + 1);
    expect(isAlive(before.pid)).toBe(false);
    expect(isAlive(before.supervisor_pid)).toBe(false);
  });

  test("a server killed from outside makes the session dead until session_restart", async () => {
    const before = await status();
    process.kill(before.pid, "SIGKILL");
    expect(await waitForExit(before.pid)).toBe(true);
    // The bridge learns of the exit from the supervisor; wait for that event, bounded (net of the
    // time a loaded machine kept the bridge from a CPU).
    let dead = await status();
    await holdsWithin(async () => (dead = await status()).state === "dead", new GateClock([bridge.pid]), 5000);
    expect(dead).toMatchObject({ state: "dead", last_exit: { code: null, signal: "SIGKILL" } });

    const error = await bridge.fail("document_symbols", { path: "src/matrix.c" });
    expect(error.code).toBe("SessionDead");
    expect(error.details).toMatchObject({ exit_signal: "SIGKILL" });
    expect(Array.isArray(error.details.stderr_tail)).toBe(true);
    // Still dead: never silently respawned.
    expect((await bridge.fail("hover", { path: "src/matrix.c", line: 1, column: 1 })).code).toBe("SessionDead");

    const restarted = await bridge.ok("session_restart", { server: "clangd" });
    expect(restarted.state).toBe("ready");
    const symbols = await bridge.ok("document_symbols", { path: "src/matrix.c" });
    expect(symbols.total).toBeGreaterThan(0);
  });
});
