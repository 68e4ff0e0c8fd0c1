// The restart race (issue 19): calls fired while `session_restart` tears the session down either
// wait for the new session or answer SessionDead; none is handed the client being shut down
// (which would fail as ServerCrashed), and none hangs.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { fakeWorkspace } from "../helpers/fake-config.js";

let bridge: Bridge;

beforeAll(async () => {
  // Slow hovers keep calls in flight at the server when the restart's shutdown arrives.
  const { config } = fakeWorkspace([{ name: "fake", extension: ".fk", flags: ["--hover-delay", "20"] }], "request_timeout_ms = 20000");
  bridge = await startBridge(config);
});
afterAll(async () => bridge?.close());

const CALLS = [
  { name: "hover", arguments: { path: "a.fk", line: 1, column: 4 } },
  { name: "document_symbols", arguments: { path: "a.fk" } },
  { name: "diagnostics", arguments: { path: "a.fk" } },
];

describe("session_restart under concurrent calls", () => {
  test("every call fired during three restarts answers, or fails with SessionDead, never ServerCrashed", async () => {
    await bridge.ok("document_symbols", { path: "a.fk" });
    let restarting = true;
    const outcomes = new Map<string, number>();
    const unexpected: string[] = [];
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    // A clock of events in the order this test saw them: a call overlaps a restart when it was
    // sent before the restart was asked and answered after.
    let tick = 0;
    const calls: { sent: number; done: number }[] = [];
    const callers = Array.from({ length: 6 }, async (_, caller) => {
      for (let n = 0; restarting; n++) {
        const call = CALLS[(caller + n) % CALLS.length]!;
        const sent = tick++;
        const result = await bridge.call(call.name, call.arguments);
        calls.push({ sent, done: tick++ });
        const code = result.isError ? JSON.parse(result.content[0]!.text).error.code : "ok";
        if (code !== "ok" && code !== "SessionDead") unexpected.push(result.content[0]!.text);
        count(code);
      }
    });
    const restarts = [];
    const asked: number[] = [];
    for (let i = 0; i < 3; i++) {
      // Let calls pile up on the live session before each restart.
      await new Promise<void>((resolve) => setImmediate(resolve));
      asked.push(tick++);
      restarts.push(await bridge.ok("session_restart", { server: "fake" }));
    }
    restarting = false;
    await Promise.all(callers);
    // Each restart had calls in flight (the slow hovers queue at the server) when it was asked.
    const overlapping = asked.map((at) => calls.filter((call) => call.sent < at && call.done > at).length);
    expect(
      overlapping.every((n) => n > 0),
      `calls in flight at each restart: ${overlapping}`,
    ).toBe(true);
    expect(restarts.map((status) => status.state)).toEqual(["ready", "ready", "ready"]);
    expect(unexpected).toEqual([]);
    expect(outcomes.get("ok")).toBeGreaterThan(0);
    const status = (await bridge.ok("session_status")).sessions[0];
    expect(status).toMatchObject({ state: "ready", restarts: 3 });
    console.log(`[figure] restart-race outcomes=${JSON.stringify(Object.fromEntries(outcomes))} in_flight_at_restarts=${overlapping}`);
  });
});
