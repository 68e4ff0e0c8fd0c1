// reapTree and signal in isolation, on processes the test starts itself.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, test } from "vitest";
import { reapTree, signal } from "../../src/supervision/kill-tree.js";
import { identify } from "../../src/supervision/proc-table.js";
import { startDecoy } from "./helpers/decoy.js";
import { alive } from "../helpers/proc.js";

describe("kill-tree", () => {
  test("signal() refuses a pid whose start time does not match (a reused pid is never hit)", async () => {
    const decoy = await startDecoy();
    try {
      const real = identify(decoy.proc.pid)!;
      expect(signal({ pid: real.pid, startTime: real.startTime - 1 }, "SIGKILL")).toBe(false);
      expect(alive(decoy.proc)).toBe(true);
    } finally {
      decoy.kill();
    }
  });

  test("reapTree: SIGTERM first, SIGKILL after the grace for what ignores it", async () => {
    const polite = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)"], { stdio: "ignore" });
    await once(polite, "spawn");
    const stubborn = await startDecoy();
    const members = [identify(polite.pid!)!, identify(stubborn.proc.pid)!];
    const exited = once(polite, "exit");
    const outcome = await reapTree(() => members.filter((m) => identify(m.pid)?.startTime === m.startTime), { termGraceMs: 300, confirmDeadlineMs: 2000 });
    expect(outcome.remaining).toBe(0);
    expect(outcome.signalled).toBe(2);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(300);
    expect((await exited)[1]).toBe("SIGTERM");
    expect(alive(stubborn.proc)).toBe(false);
  });

  test("reapTree of an empty tree returns at once", async () => {
    expect(await reapTree(() => [], { termGraceMs: 1000, confirmDeadlineMs: 1000 })).toMatchObject({ signalled: 0, remaining: 0 });
  });
});
