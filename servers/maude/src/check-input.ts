/**
 * The file `maude` is run on. When the document's text is what is on disk, that is the file
 * itself. Otherwise it is a copy in a fresh private temporary directory, under the same base name
 * (so Maude's warnings name it as they would name the original), with relative load directives
 * rewritten to absolute paths (Maude resolves them against the loading file's directory, which for
 * the copy is the temporary one). The rewrite stays on the directive's line, so line numbers hold.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { resolveLoadTarget } from "./load-graph.js";
import { outlineMaude } from "./outline.js";

// Copies in use right now, so that an exit in the middle of a check can still remove them.
const liveTempDirs = new Set<string>();

/** Removes every temporary copy still in use; synchronous, for the server's exit handler. */
export function removeAllTempDirs(): void {
  for (const dir of liveTempDirs) rmSync(dir, { recursive: true, force: true });
  liveTempDirs.clear();
}

export interface CheckInput {
  /** The path passed to maude. */
  readonly file: string;
  /** The working directory for maude: the document's folder when it exists. */
  readonly cwd: string;
  /** The temporary directory holding a copy, or null when maude reads the document itself. */
  readonly tempDir: string | null;
  /** Removes the temporary copy, if any. Idempotent. */
  cleanup(): void;
}

/**
 * Prepares the input for a document at `path` (null for a document with no file) whose current
 * text is `text`. Throws only when no temporary copy can be written.
 */
export function prepareCheckInput(path: string | null, text: string): CheckInput {
  const bytes = Buffer.from(text, "utf8");
  if (path !== null && sameBytes(path, bytes)) {
    return { file: path, cwd: dirname(path), tempDir: null, cleanup: () => {} };
  }
  const tempDir = mkdtempSync(join(tmpdir(), "lspmcp-maude-"));
  liveTempDirs.add(tempDir);
  const name = path === null ? "untitled.maude" : basename(path);
  const copy = join(tempDir, name);
  const folder = path === null ? null : dirname(path);
  writeFileSync(copy, folder === null ? text : absoluteLoads(text, folder), { mode: 0o600 });
  let removed = false;
  return {
    file: copy,
    cwd: folder !== null && isDirectory(folder) ? folder : tempDir,
    tempDir,
    cleanup: () => {
      if (removed) return;
      removed = true;
      liveTempDirs.delete(tempDir);
      rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

// Rewrites `load x` to `load /abs/x` where x resolves from `folder`; leaves the rest alone.
function absoluteLoads(text: string, folder: string): string {
  let out = "";
  let at = 0;
  for (const load of outlineMaude(text).loads) {
    if (isAbsolute(load.path)) continue;
    const target = resolveLoadTarget(folder, load.path);
    // A path with whitespace would not survive as one Maude file name; keep the original then.
    if (target === null || /\s/.test(target)) continue;
    out += text.slice(at, load.pathStart) + target;
    at = load.pathEnd;
  }
  return out + text.slice(at);
}

function sameBytes(path: string, bytes: Buffer): boolean {
  try {
    return readFileSync(path).equals(bytes);
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
