// docs/sharing.md's fleet recipe run as the page writes it: two worktrees of a TypeScript and
// Python repository, `lspmcp init` in each, workers started in their worktrees as an MCP client
// starts `lspmcp` (two in the first, one in the second), then the page's `status`. What the page
// says of them holds: one bridge per worktree, each answering about its own worktree's files, the
// workers of one worktree its peers, and no other's.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { blockAfter, pageBlocks, shellCommands } from "../helpers/page-blocks.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { isAlive } from "../helpers/proc.js";
import { sharedStatus } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { cacheEnv } from "../helpers/tool-cache.js";

const recipe = shellCommands(blockAfter(pageBlocks("docs/sharing.md"), "sh", "## A fleet: N workers in N worktrees").text);

let checkout: string;
let env: Record<string, string>;
const workers: Bridge[] = [];
const servers: number[] = [];
const sh = (command: string) => spawnSync("sh", ["-c", command], { cwd: checkout, env, encoding: "utf8" });

beforeAll(() => {
  const dir = tempDir("lspmcp-fleet-");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  symlinkSync(BRIDGE_MAIN, join(bin, "lspmcp"));
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME ?? "/root", XDG_RUNTIME_DIR: tempDir("lspmcp-fleet-runtime-"), ...cacheEnv() };
  checkout = join(dir, "main");
  mkdirSync(join(checkout, "src"), { recursive: true });
  writeFileSync(join(checkout, "src/app.ts"), "export const count: number = 1;\n");
  writeFileSync(join(checkout, "tool.py"), "count: int = 1\n");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: checkout });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "start");
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close()));
  // The shared servers outlive their last worker by their linger: wait them out.
  await pollUntil(() => servers.every((pid) => !isAlive(pid)), 30_000, 100);
});

describe("docs/sharing.md: a fleet, N workers in N worktrees", () => {
  test("the recipe's worktrees and configs are made as written; each worktree's workers share its bridge, answered about its own files; status shows its peers", {
    timeout: 300_000,
  }, async () => {
    expect(recipe).toHaveLength(3);
    const [worktrees, inits, status] = recipe as [string, string, string];
    for (const step of [worktrees, inits]) {
      const result = sh(step);
      expect(result.status, `${step}\n${result.stderr}`).toBe(0);
    }
    const [wt1, wt2] = [join(checkout, "../wt-1"), join(checkout, "../wt-2")];
    for (const worktree of [wt1, wt2]) expect(existsSync(join(worktree, "bridge.toml")), worktree).toBe(true);
    // The second worktree's change, which only its own workers must see.
    writeFileSync(join(wt2, "src/app.ts"), 'export const count: number = "one";\n');

    for (const cwd of [wt1, wt1, wt2]) workers.push(await startBridge(null, env, { bare: true, cwd }));
    const answers = await Promise.all(workers.map(async (worker) => (await worker.ok("diagnostics", { path: "src/app.ts" })).total));
    expect(answers).toEqual([0, 0, 1]);

    const first = await sharedStatus({ config: null, cwd: wt1, env });
    const second = await sharedStatus({ config: null, cwd: wt2, env });
    servers.push(...[first.server?.pid, second.server?.pid].filter((pid): pid is number => pid !== undefined));
    expect(servers).toHaveLength(2);
    expect(servers[0]).not.toBe(servers[1]);

    // The page's status line: run where it says, it reports the first worktree's bridge and its two workers.
    const shown = sh(status);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`shared server pid ${servers[0]} `);
    expect(shown.stdout).toContain("peers: 2\n");
    for (const worker of workers.slice(0, 2)) expect(shown.stdout).toContain(` pid ${worker.pid}, connected`);
    expect(shown.stdout).not.toContain(` pid ${workers[2]!.pid}, connected`);
  });
});
