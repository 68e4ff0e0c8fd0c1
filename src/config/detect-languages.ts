import { opendir } from "node:fs/promises";
import { basename, extname, join, relative, sep } from "node:path";
import { spawnGit } from "../git/run-git.js";
import { ownFolderTest } from "./own-folders.js";

/** What to look for: lower-case extensions with their dot (".ts"), and exact file names ("tsconfig.json"). */
interface DetectionKeys {
  readonly extensions: ReadonlySet<string>;
  readonly filenames: ReadonlySet<string>;
  /** File names whose every path is wanted (their contents decide: `[tool.ruff]` in a pyproject.toml). */
  readonly collect?: ReadonlySet<string>;
  /** How many collected paths are kept at most; MAX_COLLECTED unless given. */
  readonly maxCollected?: number;
}

/** Which of the keys occur under the root. */
export interface Detected {
  readonly extensions: Set<string>;
  readonly filenames: Set<string>;
  /** Paths (relative to the root, "/" separators, in listing order) of the files named in `collect`, at most `maxCollected`. */
  readonly collected: string[];
  /** Paths looked at before the answer was complete (all keys seen, or the listing ended). */
  readonly scanned: number;
  /** How the files were listed. */
  readonly via: "git" | "walk";
}

/** Collected paths kept at most: each is read by the caller, and a monorepo may have hundreds. */
const MAX_COLLECTED = 256;
/** A walk outside git stops after this many entries: a huge folder must not stall `serve`. */
const MAX_WALK_ENTRIES = 200_000;
/** Folders a walk never enters: dependencies, version-control state, caches and other dot-folders. */
const SKIPPED = new Set(["node_modules", "__pycache__"]);

/**
 * Finds which of `keys` occur among the files of `root`: git's tracked and untracked-not-ignored
 * files when `root` is in a work tree (`git ls-files`, streamed, stopped as soon as every key has
 * been seen), else a walk that skips dependencies and dot-folders. lspmcp's own folders (its tool
 * cache, state and runtime folders) are skipped wherever they are. Never throws: an unreadable
 * folder is skipped.
 */
export async function detectLanguages(root: string, keys: DetectionKeys): Promise<Detected> {
  const own = ownFolderTest(root);
  return (await fromGit(root, keys, own)) ?? (await fromWalk(root, keys, own));
}

class Tally {
  readonly extensions = new Set<string>();
  readonly filenames = new Set<string>();
  readonly collected: string[] = [];
  scanned = 0;
  constructor(private readonly keys: DetectionKeys) {}

  /** Records one path; true once every key has been seen and nothing is left to collect. */
  see(path: string): boolean {
    this.scanned++;
    const name = basename(path);
    if (this.keys.filenames.has(name)) this.filenames.add(name);
    const extension = extname(name).toLowerCase();
    if (extension !== "" && this.keys.extensions.has(extension)) this.extensions.add(extension);
    const collecting = this.keys.collect !== undefined && this.keys.collect.size > 0 && this.collected.length < (this.keys.maxCollected ?? MAX_COLLECTED);
    if (collecting && this.keys.collect!.has(name)) this.collected.push(path);
    return !collecting && this.extensions.size === this.keys.extensions.size && this.filenames.size === this.keys.filenames.size;
  }
}

// Streamed rather than buffered: on a big checkout the keys are usually all seen long before the
// end of the listing, and then git is stopped.
async function fromGit(root: string, keys: DetectionKeys, own: (path: string) => boolean): Promise<Detected | null> {
  const child = await spawnGit(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  return new Promise((resolve) => {
    const tally = new Tally(keys);
    let rest = "";
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      child.stdout.destroy();
      if (child.exitCode === null) child.kill();
      resolve(ok ? { extensions: tally.extensions, filenames: tally.filenames, collected: tally.collected, scanned: tally.scanned, via: "git" } : null);
    };
    child.once("error", () => finish(false));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const parts = (rest + chunk).split("\0");
      rest = parts.pop() ?? "";
      for (const path of parts) if (path !== "" && !own(path) && tally.see(path)) return finish(true);
    });
    child.once("close", (code) => {
      if (rest !== "" && !own(rest)) tally.see(rest);
      finish(code === 0);
    });
  });
}

async function fromWalk(root: string, keys: DetectionKeys, own: (path: string) => boolean): Promise<Detected> {
  const tally = new Tally(keys);
  const pending = [root];
  let complete = false;
  while (pending.length > 0 && !complete && tally.scanned < MAX_WALK_ENTRIES) {
    const dir = pending.pop()!;
    const entries = await opendir(dir).catch(() => null);
    if (entries === null) continue;
    for await (const entry of entries) {
      const path = relative(root, join(dir, entry.name)).split(sep).join("/");
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED.has(entry.name) && !own(path)) pending.push(join(dir, entry.name));
      } else if ((entry.isFile() || entry.isSymbolicLink()) && tally.see(path)) {
        complete = true;
        break;
      }
    }
  }
  return { extensions: tally.extensions, filenames: tally.filenames, collected: tally.collected, scanned: tally.scanned, via: "walk" };
}
