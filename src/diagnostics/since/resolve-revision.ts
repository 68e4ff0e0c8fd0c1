import { realpathSync } from "node:fs";
import { relative, sep } from "node:path";
import type { ResolvedWorkspace } from "../../config/types.js";
import { BridgeError } from "../../contract/errors.js";
import { runGit } from "../../git/run-git.js";

/** A revision named by the caller, resolved in the checkout that holds a workspace. */
export interface ResolvedRevision {
  /** As given: "HEAD", "origin/main", a tag, a commit. */
  readonly revision: string;
  /** The full commit it names. */
  readonly commit: string;
  /** The checkout's top-level folder, symlinks resolved. */
  readonly top: string;
  /** The workspace root relative to `top`, "/" separators; "" when the root is the top-level. */
  readonly prefix: string;
}

/**
 * Resolves `revision` to a commit in the git checkout holding `workspace`. A workspace outside any
 * checkout, a revision git does not know (saying so when the clone is shallow, since the commit
 * may simply lie beyond its depth), and anything that reads as an option are `InvalidArguments`
 * with `details.since` (CONTRACT §4.3).
 */
export async function resolveRevision(workspace: ResolvedWorkspace, revision: string): Promise<ResolvedRevision> {
  const invalid = (message: string, extra: Record<string, unknown> = {}) =>
    new BridgeError("InvalidArguments", message, { fields: ["since"], since: revision, workspace: workspace.name, ...extra });
  // A leading "-" would be read by git as an option, whatever follows it.
  if (revision.trim() === "" || revision.startsWith("-") || revision.includes("\0")) throw invalid(`since: "${revision}" is not a git revision`);
  const topLevel = await runGit(workspace.root, ["rev-parse", "--show-toplevel"]);
  // Not the caller's fault: a git that cannot run says nothing about the checkout or the revision.
  const unrunnable = (result: { status: number | null; stderr: string }) =>
    result.status === null
      ? new BridgeError("Internal", `since: git could not run in ${workspace.root}: ${result.stderr.trim()}`, { workspace: workspace.name })
      : null;
  const notRun = unrunnable(topLevel);
  if (notRun) throw notRun;
  if (topLevel.status !== 0) {
    throw invalid(`since needs a git checkout, and workspace ${workspace.name} (${workspace.root}) is not in one`, { reason: "not a git checkout" });
  }
  const top = realpathSync(topLevel.stdout.trim());
  const parsed = await runGit(workspace.root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`]);
  const parseNotRun = unrunnable(parsed);
  if (parseNotRun) throw parseNotRun;
  if (parsed.status !== 0) {
    const shallow = (await runGit(workspace.root, ["rev-parse", "--is-shallow-repository"])).stdout.trim() === "true";
    if (shallow) {
      throw invalid(
        `since: git does not know the revision "${revision}" here, and this is a shallow clone: the commit may lie beyond its depth (fetch it, e.g. git fetch --deepen=N or --unshallow)`,
        { reason: "unknown revision", shallow: true },
      );
    }
    throw invalid(`since: git does not know the revision "${revision}" in ${top}`, { reason: "unknown revision", shallow: false });
  }
  const prefix = relative(top, workspace.root).split(sep).join("/");
  return { revision, commit: parsed.stdout.trim(), top, prefix };
}
