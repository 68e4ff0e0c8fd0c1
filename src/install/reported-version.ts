import { resolveExecutable } from "../config/resolve-executable.js";
import { TOOL_CACHE_PREFIX } from "../config/tool-cache.js";
import { versionMatches } from "../config/version-match.js";
import { runOwnCommand } from "../exec/own-command.js";

/** How long a version command may take: a cold `node` start on a busy machine included. */
const VERSION_TIMEOUT_MS = 30_000;

/** What a version command said, and whether it satisfies the pin. */
type PinCheck = { readonly ok: true; readonly reported: string } | { readonly ok: false; readonly reported: string | null; readonly message: string };

/**
 * Runs a profile's `version_command` against the server in `folder` — its tool-cache folder
 * `{cache}/DIR/...`, or the staging folder an install fills — and checks the first line it prints
 * against `pin` by the sessions' own rule. Never rejects.
 */
export async function checkPin(argv: readonly string[], cacheFolder: string, folder: string, pin: string, searchPath: string): Promise<PinCheck> {
  const own = `${TOOL_CACHE_PREFIX}${cacheFolder}`;
  const expanded = argv.map((arg) => (arg === own || arg.startsWith(`${own}/`) ? folder + arg.slice(own.length) : arg));
  const [head, ...rest] = expanded;
  if (head === undefined) return { ok: false, reported: null, message: "the profile has no version_command" };
  const found = await resolveExecutable(head, folder, searchPath);
  if (!found.ok) return { ok: false, reported: null, message: found.message };
  const { stdout, error } = await runOwnCommand([found.path, ...rest], { timeoutMs: VERSION_TIMEOUT_MS });
  if (error) return { ok: false, reported: null, message: `${expanded.join(" ")} failed: ${error.message.split("\n")[0]}` };
  const reported = stdout
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line !== "");
  if (reported !== undefined && versionMatches(pin, reported)) return { ok: true, reported };
  return { ok: false, reported: reported ?? null, message: `${expanded.join(" ")} reports "${reported ?? ""}", pinned ${pin}` };
}
