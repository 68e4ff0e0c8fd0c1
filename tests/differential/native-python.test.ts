import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { firstLine, pyreflyCliFindings, tyCliFindings } from "../helpers/python-native-cli.js";
import { requireBuild } from "../helpers/require-binary.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "../check/helpers/cli.js";

// Issue 39: ty and pyrefly, each held to its own CLI on real code nobody here wrote, Flask 3.1.3's
// src and httpx 0.29.0's package (tests/fixtures/differential/python-*/README.md): every finding
// at the same file, line, code-point column, rule, severity and message.
const FIXTURES = ["python-flask", "python-httpx"] as const;

/**
 * What the servers add that their CLIs never print: hints for editors (ty: unreachable code and
 * unused names; pyrefly: unused parameters, inactive code), all of severity hint. Messages are
 * compared by their first line, which is the whole of the CLI's for ty (the server adds ty's
 * "info:" lines below it); pyrefly's lines below differ in what each side inferred for display
 * (an overload's return type "None" on the CLI is "Unknown" in the server) and in how it names
 * the import roots it looked in.
 */
const CHECKERS = {
  ty: { binary: "ty/bin/ty", cli: tyCliFindings },
  pyrefly: { binary: "pyrefly/bin/pyrefly", cli: pyreflyCliFindings },
} as const;

const comparable = (findings: readonly Finding[]) => findingKeys(findings.filter((finding) => finding.severity !== "hint").map(firstLine));

// The bridge's deadline is well inside the tests' own (600 s), so a server that never answers
// fails as the bridge's Timeout, naming the file, rather than as a test that ran out of time.
function config(checker: string, root: string): string {
  return writeConfig(`
[bridge]
max_result_bytes = 4194304
request_timeout_ms = 240000

[[server]]
name = "${checker}"
profile = "${checker}"

[[workspace]]
name = "fixture"
root = ${JSON.stringify(root)}
servers = ["${checker}"]
`);
}

beforeAll(() => requireBuild());

describe.each(Object.keys(CHECKERS) as (keyof typeof CHECKERS)[])("%s against its own CLI", (checker) => {
  describe.each(FIXTURES)("on %s", (fixture) => {
    const root = join(REPO, "tests/fixtures/differential", fixture);
    let cli: string[];
    beforeAll(async () => {
      cli = comparable(await CHECKERS[checker].cli(root, requireCachedTool(CHECKERS[checker].binary)));
    }, 120_000);

    test("the CLI finds plenty in several files, so a partial answer cannot pass", () => {
      expect(cli.length).toBeGreaterThan(10);
      expect(new Set(cli.map((key) => key.split(":")[0])).size).toBeGreaterThan(2);
    });

    test("lspmcp check: every finding matches, exit 1; a second run is byte-identical", async () => {
      const args = ["--config", config(checker, root), "--format", "json", "--quiet"];
      const first = await runCheckCli(args, { cwd: root });
      expect(first.stderr).toBe("");
      expect(first.code).toBe(1);
      expect(comparable((JSON.parse(first.stdout) as { items: Finding[] }).items)).toEqual(cli);
      const second = await runCheckCli(args, { cwd: root });
      expect(second.stdout).toBe(first.stdout);
    }, 600_000);

    test('the diagnostics tool on "." matches too, twice alike', async () => {
      const bridge: Bridge = await startBridge(config(checker, root));
      try {
        const answer = await diagnostics(bridge, { path: root, limit: 1000 });
        expect(answer.items).toHaveLength(answer.total);
        expect(comparable(answer.items)).toEqual(cli);
        const again = await diagnostics(bridge, { path: root, limit: 1000 });
        expect(again).toEqual(answer);
      } finally {
        await bridge.close();
      }
    }, 600_000);
  });
});

// ty's "Code is unreachable" hints once came and went from run to run (httpx's `_models.py:488`):
// which ones ty reports depended on how its checks were cancelled by files opened and closed while
// others were being answered. A batch now changes no open document until all of it is read, so
// every run is the same, hints included.
//
// This is the outcome a user sees, not the guard of the batching: with documents closed as soon
// as each file was read, three runs still came out byte-identical a third to half of the time.
// The guard is tests/check/batch-documents.test.ts: one pull per file and no cancellation in ty's
// own log, at a level shown (by its control) to log one.
describe("ty: three cold runs of lspmcp check on httpx (the outcome; batch-documents.test.ts is the guard)", () => {
  test("byte for byte the same, hints included", async () => {
    const root = join(REPO, "tests/fixtures/differential/python-httpx");
    requireCachedTool("ty/bin/ty");
    const args = ["--config", config("ty", root), "--format", "json", "--quiet"];
    const runs = [];
    // One after another, each a new bridge and a new ty: a cold start every time.
    for (let i = 0; i < 3; i++) runs.push(await runCheckCli(args, { cwd: root }));
    for (const run of runs) expect([run.code, run.stderr]).toEqual([1, ""]);
    const report = JSON.parse(runs[0]!.stdout) as { summary: { errors: number }; items: Finding[] };
    expect(report.summary.errors).toBeGreaterThan(10);
    expect(report.items.some((item) => item.severity === "hint" && item.message.startsWith("Code is unreachable"))).toBe(true);
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
    expect(runs[2]!.stdout).toBe(runs[0]!.stdout);
  }, 600_000);
});
