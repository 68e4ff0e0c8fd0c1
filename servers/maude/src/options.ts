/**
 * The server's options, from `initializationOptions` (camelCase, as LSP servers take them).
 * Parsing is strict: a wrong type, an out-of-range number or an unknown key is an error that
 * names the key, because a typo silently ignored would leave a 60 s timeout nobody asked for.
 */
import { findExecutable } from "../../../src/exec/executable.js";

export interface MaudeServerOptions {
  /** Absolute path of the maude executable, resolved once at start. */
  readonly maudePath: string;
  /** Per-check deadline; the check's process group is killed after it. */
  readonly timeoutMs: number;
  /** How many maude processes may run at once; later checks queue. */
  readonly maxConcurrentChecks: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_CONCURRENT_CHECKS = 1;
const KNOWN_KEYS = new Set(["maudePath", "timeoutMs", "maxConcurrentChecks"]);

/** Parsed options, or every problem found (each naming its key). */
type OptionsResult = { ok: true; options: MaudeServerOptions } | { ok: false; problems: string[] };

/**
 * Validates raw `initializationOptions` and resolves `maudePath`.
 * @param env supplies PATH for the lookup (the bridge's rule: empty and relative entries are
 *   skipped); `cwd` anchors a relative `maudePath`.
 */
export function parseOptions(raw: unknown, env: NodeJS.ProcessEnv, cwd: string): OptionsResult {
  const problems: string[] = [];
  const obj: Record<string, unknown> = raw === null || raw === undefined ? {} : isRecord(raw) ? raw : {};
  if (raw !== null && raw !== undefined && !isRecord(raw)) problems.push("initializationOptions must be an object");
  for (const key of Object.keys(obj)) {
    if (!KNOWN_KEYS.has(key)) problems.push(`unknown option ${JSON.stringify(key)} (known: ${[...KNOWN_KEYS].join(", ")})`);
  }
  const timeoutMs = integer(obj, "timeoutMs", DEFAULT_TIMEOUT_MS, 1, 86_400_000, problems);
  const maxConcurrentChecks = integer(obj, "maxConcurrentChecks", DEFAULT_MAX_CONCURRENT_CHECKS, 1, 64, problems);
  const rawPath = obj.maudePath ?? "maude";
  let maudePath: string | null = null;
  if (typeof rawPath !== "string" || rawPath === "") problems.push("maudePath must be a non-empty string");
  else {
    const lookup = findExecutable(rawPath, env.PATH, cwd);
    if (lookup.found) maudePath = lookup.path;
    else {
      problems.push(
        rawPath.includes("/")
          ? `maudePath ${JSON.stringify(rawPath)} is not an executable file`
          : `maude executable ${JSON.stringify(rawPath)} was not found on PATH (${env.PATH ?? ""}); install Maude 3.2 (Debian package "maude") or set maudePath`,
      );
    }
  }
  if (problems.length > 0 || maudePath === null) return { ok: false, problems };
  return { ok: true, options: { maudePath, timeoutMs, maxConcurrentChecks } };
}

function integer(obj: Record<string, unknown>, key: string, dflt: number, min: number, max: number, problems: string[]): number {
  const v = obj[key];
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    problems.push(`${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return dflt;
  }
  return v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
