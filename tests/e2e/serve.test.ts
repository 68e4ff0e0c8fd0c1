// Issue 36, `lspmcp serve` as a user runs it: the bin found on PATH, in a polyglot git repository
// with no config (the embedded default), standalone and in the default shared mode — started with
// no arguments at all, as an MCP client registered with `{ "command": "lspmcp" }` starts it —
// through the MCP SDK's client: which servers it chooses, `diagnostics "."` across all of them,
// `workspace_symbols` without `server`, and `since: "HEAD"` after an edit.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { findingKeys, type Finding } from "../helpers/differential.js";
import { pollUntil } from "../helpers/poll.js";
import { waitForExit } from "../helpers/proc.js";
import { requireBinary } from "../helpers/require-binary.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import type { TempRepo } from "../helpers/temp-repo.js";
import { cacheEnv, requireCachedTool } from "../helpers/tool-cache.js";
import { pathWithLspmcp, runLspmcp } from "./helpers/lspmcp-on-path.js";
import { EDIT, polyglotRepo } from "../helpers/polyglot-repo.js";

type Item = Finding & { source: string | null };

let repo: TempRepo;
let path: string;
/** What `lspmcp check` reports for the same repository: the `diagnostics` tool must say the same. */
let checked: Item[];
let checkedFiles: number;

beforeAll(async () => {
  requireBinary("go");
  requireBinary("cargo");
  requireCachedTool("go/bin/gopls");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  requireCachedTool("ruff/bin/ruff");
  repo = polyglotRepo();
  path = pathWithLspmcp();
  const report = await runLspmcp(["check", "--format", "json", "--fail-on", "never"], { cwd: repo.root, path });
  expect(report.code, report.stderr).toBe(0);
  ({
    items: checked,
    summary: { files: checkedFiles },
  } = JSON.parse(report.stdout));
  expect(checked.length).toBeGreaterThan(30);
}, 300_000);
afterAll(() => repo?.remove());

const SERVERS = ["typescript", "pyright", "gopls", "json", "rust-analyzer", "ruff"];
const line = (item: Item) => `${item.path}:${item.range.start.line} ${item.source} ${item.code}`;

describe.each([
  { mode: "standalone (serve --standalone)", shared: false },
  { mode: 'shared, started bare as `{ "command": "lspmcp" }` starts it', shared: true },
])("lspmcp serve with no config in a polyglot repository, $mode", ({ shared }) => {
  let bridge: Bridge;
  let runtime: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    // A runtime folder of this file's own, so that its shared server, lease and snapshots are seen.
    runtime = tempDir("lspmcp-runtime-");
    env = { PATH: path, XDG_RUNTIME_DIR: runtime, ...cacheEnv() };
    bridge = await startBridge(null, env, shared ? { bare: true, bin: "lspmcp", cwd: repo.root } : { bin: "lspmcp", cwd: repo.root });
  });
  afterAll(async () => {
    await bridge?.close();
  });

  test("session_status: the six servers the default chooses for this repository, none left out", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions.map((session: { server: string }) => session.server)).toEqual(SERVERS);
    expect(status.left_out).toEqual([]);
    if (shared) await expectAttached({ config: null, cwd: repo.root, env }, [bridge]);
  });

  test('diagnostics "." answers for every language, the same findings as lspmcp check', async () => {
    const answer = await bridge.ok("diagnostics", { path: ".", limit: 1000 });
    expect(answer.files).toBe(18);
    expect(answer.files).toBe(checkedFiles);
    expect(answer.total).toBe(checked.length);
    expect(findingKeys(answer.items).map((key, i) => `${key} ${answer.items[i].source}`)).toEqual(
      findingKeys(checked).map((key, i) => `${key} ${checked[i]!.source}`),
    );
    const sources = new Set(answer.items.map((item: Item) => item.source));
    expect([...sources].sort()).toEqual(["Pyright", "Ruff", "assign", "compiler", "json", "printf", "rust-analyzer", "rustc", "ts"]);
  });

  test("workspace_symbols without server: the kettle in Go, Rust, Python and TypeScript, from four servers", async () => {
    const answer = await bridge.ok("workspace_symbols", { query: "kettle" });
    const found = answer.items.map((item: { name: string; kind: string; path: string }) => `${item.path} ${item.name} ${item.kind}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "gosvc/brew/kettle.go BoilKettle function",
        "py/cafe/kettle.py boil_kettle function",
        "rs/menu/src/lib.rs boil_kettle function",
        "web/src/kettle.ts boilKettle function",
      ]),
    );
  });

  test('since "HEAD" after an edit in three languages: what it broke, what it fixed; the checkout untouched', async () => {
    const clean = await bridge.ok("diagnostics", { path: ".", since: "HEAD" });
    expect([clean.introduced, clean.resolved, clean.unchanged]).toEqual([0, 0, checked.length]);
    for (const [file, text] of Object.entries(EDIT)) writeFileSync(join(repo.root, file), text);
    try {
      const introduced = await bridge.ok("diagnostics", { path: ".", since: "HEAD" });
      expect(introduced.items.map(line)).toEqual(["gosvc/cmd/cafe/main.go:15 compiler UnusedVar", "web/src/price.ts:3 ts 2362"]);
      const resolved = await bridge.ok("diagnostics", { path: ".", since: "HEAD", show: "resolved" });
      expect(resolved.items.map(line)).toEqual(["py/cafe/menu.py:2 Ruff F401", "py/cafe/menu.py:2 Pyright null", "web/src/order.ts:5 ts 2345"]);
      expect([resolved.introduced, resolved.resolved, resolved.unchanged]).toEqual([2, 3, checked.length - 3]);
      expect(repo.status()).toBe(EDIT_STATUS);
    } finally {
      execFileSync("git", ["checkout", "--", "."], { cwd: repo.root });
    }
    expect(repo.status()).toBe("");
  });

  test("once the client closes, every server and the bridge are gone, and so is a shared server's lease", async () => {
    const { sessions } = await bridge.ok("session_status");
    const pids = sessions.flatMap((session: { pid: number | null }) => (session.pid === null ? [] : [session.pid]));
    expect(pids.length).toBeGreaterThan(0);
    const lease = shared ? leaseOf(runtime) : null;
    if (shared) expect(lease).not.toBeNull();
    await bridge.close();
    for (const pid of [bridge.pid, ...pids, ...(lease === null ? [] : [lease.pid])]) expect(await waitForExit(pid, 10_000), `pid ${pid}`).toBe(true);
    if (shared) expect(await pollUntil(() => leaseOf(runtime) === null, 5_000)).toBe(true);
  });
});

const EDIT_STATUS = `${Object.keys(EDIT)
  .sort()
  .map((file) => ` M ${file}\n`)
  .join("")}`;

/** The shared server's lease in the runtime folder (`$XDG_RUNTIME_DIR/lspmcp`), or null. */
function leaseOf(runtime: string): { pid: number } | null {
  const folder = join(runtime, "lspmcp");
  const name = existsSync(folder) ? readdirSync(folder).find((entry) => entry.endsWith(".lease")) : undefined;
  return name === undefined ? null : (JSON.parse(readFileSync(join(folder, name), "utf8")) as { pid: number });
}
