import { readStat } from "./proc-table.js";

/**
 * One process, named by pid AND start time: a pid alone may be reused by an unrelated process
 * after the original exits, the pair may not (start time only grows).
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: number;
}

/** The identity of a live process right now, or undefined when there is none (or only a zombie). */
export function identify(pid: number): ProcessIdentity | undefined {
  const stat = readStat(pid);
  if (stat === undefined || isDeadState(stat.state)) return undefined;
  return { pid, startTime: stat.startTime };
}

/** True while this very process (same pid, same start time) is alive; zombies count as gone. */
export function isAlive(id: ProcessIdentity): boolean {
  const stat = readStat(id.pid);
  return stat !== undefined && stat.startTime === id.startTime && !isDeadState(stat.state);
}

/**
 * Zombies (Z) and dying tasks (X) have already exited: they hold no resources but a pid, and
 * their parent — possibly an init that never reaps — decides when they vanish.
 */
export function isDeadState(state: string): boolean {
  return state === "Z" || state === "X";
}

/** `pid:starttime`, the form kept in the environment (LSPMCP_OWNER). */
export function formatIdentity(id: ProcessIdentity): string {
  return `${id.pid}:${id.startTime}`;
}

/** Parses `pid:starttime`; undefined for anything else. */
export function parseIdentity(text: string): ProcessIdentity | undefined {
  const match = /^(\d+):(\d+)$/.exec(text.trim());
  if (!match) return undefined;
  return { pid: Number(match[1]), startTime: Number(match[2]) };
}
