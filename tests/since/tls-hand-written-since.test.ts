import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig } from "../helpers/bridge.js";
import { type Finding, TSC, tscFindings } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo } from "../helpers/temp-repo.js";

// `since: "HEAD"` under a typescript-language-server entry written by hand, on a 31-file
// repository whose one function changes signature so that its three call sites break. Under the
// standard rule such a call once ran to its deadline, and a folder call after a file changed on
// disk never settled ("did not settle: … version 2"), leaving the bridge to refuse what came next.
// Both entries must answer tsc's three new errors, and every later call of the same bridge must
// answer: the one a user writes (recognised, answered by tsserver's own requests) and the same
// entry held to the standard rule (`adapter = "standard"`), in shared mode and standalone.
const LS = join(REPO, "node_modules/.bin/typescript-language-server");

const files: Record<string, string> = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["src"] }),
  "src/total.ts": "export function total(a: number): number {\n  return a;\n}\n",
};
for (const n of [1, 2, 3]) files[`src/use${n}.ts`] = `import { total } from "./total";\n\nexport const used${n} = total(${n});\n`;
for (let n = 1; n <= 27; n++) files[`src/leaf${n}.ts`] = `export const leaf${n}: number = ${n};\n`;
const repo = tempRepo(files);
afterAll(() => repo.remove());

const RUNTIME = tempDir("lspmcp-tls-since-runtime-");
function config(rule: "recognised" | "standard", shared: boolean): string {
  return writeConfig(`
[bridge]
max_result_bytes = 1048576
request_timeout_ms = 120000

[shared]
enabled = ${shared}
lease_dir = ${JSON.stringify(RUNTIME)}
linger_ms = 200

[[server]]
name = "tls"
command = ${JSON.stringify(LS)}
args = ["--stdio"]
version = "5.3.0"
version_command = [${JSON.stringify(LS)}, "--version"]
languages = [{ id = "typescript", extensions = [".ts"] }]
${rule === "standard" ? 'adapter = "standard"' : ""}

[[workspace]]
name = "w"
root = ${JSON.stringify(repo.root)}
servers = ["tls"]
`);
}

/** Errors as `path:line TSn` (tsc's severity `error`; the server's hints are its own). */
const errorKeys = (findings: readonly Finding[]) =>
  findings
    .filter((finding) => finding.severity === "error")
    .map((finding) => `${finding.path}:${finding.range.start.line} TS${finding.code}`)
    .sort();

describe.each([
  ["recognised", true],
  ["recognised", false],
  ["standard", true],
  ["standard", false],
] as const)("a hand-written typescript-language-server entry (%s rule, shared %s): since HEAD", (rule, shared) => {
  test("a signature change answers its three call sites, and every later call answers", async () => {
    const original = files["src/total.ts"]!;
    const path = config(rule, shared);
    const bridge = await startBridge(path, {}, { shared });
    try {
      // Warm: the tree as committed is clean, by tsc and by the bridge.
      expect(errorKeys(await tscFindings(repo.root, TSC["5.9.3"]))).toEqual([]);
      expect(errorKeys((await bridge.ok<{ items: Finding[] }>("diagnostics", { path: "." })).items)).toEqual([]);
      if (shared) await expectAttached({ config: path }, [bridge]);

      writeFileSync(join(repo.root, "src/total.ts"), "export function total(a: number, b: number): number {\n  return a + b;\n}\n");
      const truth = errorKeys(await tscFindings(repo.root, TSC["5.9.3"]));
      expect(truth).toEqual(["src/use1.ts:3 TS2554", "src/use2.ts:3 TS2554", "src/use3.ts:3 TS2554"]);

      const since = await bridge.ok<{ items: Finding[]; introduced: number }>("diagnostics", { path: ".", since: "HEAD", min_severity: "warning" });
      expect(errorKeys(since.items)).toEqual(truth);
      expect(since.introduced).toBe(3);

      // The calls after it: the folder (a file changed on disk since its last answer), one file, the whole workspace.
      writeFileSync(join(repo.root, "src/use1.ts"), 'import { total } from "./total";\n\nexport const used1 = total(1, 2);\n');
      const folder = await bridge.ok<{ items: Finding[] }>("diagnostics", { path: "src" });
      expect(errorKeys(folder.items)).toEqual(["src/use2.ts:3 TS2554", "src/use3.ts:3 TS2554"]);
      const one = await bridge.ok<{ items: Finding[] }>("diagnostics", { path: "src/use3.ts" });
      expect(errorKeys(one.items)).toEqual(["src/use3.ts:3 TS2554"]);
      const all = await bridge.ok<{ items: Finding[] }>("diagnostics", { path: "." });
      expect(errorKeys(all.items)).toEqual(errorKeys(await tscFindings(repo.root, TSC["5.9.3"])));
      // A preview whose edited file keeps its findings (none) while a caller's change.
      const preview = await bridge.ok<{ items: Finding[]; introduced: number }>("diagnostics", {
        path: ".",
        changes: [{ path: "src/total.ts", text: original }],
        min_severity: "warning",
      });
      expect(errorKeys(preview.items)).toEqual(["src/use1.ts:3 TS2554"]);
      expect((await bridge.ok<{ items: Finding[] }>("diagnostics", { path: "src/use1.ts" })).items).toEqual([]);
    } finally {
      await bridge.close();
      writeFileSync(join(repo.root, "src/total.ts"), original);
      writeFileSync(join(repo.root, "src/use1.ts"), files["src/use1.ts"]!);
    }
  }, 600_000);
});
