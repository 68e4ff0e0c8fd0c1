// MCP input (issue 7): property-based tool arguments from and around the input schemas, sent
// through the SDK's Client to the real binary; then raw stdin lines to a bridge spawned here.
// Every call must answer within its deadline with a valid result (the SDK client validates it
// against the output schema) or a CONTRACT §6 error, and the bridge must still serve afterwards.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_CODES } from "../../src/contract/errors.js";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { isAlive, memoryOf, waitForExit } from "../helpers/proc.js";
// @ts-expect-error -- plain JS shared with the soak script (bench/ is not type-checked)
import { judgeToolResult, toolCallArbitrary } from "../../bench/tool-arguments.mjs";
import { bridgeEnv } from "../helpers/tool-cache.js";

const TIMEOUT_MS = 4000;
const RUNS = Number(process.env.FC_RUNS ?? 150);

let bridge: Bridge;
let root: string;
let config: string;

beforeAll(async () => {
  ({ root, config } = fakeWorkspace(
    [
      { name: "fake", extension: ".fk" },
      { name: "other", extension: ".ot" },
    ],
    `request_timeout_ms = ${TIMEOUT_MS}`,
  ));
  writeFileSync(join(root, "b.fk"), "fn one\n");
  bridge = await startBridge(config);
});
afterAll(async () => bridge?.close());

const TOOL_NAMES = ["session_status", "diagnostics", "hover", "document_symbols", "workspace_symbols"];
const callArb = toolCallArbitrary(TOOL_NAMES) as fc.Arbitrary<readonly [string, Record<string, unknown>]>;

function checkResult(result: any): string {
  const { code, problem } = judgeToolResult(result, new Set(ERROR_CODES));
  expect(problem).toBeNull();
  return code;
}

describe("property: odd tool arguments always get a valid result or a typed error", () => {
  test(`${RUNS} generated calls`, async () => {
    const before = JSON.stringify(await bridge.call("diagnostics", { path: "a.fk" }));
    const codes = new Map<string, number>();
    let slowest = 0;
    await fc.assert(
      fc.asyncProperty(callArb, async ([tool, args]) => {
        const started = Date.now();
        const result = await bridge.client.callTool({ name: tool, arguments: args as Record<string, unknown> }, undefined, { timeout: TIMEOUT_MS + 2000 });
        slowest = Math.max(slowest, Date.now() - started);
        const code = checkResult(result);
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }),
      { numRuns: RUNS, seed: Number(process.env.FC_SEED ?? 7), endOnFailure: true },
    );
    console.log(
      `[figure] property calls=${RUNS} slowest_ms=${slowest} peak_rss_kib=${memoryOf(bridge.pid).hwmKiB} outcomes=${JSON.stringify(Object.fromEntries(codes))}`,
    );
    // The generator must reach the servers, not only the schema check.
    expect(codes.get("ok") ?? 0).toBeGreaterThan(RUNS / 10);
    // Still serving, and nothing lost.
    expect(JSON.stringify(await bridge.call("diagnostics", { path: "a.fk" }))).toBe(before);
  });

  test("non-object arguments and unknown tools are refused, not crashed on", async () => {
    for (const args of [[1, 2], "text", 5, null]) {
      const result = await bridge.client
        .request(
          { method: "tools/call", params: { name: "hover", arguments: args as any } },
          (await import("@modelcontextprotocol/sdk/types.js")).CallToolResultSchema,
        )
        .catch((error: Error) => error);
      if (result instanceof Error) expect(result.message).toMatch(/-32602|Invalid/i);
      else checkResult(result);
    }
    await expect(bridge.client.callTool({ name: "\u0000", arguments: {} })).rejects.toThrow(/unknown tool/);
    expect((await bridge.ok("session_status")).sessions).toHaveLength(2);
  });
});

/** A bridge on raw stdio: lines in, parsed JSON lines out. */
function rawBridge(): { child: ChildProcess; lines: () => any[]; write: (data: string | Buffer) => void; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BRIDGE_MAIN, "serve", "--standalone", "--config", config], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...bridgeEnv(), LSPMCP_LOG_LEVEL: "warn" },
  });
  let buffer = "";
  const parsed: any[] = [];
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    buffer += chunk;
    for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
      parsed.push(JSON.parse(buffer.slice(0, newline)));
      buffer = buffer.slice(newline + 1);
    }
  });
  child.stderr!.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, lines: () => parsed, write: (data) => child.stdin!.write(data), exited };
}

const INIT = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

describe("raw stdin", () => {
  let raw: ReturnType<typeof rawBridge>;
  afterAll(async () => {
    raw?.child.stdin?.end();
    await raw?.exited;
  });

  test("malformed JSON-RPC lines and a 10 MB line are answered, and the session goes on", async () => {
    raw = rawBridge();
    const bad: [string | Buffer, number][] = [
      ["{", -32700],
      ["not json at all", -32700],
      [Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), -32700],
      ["[]", -32600],
      ["null", -32600],
      ["42", -32600],
      ['{"jsonrpc":"1.0","id":"one","method":"ping"}', -32600],
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', -32600],
      ['{"jsonrpc":"2.0","method":5}', -32600],
      [
        Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"'), Buffer.alloc(10 * 1024 * 1024, 0x61), Buffer.from('"}}')]),
        -32700,
      ],
    ];
    for (const [line] of bad) raw.write(Buffer.concat([Buffer.from(line), Buffer.from("\n")]));
    raw.write(JSON.stringify(INIT) + "\n");
    raw.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    raw.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "document_symbols", arguments: { path: "a.fk" } } }) + "\n");
    expect(await pollUntil(() => raw.lines().some((line) => line.id === 2), 10_000)).toBe(true);
    const errors = raw.lines().filter((line) => line.error);
    expect(errors.map((line) => line.error.code)).toEqual(bad.map(([, code]) => code));
    // A request that is not JSON-RPC 2.0 but has an id gets its id back; the others get null.
    expect(errors.map((line) => line.id)).toEqual(bad.map(([line]) => (String(line).includes('"one"') ? "one" : null)));
    expect(raw.lines().find((line) => line.id === "init").result.serverInfo.name).toBe("lspmcp");
    expect(raw.lines().find((line) => line.id === 2).result.structuredContent.total).toBe(2);
    console.log(`[figure] raw bridge_peak_rss_kib=${memoryOf(raw.child.pid!).hwmKiB} after a 10 MB line`);
  });

  test("stdin closed mid-request: the bridge exits 0 and leaves no process", async () => {
    const record = join(root, "slow.jsonl");
    const { config: hangConfig } = fakeWorkspace(
      [{ name: "slow", extension: ".sl", flags: ["--fault", "never-answer", "--record", record] }],
      "request_timeout_ms = 30000",
    );
    const child = spawn(process.execPath, [BRIDGE_MAIN, "serve", "--standalone", "--config", hangConfig], { stdio: ["pipe", "pipe", "ignore"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let out = "";
    child.stdout!.on("data", (chunk) => (out += chunk));
    const send = (message: object) => child.stdin!.write(JSON.stringify(message) + "\n");
    send(INIT);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "session_restart", arguments: { server: "slow" } } });
    expect(await pollUntil(() => out.includes('"id":2'), 10_000)).toBe(true);
    const serverPid = JSON.parse(
      out
        .trim()
        .split("\n")
        .find((line) => line.includes('"id":2'))!,
    ).result.structuredContent.pid as number;
    expect(isAlive(serverPid)).toBe(true);
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "hover", arguments: { path: "a.sl", line: 1, column: 1 } } });
    // The hover is in flight at the server (which never answers); now the client goes away.
    expect(await pollUntil(() => existsSync(record) && readFileSync(record, "utf8").includes("textDocument/hover"), 10_000)).toBe(true);
    const started = Date.now();
    child.stdin!.end();
    expect(await exited).toBe(0);
    expect(await waitForExit(serverPid, 5000)).toBe(true);
    console.log(`[figure] stdin-eof exit_ms=${Date.now() - started}`);
  });
});
