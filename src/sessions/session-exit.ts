import { BridgeError } from "../contract/errors.js";
import type { ExitInfo } from "../supervision/index.js";

/** The last end of a session's server, as `session_status` shows it. */
export interface SessionExit {
  readonly code: number | null;
  readonly signal: string | null;
  /**
   * Why the bridge ended it: `memory`, its tree passed `max_rss_mb`; `idle`, it had no call for
   * `idle_stop_s`. Null: it ended on its own.
   */
  readonly reason: "memory" | "idle" | null;
  /** With `memory`: the tree's resident memory (MiB) in the sample that passed the cap; else null. */
  readonly rss_mb: number | null;
}

/** A supervisor's exit report as `session_status` shows it: a memory verdict is the reason. */
export function sessionExit(exit: ExitInfo): SessionExit {
  const over = exit.overMemory;
  return { code: exit.code, signal: exit.signal, reason: over ? "memory" : null, rss_mb: over ? toMiB(over.rssKiB) : null };
}

/** KiB to MiB, to one decimal. */
export function toMiB(kib: number): number {
  return Math.round((kib / 1024) * 10) / 10;
}

/**
 * What every call to a dead session answers: `SessionDead` with how the server ended and, when the
 * bridge ended it for its memory, `reason: "memory"` with the RSS seen and the cap.
 */
export function sessionDeadError(
  key: string,
  lastExit: SessionExit | null,
  lastError: BridgeError | null,
  stderrTail: string[],
  maxRssMb: number | null,
): BridgeError {
  const memory = lastExit?.reason === "memory" ? lastExit : null;
  const message = memory
    ? `session ${key} was ended: its process tree used ${memory.rss_mb} MiB, past its max_rss_mb of ${maxRssMb}; call session_restart to start it again`
    : `session ${key} is dead; call session_restart to start it again`;
  return new BridgeError("SessionDead", message, {
    session: key,
    reason: lastExit?.reason ?? null,
    ...(memory ? { rss_mb: memory.rss_mb, max_rss_mb: maxRssMb } : {}),
    exit_code: lastExit?.code ?? null,
    exit_signal: lastExit?.signal ?? null,
    last_error: lastError ? { code: lastError.code, message: lastError.message } : null,
    stderr_tail: stderrTail,
  });
}
