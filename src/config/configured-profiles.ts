import { formatProblem, problemAt, type ConfigProblem } from "./problems.js";
import { readToml } from "./read-toml.js";

/** What a bridge.toml asks of the shipped profiles, read without resolving anything. */
interface ConfiguredProfiles {
  /** The shipped profiles its servers run as they ship (no `command` of their own), in file order, once each. */
  readonly profiles: readonly string[];
  /** Its servers that run a program of their own: `server[1] (web): its own command`. */
  readonly own: readonly string[];
  /** What stops a server from being read (a syntax error, a `profile` that is not a string), each once. */
  readonly problems: readonly string[];
}

/**
 * The profiles a bridge.toml's `[[server]]` tables run, for `servers install --for`: it must read
 * a file whose servers are not installed yet, which loading it would refuse, so it reads only the
 * `profile` and `command` keys, and leaves every other check to `validate`.
 */
export async function configuredProfiles(path: string): Promise<ConfiguredProfiles> {
  const toml = await readToml(path);
  if (!toml.ok) return { profiles: [], own: [], problems: [formatProblem(toml.problem)] };
  const tables = Array.isArray(toml.value.server) ? (toml.value.server as unknown[]) : [];
  const profiles: string[] = [];
  const own: string[] = [];
  const problems: ConfigProblem[] = [];
  tables.forEach((table, index) => {
    const entry = (typeof table === "object" && table !== null ? table : {}) as Record<string, unknown>;
    const name = typeof entry.name === "string" ? ` (${entry.name})` : "";
    if (entry.profile !== undefined && typeof entry.profile !== "string") {
      problems.push(problemAt(["server", index], ["profile"], "must be a profile name"));
      return;
    }
    if (entry.command !== undefined || entry.profile === undefined) {
      own.push(`server[${index}]${name}`);
      return;
    }
    if (!profiles.includes(entry.profile)) profiles.push(entry.profile);
  });
  return { profiles, own, problems: problems.map(formatProblem) };
}
