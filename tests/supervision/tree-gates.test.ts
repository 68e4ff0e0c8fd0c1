// Tree gates against spawnSupervised directly, with the fake server and its daemon: after each way
// a session can end, every process of the old tree is gone from /proc within 5 s, and a decoy with
// the daemon's very command line survives. Each gate runs three times to shake out races. The 5 s
// run from the event and leave out the time a loaded machine kept the processes from a CPU
// (tests/helpers/gate-clock.ts); how fast a reap is, is bench/supervision.mjs's figure.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startDecoy, type Decoy } from "./helpers/decoy.js";
import { startFakeSession, type FakeSession } from "./helpers/fake-session.js";
import { expectGoneWithin, GateClock, goneWithin } from "../helpers/gate-clock.js";
import { alive, killLeftovers, proc, waitAllGone } from "../helpers/proc.js";

const RUNS = [1, 2, 3];
const LIMIT_MS = 5000;

let decoy: Decoy;
let session: FakeSession | undefined;
beforeEach(async () => {
  decoy = await startDecoy();
});
afterEach(async () => {
  await session?.server.stop();
  session?.connection.dispose();
  // Gates assert on their own; this only keeps a failed gate from leaking its daemons.
  if (session) killLeftovers(session.tree);
  session = undefined;
  expect(alive(decoy.proc)).toBe(true);
  decoy.kill();
});

function expectFullTree(s: FakeSession): void {
  // server + normal child + daemon: the gate would prove nothing on a smaller tree.
  expect(s.tree.length).toBeGreaterThanOrEqual(3);
  expect(s.server.liveProcessCount()).toBe(s.tree.length);
}

describe("tree gates: spawnSupervised + fake server", () => {
  test.each(RUNS)("stop() reaps server, child and setsid daemon (run %i)", async () => {
    session = await startFakeSession();
    expectFullTree(session);
    const supervisor = proc(session.server.supervisorPid)!;
    const clock = new GateClock([supervisor.pid, session.server.serverPid]);
    await session.server.stop();
    expect(clock.chargedMs()).toBeLessThanOrEqual(LIMIT_MS);
    expect(await waitAllGone([...session.tree, supervisor], 0)).toEqual([]);
    expect(session.server.liveProcessCount()).toBe(0);
    expect(alive(decoy.proc)).toBe(true);
    await session.server.stop(); // idempotent
  });

  test.each(RUNS)("a server crash takes its whole tree down, without stop() (run %i)", async () => {
    session = await startFakeSession();
    expectFullTree(session);
    const clock = new GateClock([session.server.supervisorPid, session.server.serverPid]);
    await session.connection.sendNotification("fake/crash", { code: 70 });
    expect(await session.server.exited).toEqual({ code: 70, signal: null });
    expectGoneWithin(await goneWithin(session.tree, clock, LIMIT_MS), LIMIT_MS);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("SIGKILL of the supervisor: the bridge reaps what is left (run %i)", async () => {
    session = await startFakeSession();
    expectFullTree(session);
    const clock = new GateClock([session.server.serverPid]);
    process.kill(session.server.supervisorPid, "SIGKILL");
    // The supervisor cannot report how the server ended: the bridge records it as killed.
    expect(await session.server.exited).toEqual({ code: null, signal: "SIGKILL" });
    expectGoneWithin(await goneWithin(session.tree, clock, LIMIT_MS), LIMIT_MS);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("a double-forked daemon re-parented to init is reaped too (run %i)", async () => {
    session = await startFakeSession(["--double-fork"]);
    expectFullTree(session);
    await session.server.stop();
    expect(await waitAllGone(session.tree, 0)).toEqual([]);
    expect(alive(decoy.proc)).toBe(true);
  });

  test.each(RUNS)("a re-parented child with an empty environment is found through the session (run %i)", async () => {
    session = await startFakeSession(["--orphan-without-env"]);
    const { orphans } = await session.connection.sendRequest<{ orphans: number[] }>("fake/pids");
    const orphan = proc(orphans[0]!)!;
    // Neither the token nor a parent link leads to it: only its session does.
    expect(orphan.ppid).not.toBe(session.server.serverPid);
    expect(readFileSync(`/proc/${orphan.pid}/environ`, "utf8")).not.toContain("LSPMCP_SESSION_TOKEN");
    expect(session.server.liveProcessCount()).toBe(session.tree.length + 1);
    await session.server.stop();
    expect(await waitAllGone([...session.tree, orphan], 0)).toEqual([]);
    expect(alive(decoy.proc)).toBe(true);
  });

  test("a server that ignores SIGTERM is SIGKILLed after the grace", async () => {
    session = await startFakeSession(["--ignore-sigterm"], { termGraceMs: 200 });
    expectFullTree(session);
    await session.server.stop();
    expect(await waitAllGone(session.tree, 0)).toEqual([]);
    expect((await session.server.exited).signal).toBe("SIGKILL");
  });

  test("liveProcessCount follows the tree as it grows", async () => {
    session = await startFakeSession();
    const before = session.server.liveProcessCount();
    await session.connection.sendRequest("fake/spawnDaemon");
    expect(session.server.liveProcessCount()).toBe(before + 1);
  });
});
