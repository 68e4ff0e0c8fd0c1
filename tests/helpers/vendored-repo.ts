import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "./temp.js";

/**
 * A throwaway git repository holding a vendored project at `under` (a monorepo's sub-folder), plus
 * `extra` files, all committed; `ignored` files are written after the commit and ignored by a
 * top-level .gitignore (a dependency folder that the checkout has and git does not).
 */
export interface VendoredRepo {
  /** The repository's top-level, symlinks resolved. */
  readonly top: string;
  /** The project's folder inside it (the workspace root). */
  readonly root: string;
  git(...args: string[]): string;
  /** What must not change when lspmcp compares with a revision: status with ignored files, and the worktree list. */
  footprint(): string;
  read(path: string): string;
  write(path: string, text: string): void;
}

export function vendoredRepo(fixture: string, under: string, options: { extra?: Record<string, string>; ignored?: Record<string, string> } = {}): VendoredRepo {
  const top = realpathSync(tempDir("lspmcp-since-"));
  const root = join(top, under);
  cpSync(fixture, root, { recursive: true });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [path, text] of Object.entries(options.extra ?? {})) write(path, text);
  writeFileSync(join(top, ".gitignore"), "node_modules/\n.venv/\n__pycache__/\n");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: top, encoding: "utf8" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "vendored");
  for (const [path, text] of Object.entries(options.ignored ?? {})) write(path, text);
  return {
    top,
    root,
    git,
    footprint: () =>
      `${git("status", "--porcelain", "--ignored")}\n--\n${git("worktree", "list", "--porcelain")}\n--\n${readdirSync(join(top, ".git")).sort().join(" ")}`,
    read: (path) => readFileSync(join(root, path), "utf8"),
    write,
  };
}
