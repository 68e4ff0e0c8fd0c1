// How long a shared server lives: while any peer remains, then it reaps its trees and removes its
// lease; `lspmcp status` shows it, its peers and its sessions (with their memory).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Bridge } from "../helpers/bridge.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import type { Proc } from "../helpers/proc.js";
import { expectGoneWithin, GateClock, goneWithin } from "../helpers/gate-clock.js";
import { leaseFileName, leaseOf, SharedRun, sharedFixture, supervisors, treeOf, tsServers } from "./helpers/shared.js";

// CONTRACT §1's 5 s, from the event, without the time a loaded machine kept the processes from a
// CPU (tests/helpers/gate-clock.ts); the shared server lingers linger_ms (200 here) first.
const LIMIT_MS = 5000;
/** A clock from now, charging the shared server and its supervisors' waits for a CPU. */
const clockOf = (tree: readonly Proc[], server: number): GateClock => new GateClock([server, ...supervisors(tree).map((p) => p.pid)]);

const run = new SharedRun();

afterEach(() => run.cleanUp());

/** The shared server's tree once a TypeScript session runs in it. */
async function warmTree(worker: Bridge): Promise<Proc[]> {
  await worker.ok("document_symbols", { path: "src/greet.ts" });
  const tree = treeOf(leaseOf(run.fixture!)!.pid);
  run.seen.push(...tree);
  expect(tsServers(tree)).toHaveLength(1);
  return tree;
}

function status(...extra: string[]): { code: number | null; stdout: string } {
  const result = spawnSync(process.execPath, [BRIDGE_MAIN, "status", "--config", run.fixture!.config, ...extra], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout };
}

function leasePresent(): boolean {
  const name = leaseFileName(run.fixture!);
  return name !== undefined && existsSync(join(run.fixture!.leaseDir, name));
}

describe("shared server lifetime", () => {
  it("lives while a peer remains; the last one leaving ends it with no process and no lease left", async () => {
    const fixture = run.use(sharedFixture({ linger_ms: 200 }));
    const [a, b] = [await run.attach(), await run.attach()];
    const tree = await warmTree(a);
    await a.close();
    // b is still attached: nothing of the server may go (b's next call is answered by the same tree).
    await b.ok("document_symbols", { path: "src/greet.ts" });
    expect(tree.every((p) => treeOf(leaseOf(fixture)!.pid).some((q) => q.pid === p.pid))).toBe(true);
    const clock = clockOf(tree, leaseOf(fixture)!.pid);
    await b.close();
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS + 200), LIMIT_MS + 200);
    // The shared server (in the tree) removes its lease before it exits.
    expect(leasePresent()).toBe(false);
  });

  it("a SIGKILLed last peer is noticed through its socket closing: the server ends just the same", async () => {
    const fixture = run.use(sharedFixture({ linger_ms: 200 }));
    const worker = await run.attach();
    const tree = await warmTree(worker);
    const clock = clockOf(tree, leaseOf(fixture)!.pid);
    process.kill(worker.pid, "SIGKILL");
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS + 200), LIMIT_MS + 200);
    expect(leasePresent()).toBe(false);
  });

  it("a SIGTERMed shared server removes its lease and reaps its tree; its workers move on to a successor unharmed", async () => {
    const fixture = run.use(sharedFixture());
    const worker = await run.attach();
    const tree = await warmTree(worker);
    const first = leaseOf(fixture)!.pid;
    // The worker is held still until the server is gone, so that no successor's election (which
    // takes over a stale lease all the same) can stand in for the lease the server removed.
    process.kill(worker.pid, "SIGSTOP");
    const clock = clockOf(tree, first);
    process.kill(first, "SIGTERM");
    try {
      expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
      expect(leaseFileName(fixture)).toBeUndefined();
    } finally {
      process.kill(worker.pid, "SIGCONT");
    }
    const symbols = await worker.ok<{ items: { name: string }[] }>("document_symbols", { path: "src/greet.ts" });
    expect(symbols.items.map((item) => item.name)).toContain("greet");
    const second = leaseOf(fixture)!;
    expect(second.pid).not.toBe(first);
    run.seen.push(...treeOf(second.pid));
  });

  it("lspmcp status lists the shared server, its peers and its sessions, and exits 1 when there is none", async () => {
    const fixture = run.use(sharedFixture({ linger_ms: 200 }));
    const none = status();
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("no shared server");

    const [a, b] = [await run.attach(), await run.attach()];
    await warmTree(a);
    const json = status("--format", "json");
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.shared).toBe(true);
    expect(report.server.pid).toBe(leaseOf(fixture)!.pid);
    expect(report.server.leaseholder).toBe(true);
    expect(report.server).toMatchObject({ build: leaseOf(fixture)!.build, stale: false });
    expect(report.server.build).toMatch(/^[0-9a-f]{64}$/);
    expect(report.peers.map((peer: { peer_pid: number }) => peer.peer_pid).sort()).toEqual([a.pid, b.pid].sort());
    // The tree's memory beside the profile's cap (sampled each second, the first as the server starts).
    expect(report.sessions).toEqual([expect.objectContaining({ workspace: "app", server: "typescript", state: "ready", max_rss_mb: 4096 })]);
    expect(report.sessions[0].rss_mb).toBeGreaterThan(0);
    const text = status();
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^shared server pid \d+ at http:\/\/127\.0\.0\.1:\d+ /);
    expect(text.stdout).toContain("peers: 2");
    expect(text.stdout).toMatch(/app\/typescript: ready pid \d+, \d+ processes, [\d.]+ MiB of 4096 MiB/);
  });
});
