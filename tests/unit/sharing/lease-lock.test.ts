import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { childrenOf, GateClock, waitForExit } from "../../helpers/proc.js";
import { acquireLock, withLock, type HeldLock } from "../../../src/sharing/lease-lock.js";
import { tempDir } from "./fixture.js";

let dir: string;
let cleanup: () => void;
let lockPath: string;
const children: ChildProcess[] = [];
const held: HeldLock[] = [];

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  lockPath = join(dir, "bridge.lock");
});
afterEach(async () => {
  await Promise.all(held.splice(0).map((lock) => lock.release()));
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  cleanup();
});

/** Whether anyone else could take the lock right now (a non-blocking flock(1) from outside). */
function lockIsFree(path: string): boolean {
  return spawnSync("flock", ["--nonblock", "--exclusive", path, "true"]).status === 0;
}

async function take(path: string, until = Date.now() + 10_000): Promise<HeldLock> {
  const lock = await acquireLock(path, until);
  held.push(lock);
  return lock;
}

/** Resolves with "pending" when `promise` has not settled within `ms` (a negative check, not a readiness wait). */
function stillPending<T>(promise: Promise<T>, ms: number): Promise<"pending" | "settled"> {
  return Promise.race([
    promise.then(
      () => "settled" as const,
      () => "settled" as const,
    ),
    new Promise<"pending">((r) => setTimeout(() => r("pending"), ms)),
  ]);
}

/** Spawns `command`, resolves once it printed `held` on stdout. */
function spawnHolder(command: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolveHeld, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("held")) resolveHeld(child);
    });
    child.once("exit", (code, signal) => reject(new Error(`holder exited early: ${code ?? signal}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

describe("acquireLock", () => {
  test("holds a real kernel lock until released; release waits for the lock to be gone", async () => {
    const lock = await acquireLock(lockPath, Date.now() + 10_000);
    expect(lockIsFree(lockPath)).toBe(false);
    await lock.release();
    expect(lockIsFree(lockPath)).toBe(true);
  });

  test("a second acquirer gets the lock only after the first releases", async () => {
    const events: string[] = [];
    const first = await take(lockPath);
    const second = acquireLock(lockPath, Date.now() + 10_000).then((lock) => {
      events.push("second acquired");
      held.push(lock);
      return lock;
    });
    expect(await stillPending(second, 300)).toBe("pending");
    expect(events).toEqual([]);
    events.push("first releasing");
    await first.release();
    held.splice(held.indexOf(first), 1);
    await second;
    expect(events).toEqual(["first releasing", "second acquired"]);
    expect(lockIsFree(lockPath)).toBe(false);
  });

  test("rejects with 'timed out' when the lock stays held past the deadline", async () => {
    await take(lockPath);
    const holders = childrenOf(process.pid);
    // Charged net of the time a loaded machine kept this process and the waiting flock from a CPU.
    const clock = new GateClock();
    const waiting = acquireLock(lockPath, clock.since + 300);
    for (const pid of childrenOf(process.pid)) if (!holders.includes(pid)) clock.add(pid);
    await expect(waiting).rejects.toThrow(/timed out/);
    expect(clock.elapsedMs()).toBeGreaterThanOrEqual(200);
    expect(clock.chargedMs()).toBeLessThan(5_000);
  });

  test("a deadline already past still tries once: a free lock is taken", async () => {
    const lock = await take(lockPath, Date.now() - 1_000);
    expect(lockIsFree(lockPath)).toBe(false);
    await lock.release();
  });

  test("a deadline already past on a held lock rejects quickly", async () => {
    await take(lockPath);
    await expect(acquireLock(lockPath, Date.now() - 1_000)).rejects.toThrow(/timed out/);
  });

  test("a lock file that cannot be opened rejects, naming the path", async () => {
    const bad = join(dir, "absent", "bridge.lock");
    await expect(acquireLock(bad, Date.now() + 2_000)).rejects.toThrow(/cannot lock .*absent/);
  });

  test("locks on different paths do not wait for each other", async () => {
    await take(lockPath);
    const other = await take(join(dir, "other.lock"), Date.now() + 2_000);
    expect(other).toBeDefined();
  });

  test("an outside flock holder that is SIGKILLed frees the lock", async () => {
    // --no-fork: the shell (then sleep) is the flock process itself, so its death drops the lock.
    const holder = await spawnHolder("flock", ["--exclusive", "--no-fork", lockPath, "-c", "echo held; exec sleep 1000"]);
    const waiting = acquireLock(lockPath, Date.now() + 20_000);
    expect(await stillPending(waiting, 300)).toBe("pending");
    holder.kill("SIGKILL");
    held.push(await waiting);
    expect(lockIsFree(lockPath)).toBe(false);
  });

  test("a node process holding the lock through acquireLock and SIGKILLed frees it", async () => {
    // The module under test and the one it imports (which imports only node: builtins),
    // transpiled as they are, in their folders.
    for (const module of ["sharing/lease-lock", "exec/own-command"]) {
      const source = readFileSync(fileURLToPath(new URL(`../../../src/${module}.ts`, import.meta.url)), "utf8");
      const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      mkdirSync(dirname(join(dir, `${module}.js`)), { recursive: true });
      writeFileSync(join(dir, `${module}.js`), js);
    }
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    const script = join(dir, "holder.mjs");
    writeFileSync(
      script,
      `import { acquireLock } from "./sharing/lease-lock.js";
       await acquireLock(${JSON.stringify(lockPath)}, Date.now() + 10000);
       process.stdout.write("held\\n");
       setInterval(() => {}, 1000);`,
    );
    const holder = await spawnHolder(process.execPath, [script]);
    expect(lockIsFree(lockPath)).toBe(false);
    const flockPids = childrenOf(holder.pid!);
    expect(flockPids.length).toBe(1);
    const waiting = acquireLock(lockPath, Date.now() + 20_000);
    expect(await stillPending(waiting, 300)).toBe("pending");
    holder.kill("SIGKILL");
    await exited(holder);
    held.push(await waiting);
    // The orphaned flock child (and its cat) went away with the pipe: nothing is left behind.
    expect(await waitForExit(flockPids[0]!, 5_000)).toBe(true);
  });
});

describe("withLock", () => {
  test("runs the body under the lock and returns its value", async () => {
    const value = await withLock(lockPath, Date.now() + 10_000, async () => {
      expect(lockIsFree(lockPath)).toBe(false);
      return 42;
    });
    expect(value).toBe(42);
    expect(lockIsFree(lockPath)).toBe(true);
  });

  test("releases the lock when the body throws, and rethrows", async () => {
    await expect(
      withLock(lockPath, Date.now() + 10_000, async () => {
        throw new Error("body failed");
      }),
    ).rejects.toThrow("body failed");
    expect(lockIsFree(lockPath)).toBe(true);
  });

  test("serializes bodies: they never overlap", async () => {
    let inside = 0;
    let most = 0;
    const body = async (): Promise<void> => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, 20));
      inside--;
    };
    await Promise.all(Array.from({ length: 5 }, () => withLock(lockPath, Date.now() + 20_000, body)));
    expect(most).toBe(1);
  });

  test("does not run the body when the lock times out", async () => {
    await take(lockPath);
    let ran = false;
    await expect(
      withLock(lockPath, Date.now() + 200, async () => {
        ran = true;
      }),
    ).rejects.toThrow(/timed out/);
    expect(ran).toBe(false);
  });
});
