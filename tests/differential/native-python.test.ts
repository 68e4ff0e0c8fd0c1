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

/**
 * A check report without its hints. ty's "Code is unreachable" hints are not the same from run
 * to run (httpx's `_models.py:488` comes and goes with how ty's concurrent checks interleave with
 * the files' opening and closing: docs/servers.md); its CLI never prints them, and its errors and
 * warnings are the same every time.
 */
function withoutHints(stdout: string): unknown {
  const report = JSON.parse(stdout) as { items: Finding[]; summary: Record<string, unknown> };
  return { items: report.items.filter((item) => item.severity !== "hint"), summary: { ...report.summary, hints: null } };
}

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
      if (checker === "pyrefly") expect(second.stdout).toBe(first.stdout);
      else expect(withoutHints(second.stdout)).toEqual(withoutHints(first.stdout));
    }, 600_000);

    test('the diagnostics tool on "." matches too, twice alike', async () => {
      const bridge: Bridge = await startBridge(config(checker, root));
      try {
        const answer = await diagnostics(bridge, { path: root, limit: 1000 });
        expect(answer.items).toHaveLength(answer.total);
        expect(comparable(answer.items)).toEqual(cli);
        const again = await diagnostics(bridge, { path: root, limit: 1000 });
        if (checker === "pyrefly") expect(again).toEqual(answer);
        else expect(again.items.filter((item) => item.severity !== "hint")).toEqual(answer.items.filter((item) => item.severity !== "hint"));
      } finally {
        await bridge.close();
      }
    }, 600_000);
  });
});

/**
 * A report with ty's unreachable-code hints taken out, re-serialized: what must not vary from run
 * to run. Those hints do (docs/servers.md, "What the real servers need"): which ones ty reports
 * depends on how its concurrent checks interleave with the open files' changes.
 */
function steadyPart(stdout: string): string {
  const report = JSON.parse(stdout) as { items: Finding[]; summary: Record<string, unknown> };
  const items = report.items.filter((item) => !(item.severity === "hint" && item.message.startsWith("Code is unreachable")));
  return JSON.stringify({ ...report, items, summary: { ...report.summary, hints: null } });
}

describe("ty: three cold runs of lspmcp check on httpx", () => {
  test("byte for byte the same but for ty's unreachable-code hints: every error, warning and other hint", async () => {
    const root = join(REPO, "tests/fixtures/differential/python-httpx");
    requireCachedTool("ty/bin/ty");
    const args = ["--config", config("ty", root), "--format", "json", "--quiet"];
    const runs = [];
    // One after another, each a new bridge and a new ty: a cold start every time.
    for (let i = 0; i < 3; i++) runs.push(await runCheckCli(args, { cwd: root }));
    for (const run of runs) expect([run.code, run.stderr]).toEqual([1, ""]);
    const steady = runs.map((run) => steadyPart(run.stdout));
    expect((JSON.parse(runs[0]!.stdout) as { summary: { errors: number; warnings: number } }).summary.errors).toBeGreaterThan(10);
    expect(steady[1]).toBe(steady[0]);
    expect(steady[2]).toBe(steady[0]);
  }, 600_000);
});
