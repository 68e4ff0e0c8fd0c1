import { copyFile, mkdir, rm } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { randomBytes } from "node:crypto";
import { BridgeError } from "../../contract/errors.js";
import { nulFields, runGit } from "../../git/run-git.js";

/**
 * The renames git reports between `commit` and the working tree of `top`, as current path →
 * path at the commit (both relative to the top-level). Files moved without `git mv` count too:
 * on a throwaway copy of the index (in `scratchDir`, never the checkout's), untracked files are
 * marked intent-to-add, so that `diff-index -M` pairs them with the files they replaced, as it
 * would after `git add`. Marking one writes the empty blob into the object store (git 2.39 does),
 * so git writes objects into a throwaway store beside that index, reading the repository's own
 * as an alternate: nothing is added under the checkout's .git.
 */
export async function renamesSince(top: string, commit: string, scratchDir: string): Promise<Map<string, string>> {
  const scratch = join(scratchDir, `renames-${randomBytes(6).toString("hex")}`);
  try {
    await mkdir(join(scratch, "objects"), { recursive: true });
    const paths = await runGit(top, ["rev-parse", "--git-path", "index", "--git-path", "objects"]);
    const [gitIndex, gitObjects] = paths.stdout.split("\n").map((path) => (isAbsolute(path) ? path : join(top, path)));
    if (paths.status !== 0 || gitIndex === undefined || gitObjects === undefined) {
      throw new BridgeError("Internal", `git rev-parse --git-path failed: ${paths.stderr.trim()}`, { top });
    }
    // A repository without any commit staged yet has no index; git reads a missing one as empty.
    await copyFile(gitIndex, join(scratch, "index")).catch(() => {});
    const env = { GIT_INDEX_FILE: join(scratch, "index"), GIT_OBJECT_DIRECTORY: join(scratch, "objects"), GIT_ALTERNATE_OBJECT_DIRECTORIES: gitObjects };
    const untracked = nulFields((await runGit(top, ["ls-files", "-z", "--others", "--exclude-standard"])).stdout);
    if (untracked.length > 0) {
      // Literal pathspecs: a file named "*.ts" must not stand for every TypeScript file.
      await runGit(top, ["--literal-pathspecs", "add", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul"], {
        env,
        input: untracked.join("\0"),
      });
    }
    const diff = await runGit(top, ["diff-index", "--no-ext-diff", "--no-textconv", "-M", "-z", "--name-status", commit, "--"], { env });
    if (diff.status !== 0) throw new BridgeError("Internal", `git diff-index failed: ${diff.stderr.trim()}`, { commit });
    return parseRenames(diff.stdout);
  } finally {
    await rm(scratch, { recursive: true, force: true });
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
