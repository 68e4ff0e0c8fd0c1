import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { planDefault } from "../config/default-plan.js";
import { gitTopLevel } from "../config/discover-config.js";
import { packageRoot } from "../config/package-root.js";
import { renderDefaultToml, renderSkeletonToml } from "../config/render-default-toml.js";
import { answeringComment, projectRootsIn } from "../languages/index.js";

/**
 * `lspmcp init`: writes the embedded default for this folder's git top-level (else this folder)
 * as a commented `bridge.toml` in `cwd`. Exit 0 when written; 2, with the file untouched, when
 * one exists already (the exclusive create makes that true even against a racing writer). Where
 * no installed shipped profile serves the folder, the file is a skeleton with a [[server]] to fill in.
 */
export async function init(cwd: string): Promise<number> {
  const target = join(cwd, "bridge.toml");
  const root = gitTopLevel(cwd) ?? cwd;
  const plan = await planDefault(root, { packageRoot: packageRoot(), searchPath: process.env.PATH ?? "", projectRoots: projectRootsIn });
  const schema = join(packageRoot(), "config", "bridge.schema.json");
  const skeleton = plan.servers.length === 0;
  const text = skeleton
    ? renderSkeletonToml(plan.workspace, schema)
    : renderDefaultToml(plan, cwd, schema, ({ name, profile }, at, projects) =>
        profile.adapter && profile.command ? answeringComment(name, profile.adapter, profile.command, at, projects) : null,
      );
  let fd: number;
  try {
    fd = openSync(target, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    process.stderr.write(`lspmcp init: ${target} exists; left untouched (remove it first to write a fresh one)\n`);
    return 2;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  const left = plan.omitted.map((omitted) => `\n  left out ${omitted.server}: ${omitted.reason} (install: ${omitted.install})`).join("");
  const what = skeleton
    ? `a skeleton: no installed shipped profile serves a language of ${plan.root}; fill in its [[server]] (docs/adding-a-server.md), then run lspmcp validate`
    : `workspace ${plan.root}; servers ${plan.servers.map((server) => server.name).join(", ")}`;
  process.stderr.write(`lspmcp init: wrote ${target} (${what})${left}\n`);
  return 0;
}
