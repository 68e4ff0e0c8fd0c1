import { z } from "zod";
import { byteLength } from "../contract/bounds.js";
import { TOOLCHAIN_PATH_FIELD, TOOLCHAIN_SOURCE_FIELD } from "../contract/toolchain-fields.js";
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
  [TOOLCHAIN_SOURCE_FIELD]: z.enum(["workspace", "pinned"]).nullable(),
  [TOOLCHAIN_PATH_FIELD]: z.string().nullable(),
  refused: z.string().nullable(),
  projects: z.array(z.string()).nullable().describe('Project roots it answers, relative ("" the root); null: none, or not started.'),
  uptime_ms: wholeNumber(0).nullable(),
  restarts: wholeNumber(0),
  open_documents: wholeNumber(0),
  max_open_documents: wholeNumber(0),
  requests_in_flight: wholeNumber(0),
  rss_mb: z.number().nullable().describe("Resident MiB of the whole process tree; null: not running."),
  max_rss_mb: wholeNumber(1).nullable().describe("The tree's cap; null: none."),
  last_exit: z
    .object({
      code: z.number().int().nullable(),
      signal: z.string().nullable(),
      reason: z.enum(["memory", "idle"]).nullable().describe("memory: past max_rss_mb; idle: idle_stop_s passed."),
      rss_mb: z.number().nullable().describe("With reason memory: the MiB seen."),
    })
    .nullable(),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  stderr_tail: z.array(z.string()),
});

export type SessionStatus = z.output<typeof SessionStatusSchema>;

/** A shipped profile the embedded default left out because its server is not installed here. */
const LeftOutSchema = z.object({
  server: z.string().describe("The profile's name."),
  state: z.literal("not_installed"),
  reason: z.string().describe("What is missing."),
  install: z.string().describe("The command that installs it (lspmcp servers install NAME, or apt-get install); the next serve then includes it."),
});

/** A server the embedded default chose for what the project configures (pyright's place taken by ty…). */
const ChosenSchema = z.object({
  server: z.string().describe("The profile's name."),
  reason: z.string().describe('Why: "configured by ty.toml", or why pyright is Python\'s.'),
});

export function renderStatusLine(status: SessionStatus): string {
  const pid = status.pid === null ? "" : ` pid ${status.pid}`;
  const rss = status.rss_mb === null ? "" : ` rss ${status.rss_mb} MiB${status.max_rss_mb === null ? "" : ` of ${status.max_rss_mb}`}`;
  return `${status.workspace}/${status.server}: ${status.state}${pid}${rss} (pinned ${status.pinned_version}, reported ${status.reported_version ?? "-"}${renderToolchain(status)})${renderProjects(status.projects)}${renderExit(status.last_exit)}`;
}

/** " under projects ., packages/core": the roots a started server was told of. */
function renderProjects(projects: SessionStatus["projects"]): string {
  if (projects === null || projects.length === 0) return "";
  return ` under projects ${projects.map((folder) => folder || ".").join(", ")}`;
}

function renderToolchain(status: SessionStatus): string {
  const source = status[TOOLCHAIN_SOURCE_FIELD];
  const path = status[TOOLCHAIN_PATH_FIELD];
  if (status.refused !== null) return `, not run: ${status.refused}`;
  if (source === null) return path === null ? "" : `, the toolchain ${path}`;
  return source === "pinned" ? ", the pinned toolchain" : `, the project's own toolchain ${path}`;
}

/** The last exit in words: code and signal, and why the bridge ended it when it did. */
function renderExit(exit: SessionStatus["last_exit"]): string {
  if (exit === null) return "";
  const why = exit.reason === "memory" ? ` (ended for memory: ${exit.rss_mb} MiB)` : exit.reason === "idle" ? " (stopped idle)" : "";
  return ` last exit code ${exit.code} signal ${exit.signal}${why}`;
}

/**
 * `session_status`: every configured (workspace, server), whether started or not, and (for the
 * embedded default) the shipped servers left out because they are missing, with how to install them.
 */
export const sessionStatusTool = defineTool({
  name: "session_status",
  title: "Session status",
  description: "Each session's state, and why the default chose or left out servers.",
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ sessions: z.array(SessionStatusSchema), chosen: z.array(ChosenSchema), left_out: z.array(LeftOutSchema) }),
  handler: async (_args, context) => {
    const sessions = context.sessions.all().map(({ session }) => session.status());
    const leftOut = context.config.omitted.map(({ server, reason, install }) => ({ server, state: "not_installed" as const, reason, install }));
    const chosen = context.config.chosen.map(({ server, reason }) => ({ server, reason }));
    const chosenLines = chosen.map((one) => `chose ${one.server}: ${one.reason}`);
    const leftOutLines = leftOut.map((left) => `left out ${left.server}: not_installed, ${left.reason} (install: ${left.install})`);
    const bytes = context.config.bridge.max_result_bytes;
    const render = (keep: number) => {
      const trimmed = sessions.map((status) => ({ ...status, stderr_tail: keep === 0 ? [] : status.stderr_tail.slice(-keep) }));
      return {
        structured: { sessions: trimmed, chosen, left_out: leftOut },
        text: [
          `${trimmed.length} session${trimmed.length === 1 ? "" : "s"} (workspace/server: state)`,
          ...trimmed.map(renderStatusLine),
          ...chosenLines,
          ...leftOutLines,
        ].join("\n"),
      };
    };
    // Many sessions with chatty servers could outgrow the bound: the oldest stderr lines go first.
    for (const keep of TAIL_STEPS) {
      const answer = render(keep);
      if (byteLength(toolResultShape(answer)) <= bytes) return answer;
    }
    return boundedSingle(render(0), bytes);
  },
});
