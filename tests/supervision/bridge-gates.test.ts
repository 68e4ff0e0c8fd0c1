// Bridge-level tree gates: the real `lspmcp serve` with the fake server as its one session. For
// session_restart, stdin EOF, SIGTERM, SIGINT, SIGHUP and SIGKILL of the bridge, and for a bridge
// start after bridge and supervisor were killed together (orphan sweep): every process of the old
// tree is gone from /proc within 5 s, and a decoy with the fake daemon's command line survives.
// The 5 s run from the event and leave out the time a loaded machine kept the processes from a
// CPU (tests/helpers/gate-clock.ts). Each gate runs three times. Needs `npm run build`
// (dist/lspmcp/main.js).
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { requireBuild } from "../helpers/require-binary.js";
import { callTool, startBridge, sweptPids, writeFakeConfig, type Bridge, type SessionStatus } from "./helpers/bridge-process.js";
import { startDecoy, type Decoy } from "./helpers/decoy.js";
import { MARK_VAR } from "./helpers/fake-session.js";
import { sweepUser, type SweepUser } from "./helpers/sweep-user.js";
import { expectGoneWithin, GateClock, goneWithin } from "../helpers/gate-clock.js";
import { pollUntil } from "../helpers/poll.js";
import { alive, killLeftovers, proc, type Proc, treeByEnv, waitAllGone } from "../helpers/proc.js";

const RUNS = [1, 2, 3];
const LIMIT_MS = 5000;

let decoy: Decoy;
let userDecoy: Decoy | undefined;
let bridges: Bridge[] = [];
let trees: Proc[][] = [];
beforeEach(async () => {
  decoy = await startDecoy();
});
afterEach(() => {
  for (const b of bridges) b.child.kill("SIGKILL");
  for (const t of trees) killLeftovers(t);
  bridges = [];
  trees = [];
  expect(alive(decoy.proc)).toBe(true);
  decoy.kill();
  userDecoy?.kill();
  userDecoy = undefined;
});

/** A bridge with its fake session started through session_restart; returns the whole tree. */
async function bridgeWithSession(user?: SweepUser): Promise<{ bridge: Bridge; tree: Proc[]; mark: string; status: SessionStatus }> {
  const mark = randomUUID();
  const bridge = await startBridge(writeFakeConfig({ [MARK_VAR]: mark }, user), user);
  bridges.push(bridge);
  const status = await callTool<SessionStatus>(bridge, "session_restart", { server: "fake" });
  expect(status.state).toBe("ready");
  const tree = [...treeByEnv(MARK_VAR, mark, [status.pid!]), proc(status.supervisor_pid!)!];
  trees.push(tree);
  // supervisor + server + child + daemon
  expect(tree.length).toBeGreaterThanOrEqual(4);
  expect(status.tree_processes).toBe(tree.length - 1);
  return { bridge, tree, mark, status };
}

requireBuild();

describe("bridge gates: lspmcp serve + fake server", () => {
  test.each(RUNS)("session_restart: the old tree is gone before it returns (run %i)", async () => {
    const { bridge, tree } = await bridgeWithSession();
    const status = await callTool<SessionStatus>(bridge, "session_restart", { server: "fake" });
    expect(status.state).toBe("ready");
    expect(await waitAllGone(tree, 0)).toEqual([]);
    // A new tree stands in the old one's place.
    expect(tree.some((p) => p.pid === status.pid)).toBe(false);
    expect(status.tree_processes).toBeGreaterThanOrEqual(3);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("stdin EOF: the bridge exits 0 and the tree is gone (run %i)", async () => {
    const { bridge, tree, status } = await bridgeWithSession();
    const clock = new GateClock([bridge.child.pid!, status.supervisor_pid!]);
    bridge.child.stdin!.end();
    expect(await bridge.exit).toEqual({ code: 0, signal: null });
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
    expect(alive(decoy.proc)).toBe(true);
  });

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    test.each(RUNS)(`${signal}: the bridge exits and the tree is gone (run %i)`, async () => {
      const { bridge, tree, status } = await bridgeWithSession();
      const clock = new GateClock([bridge.child.pid!, status.supervisor_pid!]);
      bridge.child.kill(signal);
      const exit = await bridge.exit;
      expect(exit.code === 0 || exit.signal === signal).toBe(true);
      expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
      expect(alive(decoy.proc)).toBe(true);
    });
  }

  test.each(RUNS)("SIGKILL: the supervisor reaps the tree on its own (run %i)", async () => {
    const { bridge, tree, status } = await bridgeWithSession();
    const clock = new GateClock([status.supervisor_pid!]);
    bridge.child.kill("SIGKILL");
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("bridge and supervisor SIGKILLed together: the next bridge's start sweeps the orphans (run %i)", async () => {
    // Every bridge of the suite sweeps at its start: the trees here run as a uid of their own, out
    // of the other bridges' reach, so that this gate proves what the next bridge did.
    const user = sweepUser(1);
    userDecoy = await startDecoy(user);
    const { bridge, tree, status } = await bridgeWithSession(user);
    const supervisor = tree.find((p) => p.pid === status.supervisor_pid)!;
    const bridgeProc = proc(bridge.child.pid!)!;
    process.kill(bridgeProc.pid, "SIGSTOP");
    process.kill(supervisor.pid, "SIGKILL");
    bridge.child.kill("SIGKILL");
    expect(await waitAllGone([supervisor, bridgeProc], LIMIT_MS)).toEqual([]);
    // The server dies with its supervisor; its child and the setsid daemon survive both.
    expect(await pollUntil(() => !tree.some((p) => p.pid === status.pid && alive(p)), LIMIT_MS)).toBe(true);
    const orphans = tree.filter(alive);
    expect(orphans.length).toBeGreaterThanOrEqual(2);
    const clock = new GateClock();
    const next = await startBridge(writeFakeConfig({ [MARK_VAR]: randomUUID() }, user), user, (pid) => clock.add(pid));
    bridges.push(next);
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
    // It was this bridge's sweep: its log names every orphan (the line may trail the kill a little).
    expect(await pollUntil(() => orphans.every((p) => sweptPids(next).includes(p.pid)), LIMIT_MS)).toBe(true);
    expect(alive(userDecoy.proc)).toBe(true);
    expect(alive(decoy.proc)).toBe(true);
    next.child.stdin!.end();
    expect((await next.exit).code).toBe(0);
  });
});
