// docs/ci.md's jobs, run: the lspmcp and git steps of its GitHub Actions and GitLab CI jobs, in
// order, in a pull request's checkout (a clone whose origin/main lacks the branch's new error),
// with the built lspmcp on PATH as `lspmcp`. Installing lspmcp (npm install -g) is the package
// test's, and global git settings are the CI machine's, so those steps are left to it; the
// dependencies step runs, and must pass in a repository that is not JavaScript. The gate must fail on the introduced error, and the
// SARIF it wrote must be whole.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BRIDGE_MAIN, REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const DOC = readFileSync(join(REPO, "docs/ci.md"), "utf8");

/** The fenced yaml block under `heading`. */
function yamlBlock(heading: string): string {
  const at = DOC.indexOf(heading);
  const start = DOC.indexOf("```yaml\n", at) + "```yaml\n".length;
  return DOC.slice(start, DOC.indexOf("```", start));
}

/** A step's shell command without its trailing comment. */
const command = (line: string): string => line.replace(/\s+#\s.*$/, "").trim();

const LEFT_TO_THE_MACHINE = [/^npm install -g /, /^git config --global /];
const runnable = (steps: string[]): string[] => steps.filter((step) => !LEFT_TO_THE_MACHINE.some((skip) => skip.test(step)));

function githubSteps(): string[] {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression, as the workflow spells it
  return [...yamlBlock("## GitHub Actions").matchAll(/^\s*- run: (.*)$/gm)].map((match) => command(match[1]!).replaceAll("${{ github.base_ref }}", "main"));
}

function gitlabSteps(): string[] {
  const block = yamlBlock("## GitLab CI");
  const script = block.slice(block.indexOf("  script:\n") + "  script:\n".length);
  return [...script.matchAll(/^ {4}- (.*)$/gm)].map((match) => command(match[1]!));
}

/** A pull request's checkout: origin (a bare repository) has main with clean code, the branch adds a type error. */
function pullRequestCheckout(): string {
  const dir = tempDir("lspmcp-ci-");
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
  const seed = join(dir, "seed");
  execFileSync("mkdir", ["-p", seed]);
  git(seed, "init", "-q", "-b", "main");
  writeFileSync(join(seed, "app.ts"), "export const count: number = 1;\n");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "main");
  git(dir, "clone", "-q", "--bare", seed, "origin.git");
  git(dir, "clone", "-q", join(dir, "origin.git"), "checkout");
  const checkout = join(dir, "checkout");
  git(checkout, "checkout", "-q", "-b", "feature");
  writeFileSync(join(checkout, "app.ts"), 'export const count: number = "one";\n');
  git(checkout, "commit", "-q", "-am", "feature");
  return checkout;
}

/** A folder holding `lspmcp`: this checkout's build. */
function lspmcpOnPath(): string {
  const bin = tempDir("lspmcp-bin-");
  writeFileSync(join(bin, "lspmcp"), `#!/bin/sh\nexec "${process.execPath}" "${BRIDGE_MAIN}" "$@"\n`);
  chmodSync(join(bin, "lspmcp"), 0o755);
  return bin;
}

describe("docs/ci.md", () => {
  for (const [name, steps] of [
    ["GitHub Actions", githubSteps],
    ["GitLab CI", gitlabSteps],
  ] as const) {
    test(`${name}: the job's steps run, and the gate fails on the introduced error with a whole SARIF report`, { timeout: 300_000 }, () => {
      const all = steps();
      expect(all.some((step) => step.startsWith("lspmcp check "))).toBe(true);
      const checkout = pullRequestCheckout();
      // GitLab's name for the default branch; GitHub's base_ref is spelled out in githubSteps.
      const env = { ...process.env, PATH: `${lspmcpOnPath()}:${process.env.PATH}`, XDG_CACHE_HOME: tempDir("lspmcp-ci-cache-"), CI_DEFAULT_BRANCH: "main" };
      const codes: Record<string, number | null> = {};
      for (const step of runnable(all)) {
        const result = spawnSync("sh", ["-c", step], { cwd: checkout, env, encoding: "utf8" });
        codes[step] = result.status;
        if (!step.startsWith("lspmcp check ")) expect(result.status, `${step}\n${result.stderr}`).toBe(0);
      }
      const gate = Object.entries(codes).find(([step]) => step.startsWith("lspmcp check "))!;
      expect(gate[1]).toBe(1);
      const sarif = JSON.parse(readFileSync(join(checkout, "lspmcp.sarif"), "utf8"));
      const results = sarif.runs.flatMap((run: { results: { baselineState?: string; ruleId?: string }[] }) => run.results);
      expect(results).toContainEqual(expect.objectContaining({ ruleId: "2322", baselineState: "new" }));
    });
  }
});
