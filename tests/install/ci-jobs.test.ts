// docs/ci.md's jobs, run: every shell step of its GitHub Actions and GitLab CI jobs, in order, in
// a pull request's checkout of a Python repository whose default branch is `trunk` (origin/trunk
// lacks the branch's new error). lspmcp is installed as the jobs' first step says, from
// LSPMCP_TARBALL: this checkout packed, standing in for the release's tarball, into a prefix of
// the test's own. Global git settings and apt-get are the CI machine's (root), so those steps are
// left to it. The gate must fail on the introduced error with a whole SARIF report, and the same
// check step on a broken config must leave no report behind.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { REPO } from "../helpers/paths.js";
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

const LEFT_TO_THE_MACHINE = [/^git config --global /, /apt-get install/];
const runnable = (steps: string[]): string[] => steps.filter((step) => !LEFT_TO_THE_MACHINE.some((skip) => skip.test(step)));

const BASE = "trunk";

function githubSteps(): string[] {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression, as the workflow spells it
  return [...yamlBlock("## GitHub Actions").matchAll(/^\s*- run: (.*)$/gm)].map((match) => command(match[1]!).replaceAll("${{ github.base_ref }}", BASE));
}

function gitlabSteps(): string[] {
  const block = yamlBlock("## GitLab CI");
  const script = block.slice(block.indexOf("  script:\n") + "  script:\n".length);
  return [...script.matchAll(/^ {4}- (.*)$/gm)].map((match) => command(match[1]!));
}

/** A pull request's checkout of a Python project: origin (a bare repository) has `trunk` with clean code, the branch adds a type error. */
function pullRequestCheckout(): string {
  const dir = tempDir("lspmcp-ci-");
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
  const seed = join(dir, "seed");
  execFileSync("mkdir", ["-p", seed]);
  git(seed, "init", "-q", "-b", BASE);
  writeFileSync(join(seed, "app.py"), "count: int = 1\n");
  writeFileSync(join(seed, "requirements.txt"), "# the project's dependencies\n");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", BASE);
  git(dir, "clone", "-q", "--bare", seed, "origin.git");
  git(dir, "clone", "-q", join(dir, "origin.git"), "checkout");
  const checkout = join(dir, "checkout");
  git(checkout, "checkout", "-q", "-b", "feature");
  writeFileSync(join(checkout, "app.py"), 'count: int = "one"\n');
  git(checkout, "commit", "-q", "-am", "feature");
  return checkout;
}

let tarball: string;
beforeAll(() => {
  const work = tempDir("lspmcp-ci-pack-");
  // dist/ is built before the tests run; --ignore-scripts skips prepack's second build.
  const name = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work, REPO], { cwd: work, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  tarball = join(work, name);
}, 300_000);

describe("docs/ci.md", () => {
  for (const [name, steps] of [
    ["GitHub Actions", githubSteps],
    ["GitLab CI", gitlabSteps],
  ] as const) {
    test(`${name}: the job installs lspmcp and runs, the gate fails on the introduced error with a whole SARIF report, and a broken config leaves no report`, {
      timeout: 600_000,
    }, () => {
      const all = steps();
      const gateStep = all.find((step) => step.startsWith("lspmcp check "))!;
      expect(gateStep).toBeDefined();
      expect(runnable(all)[0]).toBe('npm install -g "$LSPMCP_TARBALL"');
      const checkout = pullRequestCheckout();
      const prefix = tempDir("lspmcp-ci-prefix-");
      const env = {
        ...process.env,
        PATH: `${join(prefix, "bin")}:${process.env.PATH}`,
        LSPMCP_TARBALL: tarball,
        // npm install -g into the test's own prefix; the dependencies come from npm's cache when they are there.
        npm_config_prefix: prefix,
        npm_config_prefer_offline: "true",
        npm_config_audit: "false",
        npm_config_fund: "false",
        XDG_CACHE_HOME: tempDir("lspmcp-ci-cache-"),
        VIRTUAL_ENV: join(tempDir("lspmcp-ci-venv-"), "venv"),
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: BASE,
        CI_PROJECT_DIR: checkout,
      };
      const run = (step: string) => spawnSync("sh", ["-c", step], { cwd: checkout, env, encoding: "utf8" });
      for (const step of runnable(all)) {
        const result = run(step);
        if (step === gateStep) expect(result.status, result.stderr).toBe(1);
        else expect(result.status, `${step}\n${result.stderr}`).toBe(0);
      }
      // The lspmcp that ran is the installed one.
      expect(execFileSync("sh", ["-c", "command -v lspmcp"], { env, encoding: "utf8" }).trim()).toBe(join(prefix, "bin", "lspmcp"));
      expect(existsSync(join(env.VIRTUAL_ENV, "bin", "python3"))).toBe(true);
      const sarif = JSON.parse(readFileSync(join(checkout, "lspmcp.sarif"), "utf8"));
      const results = sarif.runs.flatMap((run: { results: { baselineState?: string; ruleId?: string }[] }) => run.results);
      expect(results).toContainEqual(expect.objectContaining({ ruleId: "reportAssignmentType", baselineState: "new" }));

      // A config error: exit 2, and no report to upload.
      writeFileSync(join(checkout, "bridge.toml"), "[[server]]\nname = 1\n");
      const broken = run(gateStep);
      expect(broken.status, broken.stderr).toBe(2);
      expect(existsSync(join(checkout, "lspmcp.sarif"))).toBe(false);
    });
  }
});
