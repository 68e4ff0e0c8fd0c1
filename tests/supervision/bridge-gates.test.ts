// Bridge-level tree gates: the real `lspmcp serve` with the fake server as its one session. For
// session_restart, stdin EOF, SIGTERM, SIGINT, SIGHUP and SIGKILL of the bridge, and for a bridge
// start after bridge and supervisor were killed together (orphan sweep): every process of the old
// tree is gone from /proc within 5 s, and a decoy with the fake daemon's command line survives.
// Each gate runs three times. Needs `npm run build` (dist/lspmcp/main.js).
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { requireBuild } from "../helpers/require-binary.js";
import { callTool, startBridge, writeFakeConfig, type Bridge, type SessionStatus } from "./helpers/bridge-process.js";
import { startDecoy, type Decoy } from "./helpers/decoy.js";
import { MARK_VAR } from "./helpers/fake-session.js";
import { alive, killLeftovers, proc, type Proc, treeByEnv, waitAllGone } from "../helpers/proc.js";

const RUNS = [1, 2, 3];
const LIMIT_MS = 5000;

let decoy: Decoy;
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
});

/** A bridge with its fake session started through session_restart; returns the whole tree. */
async function bridgeWithSession(): Promise<{ bridge: Bridge; tree: Proc[]; mark: string; status: SessionStatus }> {
  const mark = randomUUID();
  const bridge = await startBridge(writeFakeConfig({ [MARK_VAR]: mark }));
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
    const { bridge, tree } = await bridgeWithSession();
    const started = Date.now();
    bridge.child.stdin!.end();
    expect(await bridge.exit).toEqual({ code: 0, signal: null });
    expect(await waitAllGone(tree, LIMIT_MS - (Date.now() - started))).toEqual([]);
    expect(alive(decoy.proc)).toBe(true);
  });

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    test.each(RUNS)(`${signal}: the bridge exits and the tree is gone (run %i)`, async () => {
      const { bridge, tree } = await bridgeWithSession();
      const started = Date.now();
      bridge.child.kill(signal);
      const exit = await bridge.exit;
      expect(exit.code === 0 || exit.signal === signal).toBe(true);
      expect(await waitAllGone(tree, LIMIT_MS - (Date.now() - started))).toEqual([]);
      expect(alive(decoy.proc)).toBe(true);
    });
  }

  test.each(RUNS)("SIGKILL: the supervisor reaps the tree on its own (run %i)", async () => {
    const { bridge, tree } = await bridgeWithSession();
    const started = Date.now();
    bridge.child.kill("SIGKILL");
    expect(await waitAllGone(tree, LIMIT_MS)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(LIMIT_MS);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("bridge and supervisor SIGKILLed together: the next bridge's start sweeps the orphans (run %i)", async () => {
    const { bridge, tree, status } = await bridgeWithSession();
    const supervisor = tree.find((p) => p.pid === status.supervisor_pid)!;
    const bridgeProc = proc(bridge.child.pid!)!;
    process.kill(bridgeProc.pid, "SIGSTOP");
    process.kill(supervisor.pid, "SIGKILL");
    bridge.child.kill("SIGKILL");
    expect(await waitAllGone([supervisor, bridgeProc], LIMIT_MS)).toEqual([]);
    // The child and the setsid daemon survive both (unless a bridge of a parallel test file
    // swept them already, which is fine too).
    const orphans = tree.filter(alive);
    const started = Date.now();
    const next = await startBridge(writeFakeConfig({ [MARK_VAR]: randomUUID() }));
    bridges.push(next);
    expect(await waitAllGone(tree, LIMIT_MS - (Date.now() - started))).toEqual([]);
    if (orphans.length > 0 && /orphan/.test(next.stderr()) === false) {
      // Gone without this bridge's sweep: only a concurrent sweep may have taken them.
      expect(orphans.every((p) => !alive(p))).toBe(true);
    }
    expect(alive(decoy.proc)).toBe(true);
    next.child.stdin!.end();
    expect((await next.exit).code).toBe(0);
  });
});
