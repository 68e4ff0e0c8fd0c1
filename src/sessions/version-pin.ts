import { execFile } from "node:child_process";
import { BridgeError } from "../contract/errors.js";
import type { ResolvedServer } from "../config/types.js";

/**
 * Whether a reported version satisfies a pin: equal, or containing the pin as a whole token
 * (clangd's `Debian clangd version 14.0.6 linux+grpc` matches `14.0.6`, but `14.0.61` does not).
 */
export function versionMatches(pin: string, reported: string): boolean {
  const text = reported.trim();
  if (text === pin) return true;
  const escaped = pin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s,;:()\\[\\]"'=v])${escaped}($|[\\s,;:()\\[\\]"'+-])`).test(text);
}

/**
 * Runs the server's `version_command` once, with a deadline and the same scrubbed environment
 * as the server, and returns its trimmed stdout (first line that is not empty).
 */
export function runVersionCommand(server: ResolvedServer, env: Record<string, string>, timeoutMs: number): Promise<string> {
  const [command, ...args] = server.version_command ?? [];
  if (command === undefined) return Promise.reject(new Error("no version_command"));
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) {
        reject(
          new BridgeError("ServerStartFailed", `version_command of ${server.name} failed: ${error.message}`, {
            server: server.name,
            version_command: server.version_command,
          }),
        );
        return;
      }
      resolve(
        stdout
          .split(/\r?\n/)
          .map((line) => line.trim())
          .find((line) => line.length > 0) ?? "",
      );
    });
  });
}

/** Throws `ServerVersionMismatch` with both versions unless `reported` satisfies the pin. */
export function assertPinned(server: ResolvedServer, reported: string | null): void {
  if (reported !== null && versionMatches(server.version, reported)) return;
  const message =
    reported === null
      ? `${server.name} reports no version (no serverInfo.version and no version_command); pinned ${server.version}`
      : `${server.name} reports version "${reported}", pinned ${server.version}`;
  throw new BridgeError("ServerVersionMismatch", message, { server: server.name, pinned: server.version, reported });
}
