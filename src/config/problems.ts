import type { z } from "zod";
import { BridgeError } from "../contract/errors.js";
import { REPLACED_SERVER_KEYS } from "./schema.js";

/**
 * One thing wrong with a configuration. `path` is the TOML key path of the offending value
 * (`server[1].command`, `workspace[0].default_server.".h"`; array indices count from 0, in file
 * order), or "" for the file as a whole. `line`/`column` (1-based) are known only for TOML syntax
 * errors.
 */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** A key path as segments: table keys and array indices. */
export type KeyPath = readonly (string | number)[];

/** TOML bare keys need no quotes; anything else (".ts", "a b") is written as a quoted key. */
const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** Renders a key path the way a TOML user would write it: `server[1].env."MY VAR"`. */
export function formatKeyPath(path: KeyPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const key = BARE_KEY.test(segment) ? segment : JSON.stringify(segment);
      out += out === "" ? key : `.${key}`;
    }
  }
  return out;
}

/** A problem at `path` below `base`. */
export function problemAt(base: KeyPath, path: KeyPath, message: string): ConfigProblem {
  return { path: formatKeyPath([...base, ...path]), message };
}

/**
 * Parse options for the config schemas: a missing required key reads "required" rather than zod's
 * "expected string, received undefined".
 */
export const PARSE_OPTIONS = {
  error: (issue: z.core.$ZodRawIssue) => (issue.code === "invalid_type" && issue.input === undefined ? "required" : undefined),
};

/**
 * zod issues as problems below `base`. An unrecognized-keys issue becomes one problem per key, so
 * that each unknown key is reported at its own path; a key an adapter replaced says what did.
 */
export function problemsFromIssues(base: KeyPath, issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.flatMap((issue) => {
    const at = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
    if (issue.code === "unrecognized_keys") {
      // A server table is `server[i]` of a bridge.toml, or a whole profile file.
      const inServer = at.length === 0 || at[0] === "server";
      return issue.keys.map((key) => problemAt(base, [...at, key], inServer ? unknownKey(key) : "unknown key"));
    }
    return [problemAt(base, at, issue.message)];
  });
}

/** What an unknown key of a server table is told: plainly unknown, or what replaced it. */
function unknownKey(key: string): string {
  const replacement = REPLACED_SERVER_KEYS[key];
  return replacement === undefined ? "unknown key" : `${key} was replaced by ${replacement}`;
}

/**
 * Problems in a stable order: grouped by key path (indices compared as numbers), keeping the order
 * of discovery within one path. The same file always prints the same list.
 */
export function sortProblems(problems: readonly ConfigProblem[]): ConfigProblem[] {
  const collator = new Intl.Collator("en", { numeric: true });
  return [...problems].sort((a, b) => collator.compare(a.path, b.path));
}

/** One line of `lspmcp validate`: `KEY.PATH: message`, or the message alone for the whole file. */
export function formatProblem(problem: ConfigProblem): string {
  return problem.path === "" ? problem.message : `${problem.path}: ${problem.message}`;
}

/**
 * The ConfigInvalid error carrying every problem, sorted, in `details.problems`; its message lists
 * them one per line too, so that a log line of `serve` or `check` is enough to fix the file.
 */
export function configInvalid(configPath: string, problems: readonly ConfigProblem[]): BridgeError {
  const sorted = sortProblems(problems);
  const count = sorted.length === 1 ? "1 problem" : `${sorted.length} problems`;
  const lines = sorted.map((problem) => `  ${formatProblem(problem)}`).join("\n");
  return new BridgeError("ConfigInvalid", `invalid configuration ${configPath} (${count}):\n${lines}`, {
    path: configPath,
    problems: sorted,
  });
}
