import { copyFile, rm } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { randomBytes } from "node:crypto";
import { BridgeError } from "../contract/errors.js";
import { git, nulFields } from "./git.js";

/**
 * The renames git reports between `commit` and the working tree of `top`, as current path →
 * path at the commit (both relative to the top-level). Files moved without `git mv` count too:
 * on a throwaway copy of the index (in `scratchDir`, never the checkout's), untracked files are
 * marked intent-to-add, which writes no object, so that `diff-index -M` pairs them with the
 * files they replaced, as it would after `git add`.
 */
export async function renamesSince(top: string, commit: string, scratchDir: string): Promise<Map<string, string>> {
  const index = join(scratchDir, `renames-index-${randomBytes(6).toString("hex")}`);
  try {
    const gitIndex = (await git(top, ["rev-parse", "--git-path", "index"])).stdout.trim();
    // A repository without any commit staged yet has no index; git reads a missing one as empty.
    await copyFile(isAbsolute(gitIndex) ? gitIndex : join(top, gitIndex), index).catch(() => {});
    const env = { GIT_INDEX_FILE: index };
    const untracked = nulFields((await git(top, ["ls-files", "-z", "--others", "--exclude-standard"])).stdout);
    if (untracked.length > 0) {
      // Literal pathspecs: a file named "*.ts" must not stand for every TypeScript file.
      await git(top, ["--literal-pathspecs", "add", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul"], {
        env,
        input: untracked.join("\0"),
      });
    }
    const diff = await git(top, ["diff-index", "-M", "-z", "--name-status", commit, "--"], { env });
    if (diff.status !== 0) throw new BridgeError("Internal", `git diff-index failed: ${diff.stderr.trim()}`, { commit });
    return parseRenames(diff.stdout);
  } finally {
    await rm(index, { force: true });
    await rm(`${index}.lock`, { force: true });
  }
}

/** `--name-status -z` records: a status, then one path, or two for renames and copies. */
export function parseRenames(output: string): Map<string, string> {
  const renames = new Map<string, string>();
  const fields = nulFields(output);
  for (let i = 0; i < fields.length; ) {
    const status = fields[i++]!;
    if (status.startsWith("R") || status.startsWith("C")) {
      const from = fields[i++]!;
      const to = fields[i++]!;
      // A copy leaves the original where it was; only a rename moves its findings.
      if (status.startsWith("R")) renames.set(to, from);
    } else {
      i++;
    }
  }
  return renames;
}
