import { isDeadState, type ProcessIdentity, type ProcStat, readAllStats, readEnvironValue, readUid } from "./proc-table.js";
import { TOKEN_VAR } from "./server-env.js";

/** Which processes make up one supervised tree. */
interface TreeQuery {
  /** The session token: every process whose environment carries it belongs to the tree. */
  readonly token: string;
  /** Processes known to be in the tree (the server): they and their descendants belong too. */
  readonly roots?: readonly ProcessIdentity[];
  /** Pids never counted (the scanning process itself, the supervisor when counting the server's tree). */
  readonly exclude?: readonly number[];
  /** Only processes of this real uid (the orphan sweep stays within its own user). */
  readonly uid?: number;
  /**
   * The session id the tree was started in (the supervisor's pid: it runs setsid). Processes of
   * that session belong too — this finds a child that cleared its environment and lost its parent
   * — but only while a proven member is still in it: a session id is not reused while any process
   * holds it, so then the number still names our session and not a later one.
   */
  readonly sessionId?: number;
  /**
   * The supervisor's start time. A process that started earlier cannot carry the token — it was
   * made after them, and only inheritance or an exec by a member passes it on — so its environ is
   * not read. This keeps a scan cheap on a busy machine.
   */
  readonly notBefore?: number;
  /**
   * A memo of which processes carry the token, by `pid:starttime`, for a caller that scans the
   * same tree again and again (the memory watch): each process's environment is read once, not
   * on every scan. Entries of processes that are gone are dropped. Reaping never passes one: it
   * reads afresh.
   */
  readonly tokenMemo?: Map<string, boolean>;
}

/**
 * The live processes of a tree, from one pass over /proc. A process belongs when it carries the
 * token in its environment, is a root (same pid and start time), is in the tree's session (see
 * `sessionId`), or descends by parent links from a member — the last two catch children that were
 * started with a cleared environment. Zombies are left out: they have exited already.
 */
export function scanTree(query: TreeQuery): ProcessIdentity[] {
  const exclude = new Set([process.pid, ...(query.exclude ?? [])]);
  const stats = readAllStats().filter((s) => !isDeadState(s.state));
  // Proven members, excluded ones included: an excluded supervisor still proves its session ours.
  const proven = new Map<number, ProcStat>();
  for (const stat of stats) {
    if (query.uid !== undefined && readUid(stat.pid) !== query.uid) continue;
    const isRoot = query.roots?.some((r) => r.pid === stat.pid && r.startTime === stat.startTime);
    const mayCarry = query.notBefore === undefined || stat.startTime >= query.notBefore;
    if (isRoot || (mayCarry && carriesToken(stat, query))) proven.set(stat.pid, stat);
  }
  if (query.tokenMemo) pruneMemo(query.tokenMemo, stats);
  const members = new Map(proven);
  addSessionMembers(stats, members, query);
  addDescendants(stats, members, query.uid);
  return [...members.values()].filter((s) => !exclude.has(s.pid)).map((s) => ({ pid: s.pid, startTime: s.startTime }));
}

/** Whether the process's environment holds the token, through the query's memo when it has one. */
function carriesToken(stat: ProcStat, query: TreeQuery): boolean {
  const memo = query.tokenMemo;
  if (memo === undefined) return readEnvironValue(stat.pid, TOKEN_VAR) === query.token;
  const key = `${stat.pid}:${stat.startTime}`;
  let carries = memo.get(key);
  if (carries === undefined) {
    carries = readEnvironValue(stat.pid, TOKEN_VAR) === query.token;
    memo.set(key, carries);
  }
  return carries;
}

/** Drops the memo entries of processes that are no longer in /proc, once the memo outgrows the table. */
function pruneMemo(memo: Map<string, boolean>, stats: readonly ProcStat[]): void {
  if (memo.size <= stats.length) return;
  const live = new Set(stats.map((s) => `${s.pid}:${s.startTime}`));
  for (const key of memo.keys()) if (!live.has(key)) memo.delete(key);
}

/**
 * Adds, until nothing changes, every process whose parent is a member. A parent link can be
 * trusted: when a parent exits, its children are re-parented at once, so ppid always names the
 * current holder of that pid. The start-time check guards the read-to-read race all the same.
 */
function addDescendants(stats: readonly ProcStat[], members: Map<number, ProcStat>, uid?: number): void {
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    const list = children.get(stat.ppid);
    if (list) list.push(stat);
    else children.set(stat.ppid, [stat]);
  }
  const queue = [...members.values()];
  for (let parent = queue.pop(); parent !== undefined; parent = queue.pop()) {
    for (const child of children.get(parent.pid) ?? []) {
      if (members.has(child.pid) || child.startTime < parent.startTime) continue;
      if (uid !== undefined && readUid(child.pid) !== uid) continue;
      members.set(child.pid, child);
      queue.push(child);
    }
  }
}

/** Adds the processes of the tree's session, when a proven member shows the session is ours. */
function addSessionMembers(stats: readonly ProcStat[], members: Map<number, ProcStat>, query: TreeQuery): void {
  const sid = query.sessionId;
  if (sid === undefined || ![...members.values()].some((m) => m.sid === sid)) return;
  for (const stat of stats) {
    if (stat.sid !== sid || members.has(stat.pid)) continue;
    if (query.uid !== undefined && readUid(stat.pid) !== query.uid) continue;
    members.set(stat.pid, stat);
  }
}
