import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace } from "../helpers/fake-config.js";

// The standard rule's quiet window, on timings no real server shows on demand: a server that
// publishes in two phases without a version (an empty set at once, its findings 400 ms later,
// as typescript-language-server publishes syntax before types), nothing said in between. Its
// first publish describes the synced text as well as its last; only the silence after it tells
// them apart.
const PHASE_GAP_MS = 400;
// A server that computes in silence for longer than its window (a cold type check on a loaded
// machine): the window is not quiet while its process tree keeps using CPU.
const BUSY_GAP_MS = 4000;

describe("a server that publishes in phases, under the standard rule", () => {
  let bridge: Bridge;
  let root: string;
  beforeAll(async () => {
    const { config, root: made } = fakeWorkspace(
      [
        { name: "phased", extension: ".fake", flags: ["--phases", String(PHASE_GAP_MS)], keys: "settle_quiet_ms = 1500\n" },
        { name: "phased-no-window", extension: ".nowin", flags: ["--phases", String(PHASE_GAP_MS)], keys: "settle_quiet_ms = 0\n" },
        { name: "busy", extension: ".busy", flags: ["--busy-phases", String(BUSY_GAP_MS)], keys: "settle_quiet_ms = 1000\n" },
      ],
      "request_timeout_ms = 20000",
    );
    root = made;
    bridge = await startBridge(config);
  });
  afterAll(async () => bridge?.close());

  test("with a window longer than the gap between its phases, every answer is the last phase, never the empty first", async () => {
    for (let run = 0; run < 5; run++) {
      const started = Date.now();
      const answer = await bridge.ok("diagnostics", { path: "a.fake" });
      expect(answer.items.map((item: { range: { start: { line: number } } }) => item.range.start.line)).toEqual([2, 4]);
      // Never before the last publish plus the window.
      if (run === 0) expect(Date.now() - started).toBeGreaterThanOrEqual(PHASE_GAP_MS + 1500);
    }
  }, 60_000);

  test("a server computing in silence for longer than the window is waited for: the window restarts while its tree uses CPU", async () => {
    for (let run = 0; run < 2; run++) {
      const started = Date.now();
      const answer = await bridge.ok("diagnostics", { path: "a.busy" });
      expect(answer.items.map((item: { range: { start: { line: number } } }) => item.range.start.line)).toEqual([2, 4]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_GAP_MS);
      // A change, so that the next run is a new version with its two phases again.
      writeFileSync(join(root, "a.busy"), `${readFileSync(join(root, "a.busy"), "utf8")}\n`);
    }
  }, 60_000);

  test("with no window, the file is answered as not settled (Timeout naming it), never clean, and the bridge answers the next call", async () => {
    const error = await bridge.fail("diagnostics", { path: "a.nowin" });
    expect(error.code).toBe("Timeout");
    expect(error.message).toContain("a.nowin");
    expect(error.message).toContain("settle_quiet_ms");
    const answer = await bridge.ok("diagnostics", { path: "a.fake" });
    expect(answer.items).toHaveLength(2);
  }, 60_000);
});
