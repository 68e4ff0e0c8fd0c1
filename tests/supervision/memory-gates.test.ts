// Memory caps and idle stops (issue 26, part 4), through the real built bridge. A fake server
// whose hover starts a memory hog — a plain child, or a daemon re-parented to init that only the
// session token ties to the tree — must be ended as a whole past max_rss_mb: calls (the one in
// flight included) answer SessionDead with reason memory, nothing of the tree is left in /proc,
// and only session_restart brings it back. A quiet session is stopped at idle_stop_s and the next
// call starts it. rss_mb of a real typescript-language-server is checked against /proc's own sum.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { TSLS } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { expectGoneWithin, GateClock, holdsWithin, markedGoneWithin } from "../helpers/gate-clock.js";
import { memoryOf, pidsWithEnv, treeByEnv } from "../helpers/proc.js";
import { tempDir } from "../helpers/temp.js";

const MARK = "LSPMCP_TEST_MEMORY_MARK";
const CAP_MB = 200;

let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

const statusOf = async (server: string): Promise<Record<string, any>> =>
  ((await bridge!.ok("session_status")).sessions as Record<string, any>[]).find((session) => session.server === server)!;

describe("max_rss_mb: the whole tree is measured and ended past the cap", () => {
  test.each([
    ["a child", []],
    ["a daemon re-parented to init", ["--hog-daemon"]],
  ])("a hog that is %s: SessionDead reason memory, nothing left, back only by session_restart", async (kind, hogFlags) => {
    const mark = randomUUID();
    const { config } = fakeWorkspace([{ name: "hog", extension: ".hog", flags: ["--fault", "hog", "--hog-mb", "400", ...hogFlags], env: { [MARK]: mark } }]);
    writeFileSync(config, readFileSync(config, "utf8").replace(/(\nenv = )/, `\nmax_rss_mb = ${CAP_MB}$1`));
    bridge = await startBridge(config);

    expect(await bridge.ok("document_symbols", { path: "a.hog" })).toMatchObject({ total: 2 });
    // Sampled each second: the first sample may predate the server's load (5 s, net of the time a
    // loaded machine kept the bridge and the supervisor from a CPU).
    const sampling = new GateClock([bridge.pid, (await statusOf("hog")).supervisor_pid]);
    expect(await holdsWithin(async () => (await statusOf("hog")).rss_mb > 10, sampling, 5000, 100)).toBe(true);
    const before = await statusOf("hog");
    expect(before).toMatchObject({ state: "ready", max_rss_mb: CAP_MB, last_exit: null });
    expect(before.rss_mb).toBeLessThan(CAP_MB);

    // The hover starts the hog and is never answered: the call in flight ends with the verdict.
    const inFlight = await bridge.fail("hover", { path: "a.hog", line: 1, column: 4 });
    expect(inFlight).toMatchObject({ code: "SessionDead", details: { reason: "memory", max_rss_mb: CAP_MB } });
    expect(inFlight.details.rss_mb).toBeGreaterThan(CAP_MB);
    console.log(`[figure] hog=${kind} cap_mb=${CAP_MB} rss_mb_seen=${inFlight.details.rss_mb}`);

    // Nothing of the tree is left: the server, and the hog that ignores SIGTERM (5 s from the
    // verdict's answer, without the time a loaded machine kept the bridge from a CPU).
    expectGoneWithin(await markedGoneWithin(MARK, mark, new GateClock([bridge.pid]), 5000), 5000);
    const dead = await statusOf("hog");
    expect(dead).toMatchObject({ state: "dead", rss_mb: null, restarts: 0, last_exit: { reason: "memory" } });
    expect(dead.last_exit.rss_mb).toBe(inFlight.details.rss_mb);

    // Never a silent respawn: the next call is SessionDead too, and no process came back.
    const next = await bridge.fail("document_symbols", { path: "a.hog" });
    expect(next).toMatchObject({ code: "SessionDead", details: { reason: "memory", rss_mb: inFlight.details.rss_mb } });
    expect(next.message).toMatch(/max_rss_mb/);
    expect(pidsWithEnv(MARK, mark)).toEqual([]);

    expect(await bridge.ok("session_restart", { server: "hog" })).toMatchObject({ state: "ready", restarts: 1, last_exit: null });
    expect(await bridge.ok("document_symbols", { path: "a.hog" })).toMatchObject({ total: 2 });
  });
});

describe("idle_stop_s", () => {
  test("a session with no call is stopped in order (idle, reason idle, tree gone); the next call starts it, not as a restart", async () => {
    const mark = randomUUID();
    const { config } = fakeWorkspace([{ name: "quiet", extension: ".q", env: { [MARK]: mark } }], "request_timeout_ms = 5000\nidle_stop_s = 1");
    bridge = await startBridge(config);
    expect(await bridge.ok("document_symbols", { path: "a.q" })).toMatchObject({ total: 2 });
    expect((await statusOf("quiet")).state).toBe("ready");
    expect(pidsWithEnv(MARK, mark)).toHaveLength(1);

    expect(await holdsWithin(async () => (await statusOf("quiet")).state === "idle", new GateClock([bridge.pid]), 10_000, 100)).toBe(true);
    const clock = new GateClock([bridge.pid]);
    const idle = await statusOf("quiet");
    expect(idle).toMatchObject({ state: "idle", pid: null, rss_mb: null, restarts: 0, last_exit: { code: 0, signal: null, reason: "idle", rss_mb: null } });
    expectGoneWithin(await markedGoneWithin(MARK, mark, clock, 5000), 5000);

    expect(await bridge.ok("document_symbols", { path: "a.q" })).toMatchObject({ total: 2 });
    expect(await statusOf("quiet")).toMatchObject({ state: "ready", restarts: 0, last_exit: { reason: "idle" } });
  });

  test("a call that runs longer than idle_stop_s holds the session: it answers, and the session is still ready", async () => {
    const { config } = fakeWorkspace([{ name: "slow", extension: ".s", flags: ["--hover-delay", "2500"] }], "request_timeout_ms = 8000\nidle_stop_s = 1");
    bridge = await startBridge(config);
    expect(await bridge.ok("hover", { path: "a.s", line: 1, column: 4 })).toMatchObject({ contents: "hover 0:3" });
    expect(await statusOf("slow")).toMatchObject({ state: "ready", last_exit: null });
  });
});

describe("rss_mb of a real server", () => {
  test("typescript-language-server and its tsserver: rss_mb is /proc's own VmRSS sum of the tree, within 3%", async () => {
    const mark = randomUUID();
    const dir = tempDir("lspmcp-rss-");
    const root = join(dir, "ws");
    mkdirSync(root);
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
    writeFileSync(join(root, "a.ts"), "export function twice(n: number): number {\n  return n * 2;\n}\nexport const four = twice(2);\n");
    const config = writeConfig(
      // typescript-language-server and the tsserver it runs (a workspace's 5.x is answered so): a tree of two.
      `[[server]]\nname = "typescript"\nprofile = "typescript"\nadapter = "tsserver"\ncommand = ${JSON.stringify(TSLS)}\nargs = ["--stdio"]\nversion = "5.3.0"\nversion_command = [${JSON.stringify(TSLS)}, "--version"]\nenv = { ${MARK} = "${mark}" }\n\n[[workspace]]\nname = "ws"\nroot = "ws"\nservers = ["typescript"]\n`,
      dir,
    );
    bridge = await startBridge(config);
    expect(await bridge.ok("document_symbols", { path: "a.ts" })).toMatchObject({ total: 2 });

    let seen = { status: 0, proc: 0, processes: 0 };
    const close = async (): Promise<boolean> => {
      const status = (await statusOf("typescript")).rss_mb as number;
      const tree = treeByEnv(MARK, mark);
      const procMb = tree.reduce((sum, p) => sum + memoryOf(p.pid).rssKiB, 0) / 1024;
      seen = { status, proc: procMb, processes: tree.length };
      return Math.abs(status - procMb) / procMb < 0.03;
    };
    // The bridge samples each second: a tree still settling after the call may differ for a moment.
    const matched = await pollUntil(close, 20_000, 250);
    console.log(`[figure] typescript rss_mb=${seen.status} proc_sum_mb=${seen.proc.toFixed(1)} processes=${seen.processes}`);
    expect(seen.processes).toBeGreaterThanOrEqual(2);
    expect(matched, JSON.stringify(seen)).toBe(true);
  });
});
