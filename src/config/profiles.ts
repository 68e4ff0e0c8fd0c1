import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { PARSE_OPTIONS, problemsFromIssues, type ConfigProblem } from "./problems.js";
import { readToml } from "./read-toml.js";
import { ServerProfileSchema, type RawProfile } from "./schema.js";

/** A loaded profile, or the problems that make it unusable (each naming the profile file). */
type ProfileResult = { ok: true; profile: RawProfile; dir: string } | { ok: false; problems: string[] };

/**
 * Loads `servers/NAME.toml` below `root` (the lspmcp package root). Problems are returned as
 * messages for the caller to place under `server[i].profile`, since the user's file is where the
 * profile is named. `dir` is the directory its relative paths resolve against: `root` itself.
 */
export async function loadProfile(root: string, name: string): Promise<ProfileResult> {
  const known = await profileNames(root);
  if (!known.includes(name)) {
    return { ok: false, problems: [`unknown profile "${name}" (known: ${known.join(", ") || "none"})`] };
  }
  const file = join(root, "servers", `${name}.toml`);
  const toml = await readToml(file);
  if (!toml.ok) return { ok: false, problems: [toml.problem.message] };
  const parsed = ServerProfileSchema.safeParse(toml.value, PARSE_OPTIONS);
  if (!parsed.success) {
    const problems: ConfigProblem[] = problemsFromIssues([], parsed.error.issues);
    return { ok: false, problems: problems.map((problem) => `profile ${file}: ${problem.path}: ${problem.message}`) };
  }
  return { ok: true, profile: parsed.data, dir: root };
}

/** The profile names below `root`, sorted; a missing `servers/` folder means none. */
export async function profileNames(root: string): Promise<string[]> {
  const entries = await readdir(join(root, "servers"), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".toml"))
    .map((entry) => entry.name.slice(0, -".toml".length))
    .sort();
}
