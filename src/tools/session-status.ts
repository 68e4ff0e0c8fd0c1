import { z } from "zod";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import type { Session } from "../sessions/session.js";
import { byteLength } from "../contract/bounds.js";
import { boundedSingle, toolResultShape } from "./bounded-answer.js";
import { wholeNumber } from "./common-schemas.js";

const TAIL_STEPS = [Number.POSITIVE_INFINITY, 10, 5, 2, 1];
import { defineTool } from "./tool-definition.js";

/** One session as `session_status` and `session_restart` show it. */
export const SessionStatusSchema = z.object({
  workspace: z.string(),
  server: z.string(),
  state: z.enum(["idle", "starting", "ready", "dead"]),
  pid: wholeNumber(1).nullable(),
  supervisor_pid: wholeNumber(1).nullable(),
  tree_processes: wholeNumber(0),
  pinned_version: z.string(),
  reported_version: z.string().nullable(),
  uptime_ms: wholeNumber(0).nullable(),
  restarts: wholeNumber(0),
  open_documents: wholeNumber(0),
  max_open_documents: wholeNumber(0),
  requests_in_flight: wholeNumber(0),
  last_exit: z.object({ code: z.number().int().nullable(), signal: z.string().nullable() }).nullable(),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  stderr_tail: z.array(z.string()),
});

export type SessionStatus = z.output<typeof SessionStatusSchema>;

/** A shipped profile the embedded default left out because its server is not installed here. */
const LeftOutSchema = z.object({
  server: z.string().describe("The profile's name."),
  reason: z.string().describe("What is missing."),
  install: z.string().describe("How to install it; the next serve then includes it."),
});

/** A session's status in schema key order. */
export function sessionStatus(workspace: ResolvedWorkspace, server: ResolvedServer, session: Session): SessionStatus {
  const snapshot = session.snapshot();
  return {
    workspace: workspace.name,
    server: server.name,
    state: snapshot.state,
    pid: snapshot.pid,
    supervisor_pid: snapshot.supervisor_pid,
    tree_processes: snapshot.tree_processes,
    pinned_version: server.version,
    reported_version: snapshot.reported_version,
    uptime_ms: snapshot.uptime_ms,
    restarts: snapshot.restarts,
    open_documents: snapshot.open_documents,
    max_open_documents: snapshot.max_open_documents,
    requests_in_flight: snapshot.requests_in_flight,
    last_exit: snapshot.last_exit ? { code: snapshot.last_exit.code, signal: snapshot.last_exit.signal } : null,
    last_error: snapshot.last_error,
    stderr_tail: snapshot.stderr_tail,
  };
}

export function renderStatusLine(status: SessionStatus): string {
  const pid = status.pid === null ? "" : ` pid ${status.pid}`;
  const exit = status.last_exit ? ` last exit code ${status.last_exit.code} signal ${status.last_exit.signal}` : "";
  return `${status.workspace}/${status.server}: ${status.state}${pid} (pinned ${status.pinned_version}, reported ${status.reported_version ?? "-"})${exit}`;
}

/**
 * `session_status`: every configured (workspace, server), whether started or not, and (for the
 * embedded default) the shipped servers left out because they are missing, with how to install them.
 */
export const sessionStatusTool = defineTool({
  name: "session_status",
  title: "Session status",
  description: "State of every configured session, and servers left out as not installed.",
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ sessions: z.array(SessionStatusSchema), left_out: z.array(LeftOutSchema) }),
  handler: async (_args, context) => {
    const sessions = context.sessions.all().map(({ workspace, server, session }) => sessionStatus(workspace, server, session));
    const leftOut = context.config.omitted.map(({ server, reason, install }) => ({ server, reason, install }));
    const leftOutLines = leftOut.map((left) => `left out ${left.server}: ${left.reason} (install: ${left.install})`);
    const bytes = context.config.bridge.max_result_bytes;
    const render = (keep: number) => {
      const trimmed = sessions.map((status) => ({ ...status, stderr_tail: keep === 0 ? [] : status.stderr_tail.slice(-keep) }));
      return { structured: { sessions: trimmed, left_out: leftOut }, text: [`${trimmed.length} session${trimmed.length === 1 ? "" : "s"} (workspace/server: state)`, ...trimmed.map(renderStatusLine), ...leftOutLines].join("\n") };
    };
    // Many sessions with chatty servers could outgrow the bound: the oldest stderr lines go first.
    for (const keep of TAIL_STEPS) {
      const answer = render(keep);
      if (byteLength(toolResultShape(answer)) <= bytes) return answer;
    }
    return boundedSingle(render(0), bytes);
  },
});
