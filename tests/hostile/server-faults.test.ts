// Server faults (issue 7): each fault of the fake server gives its typed error, the bridge's
// memory stays bounded, and the healthy session of the same bridge keeps answering with the same
// bytes as before the fault ("nothing lost"). Figures go to docs/contributors/reliability.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace, SAMPLE_TEXT } from "../helpers/fake-config.js";
import { pollUntil } from "../helpers/poll.js";
import { GateClock, memoryOf } from "../helpers/proc.js";

const FAULTS = ["garbage", "bad-length", "huge", "unknown-id", "never-answer", "exit", "log-flood", "apply-edit"] as const;
// Generous enough for a 100 MB answer to stream past the guard on a busy machine (about 2.7 s here).
const TIMEOUT_MS = 8000;

let bridge: Bridge;
let root: string;
let recordFile: string;
let baseline: string;

const hover = (server: string) => bridge.call("hover", { path: `a.${server}`, line: 1, column: 4 });
const goodDiagnostics = async () => JSON.stringify(await bridge.call("diagnostics", { path: "a.good" }));
const statusOf = async (server: string) => ((await bridge.ok("session_status")).sessions as any[]).find((session) => session.server === server);

beforeAll(async () => {
  recordFile = join(fakeWorkspace([]).root, "never-answer.jsonl");
  const workspace = fakeWorkspace(
    [
      { name: "good", extension: ".good" },
      ...FAULTS.map((fault) => ({
        name: fault,
        extension: `.${fault}`,
        flags: ["--fault", fault, ...(fault === "never-answer" ? ["--record", recordFile] : [])],
      })),
      { name: "initerr", extension: ".initerr", flags: ["--initialize-error"] },
    ],
    `request_timeout_ms = ${TIMEOUT_MS}\nmax_result_bytes = 32768`,
  );
  root = workspace.root;
  bridge = await startBridge(workspace.config);
  baseline = await goodDiagnostics();
  expect(JSON.parse(baseline).structuredContent.total).toBe(2);
});
afterAll(async () => bridge?.close());

/** After every fault: bounded memory, and the good session answers the same bytes as before. */
async function afterFault(fault: string): Promise<void> {
  const { rssKiB, hwmKiB } = memoryOf(bridge.pid);
  console.log(`[figure] fault=${fault} bridge_rss_kib=${rssKiB} bridge_peak_rss_kib=${hwmKiB}`);
  expect(hwmKiB).toBeLessThan(250 * 1024);
  expect(await goodDiagnostics()).toBe(baseline);
  expect(await bridge.ok("document_symbols", { path: "a.good" })).toMatchObject({ total: 2 });
}

const errorOf = (result: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown }) => {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse(result.content[0]!.text).error as { code: string; message: string; details: Record<string, any> };
};

describe("server faults give typed errors and the other session keeps answering", () => {
  /** The session that broke the protocol is dead with the reason; session_restart brings it back. */
  async function deadThenRestarted(server: string, reason: RegExp): Promise<void> {
    const dead = errorOf(await bridge.call("document_symbols", { path: `a.${server}` }));
    expect(dead.code).toBe("SessionDead");
    expect(dead.details.last_error).toMatchObject({ code: "ServerCrashed", message: expect.stringMatching(reason) });
    const started = Date.now();
    expect(await bridge.ok("session_restart", { server })).toMatchObject({ state: "ready" });
    expect(await bridge.ok("document_symbols", { path: `a.${server}` })).toMatchObject({ total: 2 });
    console.log(`[figure] fault=${server} recover_ms=${Date.now() - started}`);
  }

  test("garbage bytes between messages: ServerCrashed at once, the session is dead", async () => {
    // ServerCrashed, not Timeout: the call ended before its deadline.
    const error = errorOf(await hover("garbage"));
    expect(error.code).toBe("ServerCrashed");
    expect(error.details).toMatchObject({ method: "textDocument/hover", reason: expect.stringMatching(/not LSP framing/) });
    await deadThenRestarted("garbage", /not LSP framing/);
    await afterFault("garbage");
  });

  test("a Content-Length longer than the body: Timeout, then the desynchronised stream is detected", async () => {
    // The bridge cannot know the body is short until more bytes come: waiting is the truth.
    const first = errorOf(await hover("bad-length"));
    expect(first).toMatchObject({ code: "Timeout", details: { waiting_for: "textDocument/hover" } });
    // The next answer completes the over-long body, which is then not JSON.
    const second = errorOf(await hover("bad-length"));
    expect(second.code).toBe("ServerCrashed");
    expect(second.details.reason).toMatch(/not JSON-RPC/);
    await deadThenRestarted("bad-length", /not JSON-RPC/);
    await afterFault("bad-length");
  });

  test("a 100 MB answer: dropped while it streams in, that request fails, the session goes on", async () => {
    const started = Date.now();
    const error = errorOf(await hover("huge"));
    expect(error.code).toBe("ServerCrashed");
    expect(error.details).toMatchObject({
      method: "textDocument/hover",
      message_bytes: expect.any(Number),
      reason: expect.stringMatching(/over the bound of 33554432 bytes/),
    });
    console.log(`[figure] fault=huge answer_ms=${Date.now() - started}`);
    // Nothing of the 100 MB was buffered: the peak stays far below the message's size.
    expect(memoryOf(bridge.pid).hwmKiB).toBeLessThan(200 * 1024);
    expect((await statusOf("huge")).state).toBe("ready");
    expect(await bridge.ok("document_symbols", { path: "a.huge" })).toMatchObject({ total: 2 });
    await afterFault("huge");
  });

  test("an answer for an id that was never sent, then the real one", async () => {
    const result = await bridge.ok("hover", { path: "a.unknown-id", line: 1, column: 4 });
    expect(result.contents).toBe("hover 0:3");
    await afterFault("unknown-id");
  });

  test("a server that never answers: Timeout, and the request is cancelled with $/cancelRequest", async () => {
    // The Timeout comes at the deadline, net of the time a loaded machine kept the bridge from a CPU.
    const clock = new GateClock([bridge.pid]);
    const error = errorOf(await hover("never-answer"));
    expect(error.code).toBe("Timeout");
    expect(error.details).toMatchObject({ timeout_ms: TIMEOUT_MS, waiting_for: "textDocument/hover" });
    expect(clock.chargedMs()).toBeLessThan(TIMEOUT_MS + 1500);
    const received = () =>
      readFileSync(recordFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
    const hoverId = received().find((message) => message.method === "textDocument/hover").id;
    const cancelled = () => received().some((m) => m.method === "$/cancelRequest" && m.params?.id === hoverId);
    const sinceAnswer = new GateClock([bridge.pid, (await statusOf("never-answer")).pid]);
    await pollUntil(() => cancelled() || sinceAnswer.chargedMs() > 2000, 30_000);
    expect(cancelled()).toBe(true);
    expect((await statusOf("never-answer")).state).toBe("ready");
    await afterFault("never-answer");
  });

  test("a server that exits mid-request: ServerCrashed, then SessionDead until session_restart", async () => {
    // ServerCrashed, not Timeout: the call ended before its deadline.
    const error = errorOf(await hover("exit"));
    expect(error.code).toBe("ServerCrashed");
    const dead = errorOf(await bridge.call("document_symbols", { path: "a.exit" }));
    expect(dead.code).toBe("SessionDead");
    expect(dead.details).toMatchObject({ exit_code: 5 });
    const restartStarted = Date.now();
    expect(await bridge.ok("session_restart", { server: "exit" })).toMatchObject({ state: "ready" });
    expect(await bridge.ok("document_symbols", { path: "a.exit" })).toMatchObject({ total: 2 });
    console.log(`[figure] fault=exit recover_ms=${Date.now() - restartStarted}`);
    await afterFault("exit");
  });

  test("a flood of window/logMessage", async () => {
    const started = Date.now();
    const result = await bridge.ok("hover", { path: "a.log-flood", line: 1, column: 4 });
    expect(result.contents).toBe("hover 0:3");
    console.log(`[figure] fault=log-flood ms=${Date.now() - started}`);
    await afterFault("log-flood");
  });

  test("a server asking for workspace/applyEdit is told no, and nothing is written", async () => {
    const result = await bridge.ok("hover", { path: "a.apply-edit", line: 1, column: 4 });
    expect(result.contents).toContain('"applied":false');
    expect(readFileSync(join(root, "a.apply-edit"), "utf8")).toBe(SAMPLE_TEXT);
    await afterFault("apply-edit");
  });

  test("initialize answered with an error: ServerStartFailed", async () => {
    const error = errorOf(await bridge.call("document_symbols", { path: "a.initerr" }));
    expect(error.code).toBe("ServerStartFailed");
    expect(error.details).toMatchObject({ lsp_error_code: -32603 });
    await afterFault("initialize-error");
  });
});
