import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { ResolvedConfig, ResolvedWorkspace } from "../../config/types.js";
import { BridgeError } from "../../contract/errors.js";
import { MAX_SOURCE_BYTES, readSourceFile } from "../../files/read-source-file.js";
import { pickWorkspace, resolveFile, type FileTarget } from "../../targets/resolve-target.js";
import { runGit } from "../../git/run-git.js";
import { applyHunks, parseUnifiedDiff } from "./unified-diff.js";

/** `changes` as the tool takes it: whole texts (null deletes), or one unified diff. */
export type ChangesArg = readonly { readonly path: string; readonly text: string | null }[] | { readonly patch: string };

/** One file as the preview would have it, resolved in its workspace. */
export interface PreviewChange {
  readonly workspace: ResolvedWorkspace;
  readonly file: FileTarget;
  /** The text on disk now; null when the file does not exist yet (the change creates it). */
  readonly before: string | null;
  /** The text with the change; null when the change deletes the file. */
  readonly after: string | null;
}

/**
 * Resolves `changes` (CONTRACT §4.4) before any server is asked: every path inside its workspace
 * (`PathOutsideWorkspace`), at most `max_preview_files` files, each new text within the bridge's
 * source file bound, a patch applied to the files as they are on disk (a hunk that does not apply
 * is `InvalidArguments` with `details.patch`). A patch's paths are relative to the top of the git
 * checkout holding the workspace, as `git diff` prints them (the workspace root outside git).
 * Reads the disk only; nothing is written and no server is told anything.
 */
export async function resolveChanges(config: ResolvedConfig, workspaceName: string | undefined, changes: ChangesArg): Promise<PreviewChange[]> {
  const limit = config.bridge.max_preview_files;
  const wanted: {
    workspace: ResolvedWorkspace;
    file: FileTarget;
    text: string | null | ((before: string | null) => string | null | Promise<string | null>);
  }[] = [];
  if ("patch" in changes) {
    const diffs = parseUnifiedDiff(changes.patch);
    const base = await patchBase(pickWorkspace(config, workspaceName));
    for (const diff of diffs) {
      if (diff.oldPath !== null && diff.newPath !== null && diff.oldPath !== diff.newPath) {
        // A rename is the old file deleted and the new one created with the hunks applied.
        const old = place(config, workspaceName, base, diff.oldPath);
        wanted.push({ ...old, text: null });
        const created = place(config, workspaceName, base, diff.newPath);
        const shown = created.file.path;
        wanted.push({ ...created, text: async () => applyHunks(shown, (await readBefore(old.file)) ?? "", diff.hunks) });
        continue;
      }
      const path = (diff.newPath ?? diff.oldPath)!;
      const placed = place(config, workspaceName, base, path);
      if (diff.newPath === null) wanted.push({ ...placed, text: null });
      else wanted.push({ ...placed, text: (before) => applyHunks(placed.file.path, before ?? "", diff.hunks) });
    }
  } else {
    if (changes.length === 0) throw invalid("changes name no file", { files: 0, limit });
    for (const change of changes) {
      const workspace = pickWorkspace(config, workspaceName, change.path);
      wanted.push({ workspace, file: resolveFile(workspace, change.path), text: change.text });
    }
  }
  const seen = new Set<string>();
  for (const { file } of wanted) {
    if (seen.has(file.absolutePath)) throw invalid(`changes name ${file.path} twice`, { path: file.path });
    seen.add(file.absolutePath);
  }
  if (wanted.length > limit)
    throw invalid(`changes name ${wanted.length} files; at most max_preview_files (${limit}) can be previewed at once`, { files: wanted.length, limit });
  const resolved: PreviewChange[] = [];
  for (const { workspace, file, text } of wanted) {
    const before = await readBefore(file);
    const after = typeof text === "function" ? await text(before) : text;
    if (after !== null) {
      const bytes = Buffer.byteLength(after, "utf8");
      if (bytes > MAX_SOURCE_BYTES)
        throw invalid(`${file.path}: the new text is ${bytes} bytes, more than ${MAX_SOURCE_BYTES}`, { path: file.path, bytes, limit: MAX_SOURCE_BYTES });
      if (after.includes("\0")) throw invalid(`${file.path}: the new text holds NUL bytes`, { path: file.path });
    }
    if (before === null && after === null) throw new BridgeError("FileNotFound", `changes delete ${file.path}, which does not exist`, { path: file.path });
    resolved.push({ workspace, file, before, after });
  }
  return resolved;
}

/** A file's text on disk, or null when there is none (a file the change creates). */
async function readBefore(file: FileTarget): Promise<string | null> {
  try {
    return await readSourceFile(file.absolutePath, file.path);
  } catch (error) {
    if (error instanceof BridgeError && error.code === "FileNotFound") return null;
    throw error;
  }
}

/** The folder a patch's paths are relative to: the checkout's top, or the workspace root outside git. */
async function patchBase(workspace: ResolvedWorkspace): Promise<string> {
  const top = await runGit(workspace.root, ["rev-parse", "--show-toplevel"]);
  return top.status === 0 ? realpathSync(top.stdout.trim()) : workspace.root;
}

function place(config: ResolvedConfig, workspaceName: string | undefined, base: string, path: string): { workspace: ResolvedWorkspace; file: FileTarget } {
  const absolute = resolve(base, path);
  const workspace = pickWorkspace(config, workspaceName, absolute);
  return { workspace, file: resolveFile(workspace, absolute) };
}

function invalid(message: string, details: Record<string, unknown>): BridgeError {
  return new BridgeError("InvalidArguments", message, { fields: ["changes"], ...details });
}
