import { readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { pollUntil } from "../helpers/poll.js";
import { isAlive, waitForExit } from "../helpers/proc.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { sharedServers } from "../sharing/helpers/shared.js";
import { vendoredRepo, type VendoredRepo } from "../helpers/vendored-repo.js";

// `since` in both modes (standalone, and the default: attached to a shared server), with a linter
// merged beside the type checker (typescript + biome on .ts), in a workspace that is a sub-folder
// of its git repository; then every way a bridge ends (EOF, SIGTERM, SIGKILL): the snapshot and its
// servers go, and nothing is written into the checkout. A small project, so that each end scenario
// is a fresh bridge at little cost; tsc and pyright on real code are tests/since/*-since.test.ts.
const SHARED_EXTENSIONS = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"];

const FILES = {
  "tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
  "old.ts": 'export const count: number = "three";\n',
  "lib.ts": "export function scale(a: number): number {\n  return a * 2;\n}\n",
  "use.ts": 'import { scale } from "./lib";\n\nexport const twice = scale(3);\n',
  "gone.ts": 'export const gone: number = "x";\nexport function stop(): void {\n  debugger;\n}\n',
};

interface Fixture {
  readonly repo: VendoredRepo;
  readonly runtime: string;
  readonly config: string;
}

function fixture(shared: boolean): Fixture {
  const repo = vendoredRepo(tempDir("lspmcp-since-empty-"), "packages/app", { extra: FILES });
  const runtime = tempDir("lspmcp-since-runtime-");
  const config = writeConfig(`
[bridge]
max_sessions = 4
request_timeout_ms = 120000

[shared]
enabled = ${shared}
lease_dir = ${JSON.stringify(runtime)}
linger_ms = 200

[[server]]
name = "typescript"
profile = "typescript"

[[server]]
name = "biome"
profile = "biome"

[[workspace]]
name = "app"
root = ${JSON.stringify(repo.root)}
servers = ["typescript", "biome"]
default_server = { ${SHARED_EXTENSIONS.map((extension) => `"${extension}" = "typescript"`).join(", ")} }
`);
  configs.push(config);
  return { repo, runtime, config };
}

interface Item {
  path: string;
  range: { start: { line: number; column: number } };
  severity: string;
  code: string;
  source: string;
}

interface Answer {
  items: Item[];
  total: number;
  files: number;
  since?: { revision: string; commit: string };
  introduced?: number;
  resolved?: number;
  unchanged?: number;
}

const keys = (items: readonly Item[]) => items.map((item) => `${item.path}:${item.range.start.line} ${item.source} ${item.code}`);

/** A `diagnostics` call that must succeed, with the totals of the progress notifications it sent (read off the wire). */
async function diagnostics(bridge: Bridge, args: Record<string, unknown>): Promise<{ answer: Answer; progress: Set<number> }> {
  const { result, progress } = await bridge.callWithProgress("diagnostics", { path: ".", min_severity: "error", limit: 1000, ...args });
  if (result.isError) throw new Error(`diagnostics failed: ${JSON.stringify(result.content)}`);
  return { answer: result.structuredContent as unknown as Answer, progress: new Set(progress.map((p) => p.total ?? -1)) };
}

const snapshots = (runtime: string) => readdirSync(runtime).filter((name) => name.startsWith("since-"));

/** Live processes whose working folder is under `dir` (a snapshot's servers run in its tree). */
function processesIn(dir: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(`${dir}/`) && isAlive(pid);
      } catch {
        return false;
      }
    });
}

/** The pid of the shared server holding the lease in `runtime`. */
function leaseholder(runtime: string): number {
  const name = readdirSync(runtime).find((entry) => entry.endsWith(".lease"));
  if (name === undefined) throw new Error("no lease");
  return JSON.parse(readFileSync(join(runtime, name), "utf8")).pid;
}

async function waitFor(condition: () => boolean, ms = 60_000): Promise<void> {
  expect(await pollUntil(condition, ms, 50)).toBe(true);
}

const started: Bridge[] = [];
const configs: string[] = [];
async function bridgeOf(fixture: Fixture, shared: boolean): Promise<Bridge> {
  const bridge = await startBridge(fixture.config, {}, { shared });
  started.push(bridge);
  return bridge;
}

afterAll(async () => {
  await Promise.all(started.map((bridge) => bridge.close().catch(() => {})));
  // A shared server started for these tests ends once its last peer has gone (linger_ms 200).
  await waitFor(() => configs.every((config) => sharedServers({ config }).length === 0));
}, 120_000);

describe.each([
  { mode: "standalone", shared: false },
  { mode: "shared (the default)", shared: true },
])("since, $mode", ({ shared }) => {
  const fx = fixture(shared);
  const { repo, runtime } = fx;

  test("a caller broken in a file never opened, an untracked file, a deleted one: type checker and linter; progress counts both trees, then only the working tree", async () => {
    const pristine = repo.footprint();
    const bridge = await bridgeOf(fx, shared);
    // The tree as HEAD has it: how many (file, server) pairs it has, as a plain call's progress counts them.
    const atHead = await diagnostics(bridge, {});
    expect(atHead.progress.size).toBe(1);
    if (shared) await expectAttached({ config: fx.config }, [bridge]);

    repo.write("lib.ts", "export function scale(a: string): number {\n  return a.length * 2;\n}\n");
    repo.write("new.ts", 'export const fresh: number = "no";\nexport function halt(): void {\n  debugger;\n}\n');
    repo.write("clean.ts", "export const fine = 1;\n");
    rmSync(join(repo.root, "gone.ts"));
    const edited = repo.footprint();
    const now = await diagnostics(bridge, {});
    const [headTargets] = atHead.progress;
    const [nowTargets] = now.progress;
    expect(nowTargets).toBe(headTargets! + 2);

    const first = await diagnostics(bridge, { since: "HEAD" });
    expect(repo.footprint()).toBe(edited);
    expect(first.answer.since).toEqual({ revision: "HEAD", commit: repo.git("rev-parse", "HEAD").trim() });
    expect(keys(first.answer.items)).toEqual(["new.ts:1 ts 2322", "new.ts:3 biome lint/suspicious/noDebugger", "use.ts:3 ts 2345"]);
    expect([first.answer.introduced, first.answer.resolved, first.answer.unchanged]).toEqual([3, 2, 1]);
    expect(first.progress).toEqual(new Set([headTargets! + nowTargets!]));

    // Resolved findings are shown where they were at the revision: in a file that is gone now.
    const resolved = await diagnostics(bridge, { since: "HEAD", show: "resolved" });
    expect(keys(resolved.answer.items)).toEqual(["gone.ts:1 ts 2322", "gone.ts:3 biome lint/suspicious/noDebugger"]);

    // Another edit (the old error moves down a line: still unchanged): the snapshot's answers are cached.
    repo.write("old.ts", `// counted\n${FILES["old.ts"]}`);
    const again = await diagnostics(bridge, { since: "HEAD" });
    expect(again.progress).toEqual(new Set([nowTargets]));
    expect([again.answer.introduced, again.answer.resolved, again.answer.unchanged]).toEqual([3, 2, 1]);

    expect(snapshots(runtime)).toHaveLength(1);
    repo.git("checkout", "-q", "--", ".");
    rmSync(join(repo.root, "new.ts"));
    rmSync(join(repo.root, "clean.ts"));
    expect(repo.footprint()).toBe(pristine);

    // The bridge ends (EOF; in the default mode, its last peer leaves and the shared server ends).
    const holder = shared ? leaseholder(runtime) : bridge.pid;
    await bridge.close();
    expect(await waitForExit(holder, 60_000)).toBe(true);
    expect(snapshots(runtime)).toEqual([]);
    expect(processesIn(runtime)).toEqual([]);
    expect(repo.footprint()).toBe(pristine);
  }, 600_000);

  /**
   * A fresh bridge with a snapshot: the since call answered, the snapshot there. Its own servers
   * are stopping or gone (they stop once its answers are kept), the working tree's still run.
   */
  async function withSnapshot(): Promise<{ bridge: Bridge; holder: number; pristine: string }> {
    const pristine = repo.footprint();
    const bridge = await bridgeOf(fx, shared);
    try {
      const { answer } = await diagnostics(bridge, { since: "HEAD" });
      expect([answer.introduced, answer.resolved, answer.unchanged]).toEqual([0, 0, 3]);
      expect(snapshots(runtime)).toHaveLength(1);
    } catch (error) {
      // A peer left attached would keep the shared server of the next test alive.
      await bridge.close().catch(() => {});
      throw error;
    }
    return { bridge, holder: shared ? leaseholder(runtime) : bridge.pid, pristine };
  }

  /** The end: the snapshot's servers gone, the snapshot gone, the checkout as it was. */
  async function nothingLeft(pristine: string): Promise<void> {
    await waitFor(() => processesIn(runtime).length === 0);
    await waitFor(() => snapshots(runtime).length === 0);
    expect(repo.footprint()).toBe(pristine);
  }

  test("SIGTERM of the bridge holding the snapshot: it removes the snapshot as it ends", async () => {
    const { bridge, holder, pristine } = await withSnapshot();
    // Shared: the peer is held still, so that it starts no successor that could sweep in its place.
    if (shared) process.kill(bridge.pid, "SIGSTOP");
    process.kill(holder, "SIGTERM");
    expect(await waitForExit(holder, 60_000)).toBe(true);
    // Removed by the bridge itself, before it exited: nobody else is there to sweep it.
    expect(snapshots(runtime)).toEqual([]);
    if (shared) process.kill(bridge.pid, "SIGCONT");
    await bridge.close();
    await nothingLeft(pristine);
  }, 600_000);

  test("SIGKILL of the bridge holding the snapshot: its servers are reaped, and the next bridge to start sweeps the snapshot", async () => {
    const { bridge, holder, pristine } = await withSnapshot();
    // Shared: the shared server and its peer are both killed, the peer held still first so that it
    // starts no successor (which would sweep at once).
    if (shared) process.kill(bridge.pid, "SIGSTOP");
    process.kill(holder, "SIGKILL");
    expect(await waitForExit(holder, 60_000)).toBe(true);
    if (shared) process.kill(bridge.pid, "SIGKILL");
    await waitFor(() => processesIn(runtime).length === 0);
    expect(snapshots(runtime)).toHaveLength(1);
    await bridge.close().catch(() => {});
    // Standalone: a new bridge. Shared: a new peer, whose shared server is a new one.
    const next = await bridgeOf(fx, shared);
    expect((await diagnostics(next, { path: "old.ts" })).answer.total).toBe(1);
    await nothingLeft(pristine);
    const nextHolder = shared ? leaseholder(runtime) : next.pid;
    await next.close();
    expect(await waitForExit(nextHolder, 60_000)).toBe(true);
  }, 600_000);

  // Only the default mode has a last peer; standalone has no such test (not a skipped one).
  if (shared)
    test("SIGKILL of the last peer: the shared server notices, ends, and removes the snapshot", async () => {
      const { bridge, holder, pristine } = await withSnapshot();
      process.kill(bridge.pid, "SIGKILL");
      expect(await waitForExit(holder, 60_000)).toBe(true);
      expect(snapshots(runtime)).toEqual([]);
      await bridge.close().catch(() => {});
      await nothingLeft(pristine);
    }, 600_000);
});
