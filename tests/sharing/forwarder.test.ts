// An attached serve keeps every stdio promise of a standalone one: a cancellation reaches the
// language server through the shared server, and bad stdin lines are answered, not fatal.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type Bridge, startBridge } from "../helpers/bridge.js";
import { fakeWorkspace, recordedMessages } from "../helpers/fake-config.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { leasesBeside, sharedServers, waitAttached } from "./helpers/shared.js";

let bridge: Bridge | undefined;
let config: string | undefined;

afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
  if (config) await pollUntil(() => sharedServers({ config: config! }).length === 0, 5000);
  config = undefined;
});

const SHARED = '[shared]\nlease_dir = "leases"\nlinger_ms = 200';

describe("an attached serve", () => {
  test("an aborted call reaches the language server as $/cancelRequest through the shared server, and the forwarder goes on", async () => {
    const recordFile = join(fakeWorkspace([]).root, "slow.jsonl");
    config = fakeWorkspace(
      [{ name: "slow", extension: ".slow", flags: ["--fault", "never-answer", "--record", recordFile] }],
      `request_timeout_ms = 10000\n${SHARED}`,
    ).config;
    bridge = await startBridge(config, {}, { shared: true });
    await waitAttached(leasesBeside(config), bridge.pid);
    expect(sharedServers({ config })).toHaveLength(1);

    const controller = new AbortController();
    const call = bridge.client.callTool({ name: "hover", arguments: { path: "a.slow", line: 1, column: 1 } }, undefined, { signal: controller.signal });
    const received = () => recordedMessages(recordFile);
    expect(await pollUntil(() => received().some((message) => message.method === "textDocument/hover"), 10_000)).toBe(true);
    controller.abort("test cancels");
    await expect(call).rejects.toThrow();
    const hoverId = received().find((message) => message.method === "textDocument/hover")!.id;
    expect(await pollUntil(() => received().some((m) => m.method === "$/cancelRequest" && m.params?.id === hoverId), 5000)).toBe(true);
    expect(await bridge.ok("document_symbols", { path: "a.slow" })).toMatchObject({ total: 2 });
  });

  test("answers a malformed line and a 5 MiB line with -32700 and then serves the agent", async () => {
    config = fakeWorkspace([{ name: "fake", extension: ".fake" }], SHARED).config;
    const child = spawn(process.execPath, [BRIDGE_MAIN, "serve", "--config", config], { stdio: ["pipe", "pipe", "ignore"] });
    const lines: any[] = [];
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
        lines.push(JSON.parse(pending.slice(0, i)));
        pending = pending.slice(i + 1);
      }
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.write("{not json\n");
    child.stdin.write("x".repeat(5 * 1024 * 1024) + "\n");
    child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      }) + "\n",
    );
    expect(await pollUntil(() => lines.some((line) => line.id === 1), 20_000)).toBe(true);
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    child.stdin.write(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "document_symbols", arguments: { path: "a.fake" } } }) + "\n",
    );
    expect(await pollUntil(() => lines.some((line) => line.id === 2), 20_000)).toBe(true);

    expect(lines.filter((line) => line.error?.code === -32700)).toHaveLength(2);
    expect(lines.find((line) => line.id === 1).result.serverInfo.name).toBe("lspmcp");
    expect(lines.find((line) => line.id === 2).result.structuredContent.total).toBe(2);
    expect(sharedServers({ config })).toHaveLength(1);
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
