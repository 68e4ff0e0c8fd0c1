import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { startKeys, tscFindings, type Finding } from "../helpers/differential.js";
import { tempDir } from "../helpers/temp.js";
import { vendoredRepo } from "../helpers/vendored-repo.js";

// Real code nobody here wrote (ajv 8.20.0's TypeScript sources, see tests/differential), in a
// sub-folder of a throwaway git repository (a monorepo's package), with an ignored node_modules
// that resolves one of its imports: the truth is `tsc --noEmit -p .` on the tree before and after
// each edit. tsc prints start positions only, so findings are compared by start.
const repo = vendoredRepo(join(REPO, "tests/fixtures/differential/typescript-ajv"), "packages/ajv", {
  ignored: { "node_modules/re2/index.d.ts": "declare namespace re2 {}\ndeclare function re2(pattern: string): RegExp;\nexport = re2;\n" },
});
const RUNTIME = tempDir("lspmcp-since-runtime-");
const config = (shared: boolean) =>
  writeConfig(`
[bridge]
max_result_bytes = 1048576
request_timeout_ms = 600000

[shared]
enabled = ${shared}
lease_dir = ${JSON.stringify(RUNTIME)}
linger_ms = 200

[[server]]
name = "typescript"
profile = "typescript"

[[workspace]]
name = "ajv"
root = ${JSON.stringify(repo.root)}
servers = ["typescript"]
`);

/** tsserver's suggestion diagnostics (severity hint), which tsc never reports. */
const errors = (findings: readonly Finding[]) => findings.filter((finding) => finding.severity !== "hint");

/** `after` minus `before`, as multisets of keys. */
function minus(after: readonly string[], before: readonly string[]): string[] {
  const left = [...before];
  return after.filter((key) => {
    const at = left.indexOf(key);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

interface SinceAnswer {
  items: Finding[];
  total: number;
  files: number;
  since: { revision: string; commit: string };
  introduced: number;
  resolved: number;
  unchanged: number;
}

async function since(bridge: Bridge, args: Record<string, unknown> = {}): Promise<SinceAnswer> {
  return bridge.ok<SinceAnswer>("diagnostics", { path: ".", since: "HEAD", min_severity: "warning", limit: 1000, ...args });
}

const snapshots = () => readdirSync(RUNTIME).filter((name) => name.startsWith("since-"));

let head: Finding[];
let bridge: Bridge;
beforeAll(async () => {
  head = await tscFindings(repo.root);
  bridge = await startBridge(config(false));
}, 300_000);
afterAll(async () => bridge?.close());

describe("diagnostics since HEAD, against tsc on both trees (ajv in a monorepo package)", () => {
  test("nothing changed: nothing introduced or resolved, every finding unchanged; progress counts both trees", async () => {
    const before = repo.footprint();
    const { result, progress } = await bridge.callWithProgress("diagnostics", { path: ".", since: "HEAD", min_severity: "warning", limit: 1000 });
    const answer = result.structuredContent as unknown as SinceAnswer;
    // Both trees count: every notification has twice the files as its total, and the files done
    // only grow towards it, the last at it. (Read off the wire: the SDK's client can drop the
    // notifications it reads together with the response, modelcontextprotocol/typescript-sdk#2580.)
    expect(progress.length).toBeGreaterThan(1);
    expect(new Set(progress.map((p) => p.total))).toEqual(new Set([2 * answer.files]));
    const values = progress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect(values.at(-1)).toBe(2 * answer.files);
    expect(answer.since).toEqual({ revision: "HEAD", commit: repo.git("rev-parse", "HEAD").trim() });
    expect(answer.introduced).toBe(0);
    expect(answer.resolved).toBe(0);
    expect(answer.unchanged).toBe(head.length);
    expect(answer.items).toEqual([]);
    expect(repo.footprint()).toBe(before);
    // The snapshot lives in the runtime folder while the bridge does.
    expect(snapshots()).toHaveLength(1);
  }, 600_000);

  test("an exported type changed so that its callers break: exactly tsc's new errors, in files never touched", async () => {
    const file = "lib/compile/codegen/index.ts";
    const original = repo.read(file);
    repo.write(file, original.replace("export type SafeExpr = Code | number | boolean | null", "export type SafeExpr = Code | number | string"));
    try {
      const after = await tscFindings(repo.root);
      const introduced = minus(startKeys(after), startKeys(head));
      expect(new Set(introduced.map((key) => key.split(":")[0])).size).toBeGreaterThan(10);
      const before = repo.footprint();
      const answer = await since(bridge);
      expect(repo.footprint()).toBe(before);
      expect(startKeys(errors(answer.items))).toEqual(introduced.sort());
      expect(answer.introduced).toBe(introduced.length);
      // tsc's own difference the other way: what the edit made go away (none of it is a pre-existing error that merely stayed).
      expect(answer.resolved).toBe(minus(startKeys(head), startKeys(after)).length);
      expect(answer.unchanged).toBe(after.length - introduced.length);
      const resolved = await since(bridge, { show: "resolved" });
      expect(startKeys(errors(resolved.items))).toEqual(minus(startKeys(head), startKeys(after)).sort());
    } finally {
      repo.write(file, original);
    }
  }, 600_000);

  test("code moved above a pre-existing error keeps it unchanged; a file moved without git mv too; a new file's error is introduced", async () => {
    const file = "lib/ajv.ts";
    const original = repo.read(file);
    const moved = "lib/2019.ts";
    const movedText = repo.read(moved);
    repo.write(file, `export function added(a: number): number {\n  return a * 2\n}\n\n${original}`);
    rmSync(join(repo.root, moved));
    repo.write("lib/2019-renamed.ts", movedText);
    repo.write("lib/extra.ts", 'export const count: number = "three"\n');
    try {
      const answer = await since(bridge);
      expect(answer.items.map((item) => `${item.path}:${item.range.start.line} ${item.code}`)).toEqual(["lib/extra.ts:1 2322"]);
      expect(answer.resolved).toBe(0);
      expect(answer.unchanged).toBe(head.length);
    } finally {
      repo.write(file, original);
      rmSync(join(repo.root, "lib/2019-renamed.ts"));
      rmSync(join(repo.root, "lib/extra.ts"));
      repo.write(moved, movedText);
    }
  }, 600_000);

  test("fixing pre-existing errors: they are resolved, shown where they were at the revision", async () => {
    const file = "lib/ajv.ts";
    const original = repo.read(file);
    // On the first line, so that no line moves and tsc's positions before and after compare as they are.
    repo.write(file, `declare const module: any, exports: any; ${original}`);
    try {
      const after = await tscFindings(repo.root);
      const gone = minus(startKeys(head), startKeys(after));
      expect(gone.length).toBeGreaterThan(0);
      const answer = await since(bridge, { show: "resolved" });
      expect(startKeys(errors(answer.items))).toEqual(gone.sort());
      // An error on the edited first line moved along it: tsc too sees it gone and come anew.
      expect(answer.introduced).toBe(minus(startKeys(after), startKeys(head)).length);
      // Reported where they were at the revision.
      const lines = original.split("\n");
      for (const item of answer.items) expect(lines[item.range.start.line - 1]).toMatch(/module|exports/);
      expect(answer.items.every((item) => item.path === file)).toBe(true);
    } finally {
      repo.write(file, original);
    }
  }, 600_000);

  test("a repeated call after an edit answers from the cached snapshot: progress counts only the working tree", async () => {
    const files = (await since(bridge)).files;
    // The edit: a new file with an error, which the working tree's answer must show.
    repo.write("lib/extra.ts", 'export const count: number = "three"\n');
    try {
      const { result, progress } = await bridge.callWithProgress("diagnostics", { path: ".", since: "HEAD", limit: 1 });
      expect(result.isError).toBeFalsy();
      const answer = result.structuredContent as unknown as SinceAnswer;
      expect(answer).toMatchObject({ files: files + 1, introduced: 1 });
      expect(answer.items.map((item) => `${item.path}:${item.range.start.line} ${item.code}`)).toEqual(["lib/extra.ts:1 2322"]);
      // Only the working tree was diagnosed; the revision's answers came from the snapshot's cache.
      expect(new Set(progress.map((p) => p.total))).toEqual(new Set([files + 1]));
      expect(progress.at(-1)?.progress).toBe(files + 1);
    } finally {
      rmSync(join(repo.root, "lib/extra.ts"));
    }
  }, 600_000);
});

describe("the snapshot's end", () => {
  test("the bridge ends (EOF): its snapshot is gone, the checkout as it was (standalone and shared)", async () => {
    const before = repo.footprint();
    await bridge.close();
    await waitFor(() => snapshots().length === 0);
    for (const shared of [true]) {
      const other = await startBridge(config(shared), {}, { shared });
      try {
        expect((await since(other)).introduced).toBe(0);
        expect(snapshots()).toHaveLength(1);
      } finally {
        await other.close();
      }
      await waitFor(() => snapshots().length === 0);
    }
    expect(repo.footprint()).toBe(before);
  }, 600_000);

  test("SIGKILL of the bridge: the next bridge to start sweeps what it left; the checkout's ignored folder is intact", async () => {
    const before = repo.footprint();
    const killed = await startBridge(config(false));
    await since(killed);
    expect(snapshots()).toHaveLength(1);
    process.kill(killed.pid, "SIGKILL");
    await killed.close().catch(() => {});
    const next = await startBridge(config(false));
    try {
      await waitFor(() => snapshots().length === 0);
      expect(repo.read("node_modules/re2/index.d.ts")).toContain("re2");
      expect(repo.footprint()).toBe(before);
    } finally {
      await next.close();
    }
  }, 600_000);
});

async function waitFor(condition: () => boolean): Promise<void> {
  expect(await pollUntil(condition, 30_000, 50)).toBe(true);
}
