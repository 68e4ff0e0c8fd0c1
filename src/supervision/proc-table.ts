import { readFileSync, readdirSync } from "node:fs";

/** The fields of `/proc/PID/stat` that supervision needs. */
export interface ProcStat {
  readonly pid: number;
  readonly comm: string;
  /** One letter: R, S, D, Z, T, X, ... */
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
  /** Field 22: clock ticks after boot at which the process started. With the pid, it names one process. */
  readonly startTime: number;
  /**
   * Fields 14–17: CPU time in clock ticks (USER_HZ, 100 a second on Linux) spent by the process
   * and by its children it has waited for, so that a tree's sum does not fall when a child exits.
   */
  readonly cpuTicks: number;
}

/** Pids of every process visible in /proc right now (threads are not listed). */
function listPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    // Only the numeric entries are processes; everything else is kernel state.
    if (name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57) pids.push(Number(name));
  }
  return pids;
}

/**
 * Parses one `/proc/PID/stat` line. `comm` may itself contain spaces and parentheses, so the
 * fields after it are found from the last `)`. Returns undefined for text that is not a stat line.
 */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const rest = text.slice(close + 2).split(" ");
  const startTime = Number(rest[19]);
  if (rest.length < 20 || !Number.isFinite(startTime)) return undefined;
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state: rest[0] ?? "?",
    ppid: Number(rest[1]),
    pgid: Number(rest[2]),
    sid: Number(rest[3]),
    startTime,
    cpuTicks: Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]),
  };
}

/** The stat of one process, or undefined when it is gone (or was never there). */
export function readStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return undefined;
  }
}

/** Every live process's stat. A process that vanishes while /proc is read is simply left out. */
export function readAllStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat !== undefined) stats.push(stat);
  }
  return stats;
}

/**
 * Whether the process is a kernel thread: kthreadd (pid 2) or one of its children. They run no
 * program and have no environment, so no lspmcp tree can hold one; most of /proc on an idle
 * machine is them. (Inside a PID namespace none are visible.)
 */
export function isKernelThread(stat: ProcStat): boolean {
  return stat.pid === 2 || stat.ppid === 2;
}

/** The real uid of a process (first field of `Uid:` in /proc/PID/status), or undefined when gone. */
export function readUid(pid: number): number | undefined {
  try {
    const match = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resident memory of a process in KiB (`VmRSS:` of /proc/PID/status: anonymous, file-backed and
 * shared pages it has mapped in RAM), or undefined when it is gone. Kernel threads and zombies
 * have no VmRSS line and count as 0.
 */
export function readRssKiB(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {
    return undefined;
  }
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) : 0;
}

/**
 * The value of one variable in the environment a process was started (exec'd) with, or undefined
 * when it is absent, the process is gone, or its environ cannot be read (another user's process).
 */
export function readEnvironValue(pid: number, name: string): string | undefined {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  const key = Buffer.from(`${name}=`, "latin1");
  let at = environ.indexOf(key);
  while (at >= 0) {
    // A match only counts at the start of an entry, not inside another variable's value.
    if (at === 0 || environ[at - 1] === 0) {
      const end = environ.indexOf(0, at);
      return environ.toString("utf8", at + key.length, end < 0 ? environ.length : end);
    }
    at = environ.indexOf(key, at + 1);
  }
  return undefined;
}

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
