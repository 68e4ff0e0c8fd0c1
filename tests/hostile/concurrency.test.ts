// Concurrency and cancellation (issue 7): 8 concurrent callers over 4 sessions get the same
// bytes as sequential calls; an MCP cancellation reaches the server as `$/cancelRequest` and the
// session keeps answering. (The soak's short CI version is tests/hostile/memory-plateau.test.ts.)
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace, recordedMessages } from "../helpers/fake-config.js";
import { pollUntil } from "../helpers/poll.js";
import { memoryOf } from "../helpers/proc.js";

const SESSIONS = ["s1", "s2", "s3", "s4"];
const CALLERS = 8;
const CALLS_PER_CALLER = 40;

let bridge: Bridge;
let recordFile: string;

beforeAll(async () => {
  recordFile = join(fakeWorkspace([]).root, "slow.jsonl");
  const workspace = fakeWorkspace(
    [
      ...SESSIONS.map((name) => ({ name, extension: `.${name}` })),
      { name: "slow", extension: ".slow", flags: ["--fault", "never-answer", "--record", recordFile] },
    ],
    "request_timeout_ms = 10000",
  );
  bridge = await startBridge(workspace.config);
});
afterAll(async () => bridge?.close());

/** The calls of the mix: every tool on every session. */
const MIX = SESSIONS.flatMap((server) => [
  { name: "diagnostics", arguments: { path: `a.${server}` } },
  { name: "document_symbols", arguments: { path: `a.${server}` } },
  { name: "hover", arguments: { path: `a.${server}`, line: 3, column: 9 } },
  { name: "diagnostics", arguments: { paths: [`a.${server}`, `a.${SESSIONS[(SESSIONS.indexOf(server) + 1) % 4]}`] } },
]);

describe("concurrency", () => {
  test(`${CALLERS} concurrent callers over ${SESSIONS.length} sessions get the bytes of sequential calls`, async () => {
    const expected = new Map<number, string>();
    for (const [index, call] of MIX.entries()) {
      const result = await bridge.client.callTool(call);
      // Bytes equal to a failure would prove nothing: every call of the mix answers.
      expect(result.isError ?? false, `${call.name} ${JSON.stringify(call.arguments)}: ${JSON.stringify(result.content)}`).toBe(false);
      expect(result.structuredContent).toBeDefined();
      expected.set(index, JSON.stringify(result));
    }
    const started = Date.now();
    const mismatches: string[] = [];
    await Promise.all(
      Array.from({ length: CALLERS }, async (_, caller) => {
        for (let round = 0; round < CALLS_PER_CALLER; round++) {
          const index = (caller * 7 + round) % MIX.length;
          const got = JSON.stringify(await bridge.client.callTool(MIX[index]!));
          if (got !== expected.get(index)) mismatches.push(`${caller}/${round}: ${got.slice(0, 200)}`);
        }
      }),
    );
    const total = CALLERS * CALLS_PER_CALLER;
    console.log(`[figure] concurrency calls=${total} callers=${CALLERS} ms=${Date.now() - started} peak_rss_kib=${memoryOf(bridge.pid).hwmKiB}`);
    expect(mismatches).toEqual([]);
    const sessions = (await bridge.ok("session_status")).sessions as any[];
    for (const server of SESSIONS) expect(sessions.find((s) => s.server === server)).toMatchObject({ state: "ready", open_documents: 1 });
  });
});

describe("cancellation", () => {
  test("an aborted call sends notifications/cancelled, which reaches the server as $/cancelRequest", async () => {
    const controller = new AbortController();
    const call = bridge.client.callTool({ name: "hover", arguments: { path: "a.slow", line: 1, column: 1 } }, undefined, { signal: controller.signal });
    const received = () => recordedMessages(recordFile);
    // Abort only once the hover is at the server, so the cancellation has something to cancel.
    expect(await pollUntil(() => received().some((message) => message.method === "textDocument/hover"), 10_000)).toBe(true);
    const started = Date.now();
    controller.abort("test cancels");
    await expect(call).rejects.toThrow();
    const hoverId = received().find((message) => message.method === "textDocument/hover")!.id;
    expect(await pollUntil(() => received().some((m) => m.method === "$/cancelRequest" && m.params?.id === hoverId), 5000)).toBe(true);
    console.log(`[figure] cancellation to_server_ms=${Date.now() - started}`);
    // The session is fine and answers the next call (symbols need no answer to the hover).
    const status = ((await bridge.ok("session_status")).sessions as any[]).find((s) => s.server === "slow");
    expect(status.state).toBe("ready");
    expect(await bridge.ok("document_symbols", { path: "a.slow" })).toMatchObject({ total: 2 });
  });
});
