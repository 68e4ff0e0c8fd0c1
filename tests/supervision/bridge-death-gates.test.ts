// Tree gates for a bridge that dies without calling stop(): a separate node process plays the
// bridge (tests/supervision/fixtures/bridge-that-dies.mjs, using the compiled spawnSupervised).
// SIGKILL of the bridge alone: its supervisor sees EOF on the control pipe and reaps on its own.
// Bridge and supervisor killed together: nothing is left to reap, so the next bridge's
// sweepOrphans() must. Each gate runs three times.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sweepOrphans } from "../../src/supervision/orphan-sweep.js";
import { scrubbedEnv } from "../../src/supervision/server-env.js";
import { startDecoy, type Decoy } from "./helpers/decoy.js";
import { startDyingBridge, type DyingBridge } from "./helpers/dying-bridge.js";
import { MARK_VAR } from "./helpers/fake-session.js";
import { FAKE_SERVER } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { alive, killLeftovers, proc, type Proc, treeByEnv, waitAllGone } from "../helpers/proc.js";

const RUNS = [1, 2, 3];
const LIMIT_MS = 5000;

let decoy: Decoy;
let bridge: DyingBridge | undefined;
let lastTree: Proc[] = [];
beforeEach(async () => {
  decoy = await startDecoy();
});
afterEach(async () => {
  // A gate that leaves its bridge alive (the sweep-leaves-live-trees one) ends it here, and waits
  // for the supervisor to have reaped, so no process outlives the test file.
  if (bridge) {
    const supervisor = proc(bridge.supervisorPid);
    bridge.child.kill("SIGKILL");
    if (supervisor) expect(await waitAllGone([supervisor], LIMIT_MS)).toEqual([]);
  }
  bridge = undefined;
  killLeftovers(lastTree);
  expect(alive(decoy.proc)).toBe(true);
  decoy.kill();
});

async function startFakeUnderDyingBridge(): Promise<{ tree: Proc[]; supervisor: Proc; mark: string }> {
  const mark = randomUUID();
  bridge = await startDyingBridge({
    command: process.execPath,
    args: [FAKE_SERVER],
    env: scrubbedEnv({ [MARK_VAR]: mark }),
    cwd: "/tmp",
    minLive: 3,
  });
  const tree = treeByEnv(MARK_VAR, mark, [bridge.serverPid]);
  lastTree = tree;
  expect(tree.length).toBeGreaterThanOrEqual(3);
  return { tree, supervisor: proc(bridge.supervisorPid)!, mark };
}

describe("tree gates: the bridge dies", () => {
  test.each(RUNS)("bridge SIGKILL: the supervisor reaps the tree and itself (run %i)", async () => {
    const { tree, supervisor } = await startFakeUnderDyingBridge();
    const started = Date.now();
    bridge!.child.kill("SIGKILL");
    expect(await waitAllGone([...tree, supervisor], LIMIT_MS)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(LIMIT_MS);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("bridge and supervisor SIGKILLed together: sweepOrphans reaps the rest (run %i)", async () => {
    const { tree, supervisor } = await startFakeUnderDyingBridge();
    const bridgeProc = proc(bridge!.pid)!;
    // Freeze the bridge first, so that it cannot notice its supervisor's death and clean up.
    process.kill(bridgeProc.pid, "SIGSTOP");
    process.kill(supervisor.pid, "SIGKILL");
    expect(await waitAllGone([supervisor], LIMIT_MS)).toEqual([]);
    bridge!.child.kill("SIGKILL");
    expect(await waitAllGone([bridgeProc], LIMIT_MS)).toEqual([]);
    // The server dies with its supervisor (pdeathsig); the daemon and the child do not.
    expect(await pollUntil(() => !tree.some((p) => p.pid === bridge!.serverPid && alive(p)), LIMIT_MS)).toBe(true);
    // Any bridge that starts meanwhile (other test files run in parallel) sweeps orphans too, so
    // how many are left for this sweep is not ours to fix; that the tree goes within 5 s is.
    // (A concurrent sweep between the next line and ours would fail the `reaped` check below;
    // that window is a few milliseconds.)
    const logged: Array<{ msg: string; fields?: object }> = [];
    const orphans = tree.filter(alive);
    const started = Date.now();
    const { reaped } = await sweepOrphans((msg, fields) => logged.push({ msg, fields }));
    expect(Date.now() - started).toBeLessThan(LIMIT_MS);
    expect(await waitAllGone(tree, 0)).toEqual([]);
    // `reaped` counts every orphaned tree of this uid, other test files' included.
    if (orphans.length > 0) expect(reaped).toBeGreaterThan(0);
    if (reaped > 0) expect(logged.some((l) => l.msg.includes("orphan"))).toBe(true);
    expect(alive(decoy.proc)).toBe(true);
  });

  test("sweepOrphans leaves the trees of a live bridge alone", async () => {
    const { tree, supervisor } = await startFakeUnderDyingBridge();
    await sweepOrphans();
    expect(tree.every(alive)).toBe(true);
    expect(alive(supervisor)).toBe(true);
  });
});
