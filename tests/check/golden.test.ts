import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv-draft-04";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURE, runCheckCli, type CliResult } from "./helpers/cli.js";
import { GOLDEN_DIR, readGolden } from "./helpers/golden.js";

interface GoldenCase {
  readonly golden: string;
  readonly args: string[];
  readonly exit: number;
}

// The invocations behind the goldens live in one file that scripts/update-check-golden.mjs reads too.
const cases: GoldenCase[] = JSON.parse(readFileSync(join(GOLDEN_DIR, "cases.json"), "utf8"));
const results = new Map<string, CliResult>();

beforeAll(async () => {
  // One run per format; they run side by side, since each waits mostly on its servers.
  const runs = await Promise.all(cases.map((c) => runCheckCli(c.args)));
  cases.forEach((c, i) => results.set(c.golden, runs[i]!));
});

describe("check on the fixture workspace (TypeScript, Python, Maude)", () => {
  for (const c of cases) {
    it(`prints exactly ${c.golden} and exits ${c.exit} (${c.args.slice(2).join(" ") || "defaults"})`, () => {
      const result = results.get(c.golden)!;
      expect(result.stderr).toBe("");
      expect(result.code).toBe(c.exit);
      // Regenerate on purpose with scripts/update-check-golden.mjs, never from here.
      expect(result.stdout).toBe(readGolden(c.golden));
    });
  }

  it("covers errors, warnings and hints from all three servers, and skips excluded and unclaimed files", () => {
    const report = JSON.parse(results.get("all.json")!.stdout);
    const seen = new Set(report.items.map((item: { server: string; severity: string }) => `${item.server}:${item.severity}`));
    expect([...seen].sort()).toEqual(["maude:warning", "pyright:error", "pyright:warning", "typescript:error", "typescript:hint"]);
    const paths = report.items.map((item: { path: string }) => item.path);
    expect(paths.some((path: string) => path.startsWith("vendor/"))).toBe(false);
    expect(report.summary.files).toBe(5);
  });

  it("writes SARIF that the official SARIF 2.1.0 JSON Schema accepts", () => {
    const schema = JSON.parse(readFileSync(join(FIXTURE, "sarif-schema-2.1.0.json"), "utf8"));
    // The official schema is draft-04; ajv-draft-04 is ajv's own validator for that draft.
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const log = JSON.parse(results.get("all.sarif")!.stdout);
    const valid = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(log.runs.map((run: any) => `${run.tool.driver.name} ${run.tool.driver.version}`)).toEqual(["typescript 7.0.2", "pyright 1.1.414", "maude 0.1.0"]);
  });

  it("points SARIF results at 1-based regions of workspace-relative artifacts", () => {
    const log = JSON.parse(results.get("all.sarif")!.stdout);
    const typescript = log.runs[0];
    const result = typescript.results.find((r: any) => r.ruleId === "2322");
    const location = result.locations[0].physicalLocation;
    expect(location.artifactLocation).toEqual({ uri: "src/greet.ts", uriBaseId: "%SRCROOT%", index: 0 });
    // `export const count: number = "three";` is line 6; "count" starts at column 14.
    expect(location.region).toEqual({ startLine: 6, startColumn: 14, endLine: 6, endColumn: 19 });
    expect(typescript.tool.driver.rules[result.ruleIndex]).toEqual({ id: "2322" });
    expect(typescript.artifacts[0].location).toEqual({ uri: "src/greet.ts", uriBaseId: "%SRCROOT%" });
  });
});
