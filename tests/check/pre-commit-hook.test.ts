import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { requireBuild } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { profilesConfig } from "../helpers/workspace.js";

// `lspmcp check --since HEAD` as a real pre-commit hook, in a linked worktree (`git worktree add`,
// as many keep one checkout per branch). git runs the hook there with GIT_DIR set to the worktree's
// admin folder and GIT_INDEX_FILE to its index, and GIT_PREFIX and GIT_CONFIG_PARAMETERS beside
// them. The workspace is a sub-folder of the checkout; a git started there with GIT_DIR and no
// GIT_WORK_TREE takes that sub-folder for the top of the work tree, so the index's paths match
// nothing under it, and the sub-folder's own .gitignore is read as the top's: a tracked file under
// an ignored folder (committed with `git add -f`) then looks ignored, is never checked, and its new
// error passes the gate. Every git lspmcp starts runs with those variables removed
// (src/git/run-git.ts).

let main: TempRepo;
let root: string;
let out: string;

beforeAll(() => {
  requireBuild();
  main = tempRepo({
    "app/.gitignore": "gen/\n",
    "app/tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
    "app/main.ts": "export const ok: number = 1;\n",
  });
  mkdirSync(join(main.root, "app/gen"));
  writeFileSync(join(main.root, "app/gen/api.ts"), "export const api: number = 1;\n");
  git(main.root, "add", "-f", "app/gen/api.ts");
  git(main.root, "commit", "-q", "-m", "generated");
  const dir = tempDir("lspmcp-hook-");
  root = join(dir, "wt");
  git(main.root, "worktree", "add", "-q", root);
  out = join(dir, "out");
  const config = join(dir, "bridge.toml");
  writeFileSync(config, profilesConfig(join(root, "app"), ["typescript"]));
  const hook = join(main.root, ".git/hooks/pre-commit");
  writeFileSync(
    hook,
    `#!/bin/sh\n${JSON.stringify(process.execPath)} ${JSON.stringify(BRIDGE_MAIN)} check --config ${JSON.stringify(config)} --since HEAD --format json > ${JSON.stringify(out)}\n`,
  );
  chmodSync(hook, 0o755);
});

function git(cwd: string, ...args: string[]) {
  return spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
}

describe("lspmcp check --since HEAD from a pre-commit hook in a linked worktree", () => {
  test("a new error in a tracked file under an ignored folder stops the commit", () => {
    const head = git(root, "rev-parse", "HEAD").stdout;
    writeFileSync(join(root, "app/gen/api.ts"), 'export const api: number = "broken";\n');
    git(root, "add", "-f", "app/gen/api.ts");

    const commit = git(root, "commit", "-q", "-m", "breaks the generated api");
    expect(commit.status, commit.stderr).toBe(1);
    expect(git(root, "rev-parse", "HEAD").stdout).toBe(head);
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report.items.map((item: { path: string; since_state: string }) => `${item.path} ${item.since_state}`)).toEqual(["gen/api.ts introduced"]);
  });

  test("the same hook lets a clean change through", () => {
    writeFileSync(join(root, "app/gen/api.ts"), "export const api: number = 2;\n");
    git(root, "add", "-f", "app/gen/api.ts");
    const commit = git(root, "commit", "-q", "-m", "a clean change");
    expect(commit.status, commit.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8")).items).toEqual([]);
    expect(git(root, "status", "--porcelain").stdout).toBe("");
  });
});
