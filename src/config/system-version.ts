import { runOwnCommand } from "../exec/own-command.js";
import { resolveExecutable } from "./resolve-executable.js";
import type { RawProfile } from "./schema.js";
import { versionMatches } from "./version-match.js";

/** How long a version command may take: a cold start on a busy machine included. */
const VERSION_TIMEOUT_MS = 10_000;

/** A system server whose installed version is not the pin: what it said, and what is pinned. */
interface OffPin {
  readonly reported: string;
  readonly pinned: string;
  /** The version-looking part of what it said ("18.1.3"), for a pin that would match it. */
  readonly pinnable: string | null;
  /** The argv that said it, as the user would type it. */
  readonly asked: string;
}

/**
 * For a system-packaged profile (`install.from = "debian"`) with a `version_command`, runs that
 * command and says whether the installed server is another version than the pin: the distribution
 * lspmcp's pins match is Debian 12, and another one's package (Ubuntu's clangd 18) would fail
 * every call with `ServerVersionMismatch`. Null when it matches, when the profile is not a system
 * package (lspmcp installs those at their pins itself), or when the command cannot be resolved
 * (the caller's missing-executable check speaks for that). A command that fails counts as off pin.
 */
export async function offPin(profile: RawProfile, packageRoot: string, searchPath: string): Promise<OffPin | null> {
  const argv = profile.version_command;
  if (profile.install?.from !== "debian" || argv === undefined || profile.version === undefined) return null;
  const [head, ...args] = argv;
  const found = await resolveExecutable(head!, packageRoot, searchPath);
  if (!found.ok) return null;
  const pinned = profile.version;
  const asked = argv.join(" ");
  const env = { PATH: searchPath, HOME: process.env.HOME ?? "/", LANG: process.env.LANG ?? "C.UTF-8" };
  const { stdout, error } = await runOwnCommand([found.path, ...args], { env, timeoutMs: VERSION_TIMEOUT_MS, python: "server" });
  const line = stdout
    .split(/\r?\n/)
    .map((text) => text.trim())
    .find((text) => text !== "");
  const reported = error ? `nothing (${error.message.split("\n")[0]})` : (line ?? "");
  if (versionMatches(pinned, reported)) return null;
  return { reported, pinned, pinnable: /\d+(?:\.\d+)+(?:[-.\w]*\d)?/.exec(reported)?.[0] ?? null, asked };
}
