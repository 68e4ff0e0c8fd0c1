import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { runCheckCli } from "../check/helpers/cli.js";
import { diagnostics, startKeys, tscFindings, type Finding } from "../helpers/differential.js";

// Real code nobody here wrote: ajv 8.20.0's TypeScript sources, 106 files, without their
// dependencies (see the fixture's README). The truth is `tsc --noEmit -p .` on the same folder.
// tsc's plain output has no end positions, so findings are compared by start.
const ROOT = join(REPO, "tests/fixtures/differential/typescript-ajv");
const FILES = (readdirSync(join(ROOT, "lib"), { recursive: true }) as string[])
  .filter((name) => name.endsWith(".ts"))
  .map((name) => relative(ROOT, join(ROOT, "lib", name)));

const CONFIG = writeConfig(`
[bridge]
max_result_bytes = 1048576
request_timeout_ms = 600000

[[server]]
name = "typescript"
profile = "typescript"

[[workspace]]
name = "ajv"
root = ${JSON.stringify(ROOT)}
servers = ["typescript"]
`);

/**
 * The one narrow difference that is TypeScript's own: the server's suggestion diagnostics (unused
 * names, "may be converted to…", severity hint), which tsc never reports.
 */
const withoutSuggestions = (findings: readonly Finding[]) => findings.filter((finding) => finding.severity !== "hint");

let cli: string[];
beforeAll(async () => {
  cli = startKeys(await tscFindings(ROOT));
}, 300_000);

describe("lspmcp check against tsc --noEmit, on ajv 8.20.0", () => {
  test("tsc finds errors in many files, so a partial answer cannot pass", () => {
    // tsc 7.0.2 reports 28 errors in 9 files (5.9.3 reported 39).
    expect(cli.length).toBeGreaterThan(20);
    expect(new Set(cli.map((key) => key.split(":")[0])).size).toBeGreaterThan(5);
  });

  test.each([["default (32)"], ["1"]])(
    "batch size %s: every finding matches, exit 1",
    async (batch) => {
      const args = ["--config", CONFIG, "--format", "json", "--quiet", ...(batch.startsWith("default") ? [] : ["--batch-size", batch])];
      const run = await runCheckCli(args, { cwd: ROOT });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as { items: Finding[] };
      expect(startKeys(withoutSuggestions(report.items))).toEqual(cli);
    },
    600_000,
  );
});

describe("the diagnostics tool against tsc --noEmit, on ajv 8.20.0", () => {
  let bridge: Bridge;
  beforeAll(async () => {
    bridge = await startBridge(CONFIG);
  });
  afterAll(async () => bridge?.close());

  test("paths = every file, at once: every finding matches", async () => {
    const answer = await diagnostics(bridge, { paths: FILES, limit: 1000 });
    expect(answer.items).toHaveLength(answer.total);
    expect(startKeys(withoutSuggestions(answer.items))).toEqual(cli);
  }, 600_000);
});
