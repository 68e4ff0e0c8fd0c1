import { execFileSync } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { runCheckCli } from "../check/helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo } from "../helpers/temp-repo.js";

const OLD_ERROR = 'export const count: number = "three";\n';
const NEW_ERROR = "export const other: string = 4;\n";

/** A repository with one committed error (a.ts), checked by tsserver through `check --since`. */
function fixture() {
  const repo = tempRepo({
    "tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
    "a.ts": OLD_ERROR,
    "c.ts": "export const fine = 1;\n",
  });
  const runtime = tempDir("lspmcp-since-runtime-");
  const config = writeConfig(
    `[shared]\nlease_dir = ${JSON.stringify(runtime)}\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "w"\nroot = ${JSON.stringify(repo.root)}\nservers = ["typescript"]\n`,
  );
  const check = (...args: string[]) => runCheckCli(["--config", config, "--quiet", ...args], { cwd: repo.root });
  const footprint = () => `${repo.status()}\n${execFileSync("git", ["worktree", "list"], { cwd: repo.root, encoding: "utf8" })}`;
  return { repo, check, footprint, snapshots: () => readdirSync(runtime).filter((name) => name.startsWith("since-")) };
}

describe("lspmcp check --since", () => {
  test("only introduced findings fail; json and text mark each finding and count the resolved; nothing left behind", async () => {
    const { repo, check, footprint, snapshots } = fixture();
    const before = footprint();
    const unchanged = await check("--since", "HEAD");
    expect(unchanged.stderr).toBe("");
    expect(unchanged.code, unchanged.stderr).toBe(0);
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo.root, encoding: "utf8" }).trim();
    expect(unchanged.stdout).toBe(
      "a.ts:1:14: error: Type 'string' is not assignable to type 'number'. [ts 2322] (unchanged)\n" +
        `2 files checked: 1 error, 0 warnings, 0 information, 0 hints; since HEAD (${head.slice(0, 12)}): 0 introduced, 1 unchanged, 0 resolved; 0 at or above error\n`,
    );

    writeFileSync(join(repo.root, "b.ts"), NEW_ERROR);
    const introduced = await check("--since", "HEAD", "--format", "json");
    expect(introduced.code, introduced.stderr).toBe(1);
    const report = JSON.parse(introduced.stdout);
    expect(report.items.map((item: any) => `${item.path} ${item.since_state}`)).toEqual(["a.ts unchanged", "b.ts introduced"]);
    expect(report.resolved).toEqual([]);
    expect(report.summary.since).toEqual({ revision: "HEAD", commit: head, introduced: 1, unchanged: 1, resolved: 0 });
    expect(report.summary.failing).toBe(1);
    const never = await check("--since", "HEAD", "--fail-on", "never");
    expect(never.code, never.stderr).toBe(0);

    // a.ts fixed, and b.ts's error too: the old error is resolved, and nothing fails.
    writeFileSync(join(repo.root, "a.ts"), "export const count: number = 3;\n");
    writeFileSync(join(repo.root, "b.ts"), "export const other: string = 'four';\n");
    const fixed = await check("--since", "HEAD", "--format", "json");
    expect(fixed.code, fixed.stderr).toBe(0);
    const fixedReport = JSON.parse(fixed.stdout);
    expect(fixedReport.items).toEqual([]);
    expect(fixedReport.resolved.map((item: any) => `${item.path}:${item.range.start.line} ${item.since_state} ${item.code}`)).toEqual(["a.ts:1 resolved 2322"]);
    expect(fixedReport.summary.since.resolved).toBe(1);
    rmSync(join(repo.root, "b.ts"));
    execFileSync("git", ["checkout", "-q", "--", "a.ts"], { cwd: repo.root });
    expect(footprint()).toBe(before);
    expect(snapshots()).toEqual([]);
  }, 300_000);

  test("SARIF: baselineState new and unchanged, and absent results for the resolved ones", async () => {
    const { repo, check } = fixture();
    writeFileSync(join(repo.root, "a.ts"), `// moved down\n\n${OLD_ERROR}`);
    writeFileSync(join(repo.root, "c.ts"), `export const fine: number = "no";\n`);
    const moved = await check("--since", "HEAD", "--format", "sarif");
    expect(moved.code, moved.stderr).toBe(1);
    const states = (text: string) =>
      JSON.parse(text).runs[0].results.map(
        (result: any) =>
          `${result.locations[0].physicalLocation.artifactLocation.uri}:${result.locations[0].physicalLocation.region.startLine} ${result.baselineState}`,
      );
    expect(states(moved.stdout)).toEqual(["a.ts:3 unchanged", "c.ts:1 new"]);

    writeFileSync(join(repo.root, "a.ts"), "export const count: number = 3;\n");
    const fixed = await check("--since", "HEAD", "--format", "sarif");
    expect(fixed.code, fixed.stderr).toBe(1);
    expect(states(fixed.stdout)).toEqual(["c.ts:1 new", "a.ts:1 absent"]);
  }, 300_000);

  test("usage errors exit 2: an unknown revision, --since with --baseline, an empty revision", async () => {
    const { check, footprint } = fixture();
    const before = footprint();
    const unknown = await check("--since", "no-such-branch");
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain('git does not know the revision "no-such-branch"');
    expect((await check("--since", "HEAD", "--baseline", "x.json")).code).toBe(2);
    expect((await check("--since", "")).code).toBe(2);
    expect((await check("--since", "--all")).code).toBe(2);
    expect(footprint()).toBe(before);
  }, 300_000);
});
