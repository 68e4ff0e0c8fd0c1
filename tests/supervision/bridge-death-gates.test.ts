// Tree gates for a bridge that dies without calling stop(): a separate node process plays the
// bridge (tests/supervision/fixtures/bridge-that-dies.mjs, using the compiled spawnSupervised).
// SIGKILL of the bridge alone: its supervisor sees EOF on the control pipe and reaps on its own.
// Bridge and supervisor killed together: nothing is left to reap, so the next bridge's
// sweepOrphans() must; those trees and that sweep run as a uid of their own, so that no other sweep
// of the suite can take the orphans first. The 5 s run from the event, without the time a loaded
// machine kept the processes from a CPU (tests/helpers/gate-clock.ts). Each gate runs three times.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sweepOrphans } from "../../src/supervision/orphan-sweep.js";
import { scrubbedEnv } from "../../src/supervision/server-env.js";
import { startDecoy, type Decoy } from "./helpers/decoy.js";
import { startDyingBridge, type DyingBridge } from "./helpers/dying-bridge.js";
import { MARK_VAR } from "./helpers/fake-session.js";
import { sweepAs, sweepUser, type SweepUser } from "./helpers/sweep-user.js";
import { expectGoneWithin, GateClock, goneWithin } from "../helpers/gate-clock.js";
import { FAKE_SERVER } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { alive, killLeftovers, proc, type Proc, treeByEnv, waitAllGone } from "../helpers/proc.js";

const RUNS = [1, 2, 3];
const LIMIT_MS = 5000;

let decoy: Decoy;
let userDecoy: Decoy | undefined;
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
  userDecoy?.kill();
  userDecoy = undefined;
});

async function startFakeUnderDyingBridge(user?: SweepUser): Promise<{ tree: Proc[]; supervisor: Proc; mark: string }> {
  const mark = randomUUID();
  bridge = await startDyingBridge(
    {
      command: process.execPath,
      args: [FAKE_SERVER],
      env: scrubbedEnv({ [MARK_VAR]: mark }),
      cwd: "/tmp",
      minLive: 3,
    },
    user,
  );
  const tree = treeByEnv(MARK_VAR, mark, [bridge.serverPid]);
  lastTree = tree;
  expect(tree.length).toBeGreaterThanOrEqual(3);
  return { tree, supervisor: proc(bridge.supervisorPid)!, mark };
}

describe("tree gates: the bridge dies", () => {
  test.each(RUNS)("bridge SIGKILL: the supervisor reaps the tree and itself (run %i)", async () => {
    const { tree, supervisor } = await startFakeUnderDyingBridge();
    const clock = new GateClock([supervisor.pid]);
    bridge!.child.kill("SIGKILL");
    expectGoneWithin(await goneWithin([...tree, supervisor], clock, LIMIT_MS), LIMIT_MS);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("bridge and supervisor SIGKILLed together: sweepOrphans reaps the rest (run %i)", async () => {
    const user = sweepUser(2);
    userDecoy = await startDecoy(user);
    const { tree, supervisor } = await startFakeUnderDyingBridge(user);
    const bridgeProc = proc(bridge!.pid)!;
    // Freeze the bridge first, so that it cannot notice its supervisor's death and clean up.
    process.kill(bridgeProc.pid, "SIGSTOP");
    process.kill(supervisor.pid, "SIGKILL");
    expect(await waitAllGone([supervisor], LIMIT_MS)).toEqual([]);
    // The server dies with its supervisor (pdeathsig); the daemon and the child do not.
    expect(await pollUntil(() => !tree.some((p) => p.pid === bridge!.serverPid && alive(p)), LIMIT_MS)).toBe(true);
    bridge!.child.kill("SIGKILL");
    expect(await waitAllGone([bridgeProc], LIMIT_MS)).toEqual([]);
    const orphans = tree.filter(alive);
    expect(orphans.length).toBeGreaterThanOrEqual(2);
    const clock = new GateClock();
    const sweep = await sweepAs(user, (pid) => clock.add(pid));
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
    // This user's only orphans are these: the sweep reaped exactly them, and logged their pids.
    expect(sweep.reaped).toBe(orphans.length);
    const logged = sweep.logged.filter((entry) => entry.message === "reaped orphaned process tree").flatMap((entry) => entry.pids ?? []);
    expect(logged.sort()).toEqual(orphans.map((p) => p.pid).sort());
    expect(alive(userDecoy.proc)).toBe(true);
    expect(alive(decoy.proc)).toBe(true);
  });

  test("sweepOrphans leaves the trees of a live bridge alone", async () => {
    const { tree, supervisor } = await startFakeUnderDyingBridge();
    await sweepOrphans();
    expect(tree.every(alive)).toBe(true);
    expect(alive(supervisor)).toBe(true);
  });
});
