// The prestarted supervisor (`check` starts one while it loads): the next spawnSupervised runs its
// server under it, one nobody takes is ended (by discardPrestarted, or by itself when its bridge
// dies), and one killed while it waited is replaced by a fresh one.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { discardPrestarted, prestartSupervisor } from "../../src/supervision/prestarted-supervisor.js";
import { scrubbedEnv } from "../../src/supervision/server-env.js";
import { spawnSupervised } from "../../src/supervision/spawn-supervised.js";
import type { SpawnSpec, SupervisedServer } from "../../src/supervision/types.js";
import { FAKE_SERVER, REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { allProcs, isAlive, proc } from "../helpers/proc.js";

const PRESTART_THEN_DIE = join(REPO, "tests/supervision/fixtures/prestart-then-die.mjs");
const spec = (label: string): SpawnSpec => ({
  command: process.execPath,
  args: [FAKE_SERVER, "--no-daemon", "--no-child"],
  env: scrubbedEnv({}),
  cwd: "/tmp",
  label,
});
/** This process's prestarted supervisors, as /proc shows them. */
const prestarted = () => allProcs().filter((p) => p.ppid === process.pid && p.cmdline.includes("--supervise --label prestarted"));

let running: SupervisedServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await discardPrestarted();
});

describe("prestarted supervisor", () => {
  test("the next server starts under the prestarted supervisor", async () => {
    prestartSupervisor();
    expect(await pollUntil(() => prestarted().length === 1, 10_000)).toBe(true);
    const [waiting] = prestarted();
    running = await spawnSupervised(spec("test/prestarted"));
    expect(running.supervisorPid).toBe(waiting!.pid);
    expect(proc(running.serverPid)?.ppid).toBe(waiting!.pid);
    // Taken once: the next start has a supervisor of its own, under its own label.
    const second = await spawnSupervised(spec("test/cold"));
    try {
      expect(proc(second.supervisorPid)?.cmdline).toContain("--label test/cold");
    } finally {
      await second.stop();
    }
  });

  test("one nobody takes is ended by discardPrestarted", async () => {
    prestartSupervisor();
    expect(await pollUntil(() => prestarted().length === 1, 10_000)).toBe(true);
    const [waiting] = prestarted();
    await discardPrestarted();
    expect(isAlive(waiting!.pid)).toBe(false);
  });

  test("one killed while it waited is replaced by a fresh supervisor", async () => {
    prestartSupervisor();
    expect(await pollUntil(() => prestarted().length === 1, 10_000)).toBe(true);
    const [waiting] = prestarted();
    process.kill(waiting!.pid, "SIGKILL");
    expect(await pollUntil(() => !isAlive(waiting!.pid), 5000)).toBe(true);
    running = await spawnSupervised(spec("test/after-kill"));
    expect(running.supervisorPid).not.toBe(waiting!.pid);
    expect(isAlive(running.serverPid)).toBe(true);
  });

  test("it ends by itself when its bridge dies without taking it", async () => {
    const bridge = spawn(process.execPath, [PRESTART_THEN_DIE], { stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve) => bridge.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    const { supervisorPid } = JSON.parse(line) as { supervisorPid: number };
    expect(isAlive(supervisorPid)).toBe(true);
    bridge.kill("SIGKILL");
    expect(await pollUntil(() => !isAlive(supervisorPid), 5000)).toBe(true);
  });
});
