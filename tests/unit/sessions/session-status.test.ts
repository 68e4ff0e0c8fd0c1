import { describe, expect, test } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import { sessionStatus, stateOf, type SessionFacts } from "../../../src/sessions/session-status.js";

const tree = { serverPid: 101, supervisorPid: 100, liveProcessCount: () => 3, memory: () => ({ rssKiB: 153_600, processes: 3, at: 0 }) };
const client = { requestsInFlight: 2, documents: { openCount: 5 } };
const facts = (over: Partial<SessionFacts>): SessionFacts => ({
  workspace: "web",
  server: { name: "tsgo", version: "7.1.x", max_rss_mb: 4096 },
  phase: "ready",
  closed: false,
  process: tree,
  client,
  reportedVersion: "7.1.0",
  answering: { name: "typescript", title: "TypeScript", version: "7.1.0", source: "workspace", path: "/web/packages/core/node_modules/typescript" },
  toolchain: null,
  root: "/web",
  projects: ["", "packages/core"],
  readyAt: 1_000,
  restarts: 1,
  maxOpenDocuments: 64,
  lastExit: null,
  lastError: null,
  stderrTail: ["loaded"],
  ...over,
});

describe("a session's status record", () => {
  test("a ready session shows its tree, memory, uptime, documents and requests, in the schema's key order", () => {
    const status = sessionStatus(facts({}), 4_500);
    expect(Object.keys(status)).toEqual([
      "workspace",
      "server",
      "state",
      "pid",
      "supervisor_pid",
      "tree_processes",
      "pinned_version",
      "reported_version",
      "compiler_source",
      "compiler_path",
      "refused",
      "projects",
      "uptime_ms",
      "restarts",
      "open_documents",
      "max_open_documents",
      "requests_in_flight",
      "rss_mb",
      "max_rss_mb",
      "last_exit",
      "last_error",
      "stderr_tail",
    ]);
    expect(status).toMatchObject({
      state: "ready",
      pid: 101,
      supervisor_pid: 100,
      tree_processes: 3,
      pinned_version: "7.1.x",
      reported_version: "7.1.0",
      compiler_source: "workspace",
      compiler_path: "packages/core/node_modules/typescript",
      refused: null,
      projects: ["", "packages/core"],
      uptime_ms: 3_500,
      open_documents: 5,
      requests_in_flight: 2,
      rss_mb: 150,
      max_rss_mb: 4096,
    });
  });

  test("a dead session keeps its last pids to say what died, but counts no tree, memory, uptime or work", () => {
    const status = sessionStatus(
      facts({
        phase: "dead",
        lastExit: { code: null, signal: "SIGKILL", reason: "memory", rss_mb: 4100 },
        lastError: new BridgeError("ServerCrashed", "web/tsgo: bytes that are not LSP framing", { session: "web/tsgo" }),
      }),
      4_500,
    );
    expect(status).toMatchObject({
      state: "dead",
      pid: 101,
      supervisor_pid: 100,
      tree_processes: 0,
      uptime_ms: null,
      open_documents: 0,
      requests_in_flight: 0,
      rss_mb: null,
      last_exit: { code: null, signal: "SIGKILL", reason: "memory", rss_mb: 4100 },
      last_error: { code: "ServerCrashed", message: "web/tsgo: bytes that are not LSP framing" },
    });
  });

  test("an idle session shows no process; one that takes no projects shows null", () => {
    const status = sessionStatus(facts({ phase: "idle", projects: null, readyAt: null }), 4_500);
    expect(status).toMatchObject({ state: "idle", pid: null, supervisor_pid: null, tree_processes: 0, projects: null, uptime_ms: null, rss_mb: null });
  });

  test("a stopping session is starting again when restarted, idle when closed for good, and its tree still counts", () => {
    expect([stateOf("stopping", false), stateOf("stopping", true), stateOf("dead", true)]).toEqual(["starting", "idle", "dead"]);
    expect(sessionStatus(facts({ phase: "stopping", closed: true }), 4_500)).toMatchObject({
      state: "idle",
      pid: 101,
      tree_processes: 3,
      rss_mb: 150,
      open_documents: 0,
    });
  });

  test("an idle session of a toolchain of its own names its compiler, and why it may not run when it may not", () => {
    const toolchain = { from: "/web/tools", key: "/web/tools/node_modules/typescript", refused: "/web/tools/node_modules is owned by eve (uid 1001)" };
    const status = sessionStatus(facts({ phase: "idle", answering: null, reportedVersion: null, toolchain }), 4_500);
    expect(status).toMatchObject({
      compiler_source: null,
      compiler_path: "tools/node_modules/typescript",
      refused: "/web/tools/node_modules is owned by eve (uid 1001)",
    });
    expect(
      sessionStatus(
        facts({ answering: { name: "typescript", title: "TypeScript", version: "7.0.2", source: "pinned", path: "/lspmcp/node_modules/typescript-7" } }),
        0,
      ),
    ).toMatchObject({
      compiler_source: "pinned",
      compiler_path: "pinned",
      refused: null,
    });
  });
});
