// The same lines on stdin give the same bytes on stdout whether `serve` runs standalone or
// attached to the shared server: the forwarder answers initialize and tools/list itself and passes
// the shared server's text on unchanged, so any difference would be a bug in one of the two.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { EXAMPLE_APP, SharedRun, sharedFixture, waitAttached } from "./helpers/shared.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

const run = new SharedRun();
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children) child.stdin.end();
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined)));
  children.length = 0;
  await run.cleanUp();
});

/** A raw `serve` over stdio: write lines, read each answer's exact text by id. */
function rawServe(config: string, standalone: boolean) {
  const child = spawn(process.execPath, [BRIDGE_MAIN, "serve", ...(standalone ? ["--standalone"] : []), "--config", config], {
    env: { ...bridgeEnv(), LSPMCP_LOG_LEVEL: "warn" },
  });
  children.push(child);
  const answers = new Map<unknown, string>();
  const waiting = new Map<unknown, (text: string) => void>();
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
      const text = pending.slice(0, i);
      pending = pending.slice(i + 1);
      const id = JSON.parse(text).id;
      answers.set(id, text);
      waiting.get(id)?.(text);
    }
  });
  return {
    pid: child.pid!,
    send: (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n"),
    answer: (id: unknown) => (answers.has(id) ? Promise.resolve(answers.get(id)!) : new Promise<string>((resolve) => waiting.set(id, resolve))),
  };
}

function positionOf(path: string, needle: string): { line: number; column: number } {
  const text = readFileSync(join(EXAMPLE_APP, path), "utf8");
  const before = text.slice(0, text.indexOf(needle));
  return { line: before.split("\n").length, column: [...before.slice(before.lastIndexOf("\n") + 1)].length + 1 };
}

describe("answers standalone and attached", () => {
  test("are byte-identical for the same requests", async () => {
    const fixture = run.use(sharedFixture());
    const standalone = rawServe(fixture.config, true);
    const attached = rawServe(fixture.config, false);
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    };
    const requests = [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
      ...[
        { name: "diagnostics", arguments: { path: "src/greet.ts" } },
        { name: "hover", arguments: { path: "src/greet.ts", ...positionOf("src/greet.ts", "greet(name") } },
        { name: "document_symbols", arguments: { path: "src/greet.ts" } },
        { name: "workspace_symbols", arguments: { server: "typescript", query: "greet" } },
        { name: "hover", arguments: { path: "src/greet.ts", line: 1 } },
        { name: "document_symbols", arguments: { path: "src/nowhere.ts" } },
        { name: "no_such_tool", arguments: {} },
      ].map((params, i) => ({ jsonrpc: "2.0", id: 10 + i, method: "tools/call", params })),
      { jsonrpc: "2.0", id: 30, method: "no/such/method" },
    ];
    for (const bridge of [standalone, attached]) {
      bridge.send(initialize);
      bridge.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    }
    expect(await attached.answer(0)).toBe(await standalone.answer(0));
    await waitAttached(fixture.leaseDir, attached.pid);
    for (const request of requests) {
      standalone.send(request);
      attached.send(request);
      // One at a time, so that the first diagnostics call starts the session before the others.
      expect(await attached.answer(request.id), JSON.stringify(request)).toBe(await standalone.answer(request.id));
    }
  }, 180_000);
});
