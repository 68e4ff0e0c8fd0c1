import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { runCheckCli } from "../check/helpers/cli.js";
import { diagnostics, findingKeys, pyrightCliFindings, type Finding } from "../helpers/differential.js";

// Real code nobody here wrote: packaging 23.0, 13 modules, in pyright's strict mode (see the
// fixture's README). The truth is pyright's own CLI on the same folder with the same config.
const ROOT = join(REPO, "tests/fixtures/differential/python-packaging");
const MODULES = readdirSync(join(ROOT, "packaging"))
  .filter((name) => name.endsWith(".py"))
  .map((name) => `packaging/${name}`);

// The deadline is generous because the machine may be loaded; what is tested is the settle rule,
// and a file that does not settle in time fails the run (exit 3), so it can never pass as clean.
const CONFIG = writeConfig(`
[bridge]
max_result_bytes = 1048576
request_timeout_ms = 600000

[[server]]
name = "pyright"
profile = "pyright"

[[workspace]]
name = "packaging"
root = ${JSON.stringify(ROOT)}
servers = ["pyright"]
`);

/**
 * The one narrow difference that is pyright's own: in an editor it adds hints (unused names,
 * unreachable code, deprecated use, tagged Unnecessary/Deprecated) that its CLI never prints.
 */
const withoutEditorHints = (findings: readonly Finding[]) => findings.filter((finding) => finding.severity !== "hint");

let cli: string[];
beforeAll(async () => {
  cli = findingKeys(await pyrightCliFindings(ROOT));
}, 300_000);

describe("lspmcp check against the pyright CLI, strict, on packaging 23.0", () => {
  test("the CLI finds plenty, so a partial answer cannot pass", () => {
    expect(cli.length).toBeGreaterThan(100);
    expect(new Set(cli.map((key) => key.split(":")[0])).size).toBeGreaterThan(5);
  });

  test.each([["default (32)"], ["1"], ["4"]])(
    "batch size %s: every finding matches, exit 1",
    async (batch) => {
      const args = ["--config", CONFIG, "--format", "json", "--quiet", ...(batch.startsWith("default") ? [] : ["--batch-size", batch])];
      const run = await runCheckCli(args, { cwd: ROOT });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as { items: Finding[] };
      expect(findingKeys(withoutEditorHints(report.items))).toEqual(cli);
    },
    600_000,
  );
});

describe("the diagnostics tool against the pyright CLI, strict, on packaging 23.0", () => {
  let bridge: Bridge;
  beforeAll(async () => {
    bridge = await startBridge(CONFIG);
  });
  afterAll(async () => bridge?.close());

  test("paths = every module, at once: every finding matches", async () => {
    const answer = await diagnostics(bridge, { paths: MODULES.map((path) => join(ROOT, path)), limit: 1000 });
    expect(answer.items).toHaveLength(answer.total);
    expect(findingKeys(withoutEditorHints(answer.items))).toEqual(cli);
  }, 600_000);
});
