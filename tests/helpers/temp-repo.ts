import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { REPO } from "./paths.js";

/** A throwaway git repository holding exactly `files`, committed, so `git status` starts clean. */
export interface TempRepo {
  /** The work tree's top-level, symlinks resolved (as lspmcp reports it). */
  readonly root: string;
  /** `git status --porcelain --ignored`: every untracked or ignored path (empty when clean). */
  status(): string;
  remove(): void;
}

/** Creates a temp git repo with `files` (path → content) committed. */
export function tempRepo(files: Record<string, string>): TempRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "lspmcp-repo-")));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
  return { root, status: () => git("status", "--porcelain", "--ignored"), remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A TypeScript file with one known type error (TS2322) on `count`. */
export const BROKEN_TS = 'export const count: number = "not a number";\n';
/** A Python file with one known type error (pyright: str assigned to int) on `total`. */
export const BROKEN_PY = 'total: int = "not a number"\n';

/** A fixture workspace (`tests/fixtures/workspaces/NAME`) as a committed temp git repo. */
export function fixtureRepo(name: string): TempRepo {
  const source = join(REPO, "tests/fixtures/workspaces", name);
  const files: Record<string, string> = {};
  for (const path of readdirSync(source, { recursive: true }) as string[]) {
    if (statSync(join(source, path)).isFile()) files[path] = readFileSync(join(source, path), "utf8");
  }
  return tempRepo(files);
}
