import { versionMatches } from "../config/version-match.js";
import { BridgeError } from "../contract/errors.js";
import { runOwnCommand } from "../exec/own-command.js";

/**
 * Runs a server's `version_command` (full argv, argv[0] absolute) once, with a deadline and the
 * same scrubbed environment as the server, as lspmcp runs its own commands (outside the
 * workspace, whose folders `checkouts` names), and returns its trimmed stdout (first line that
 * is not empty).
 */
export async function runVersionCommand(
  serverName: string,
  versionCommand: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
  checkouts: readonly string[] = [],
): Promise<string> {
  const [command, ...args] = versionCommand;
  if (command === undefined) throw new Error("no version_command");
  const { stdout, error } = await runOwnCommand([command, ...args], { env, timeoutMs, checkouts, python: "server" });
  if (error) {
    throw new BridgeError("ServerStartFailed", `version_command of ${serverName} failed: ${error.message}`, {
      server: serverName,
      version_command: versionCommand,
    });
  }
  return (
    stdout
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ""
  );
}

/** Throws `ServerVersionMismatch` with both versions unless `reported` satisfies the pin. */
export function assertPinned(serverName: string, pin: string, reported: string | null): void {
  if (reported !== null && versionMatches(pin, reported)) return;
  const message =
    reported === null
      ? `${serverName} reports no version (no serverInfo.version and no version_command); pinned ${pin}`
      : `${serverName} reports version "${reported}", pinned ${pin}`;
  throw new BridgeError("ServerVersionMismatch", message, { server: serverName, pinned: pin, reported });
}
