import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { BoundedLineTransport } from "../../../src/mcp/bounded-line-transport.js";
import { HandedOverTransport, StartupResponder } from "../../../src/mcp/startup-responder.js";
import { initializeResult } from "../../../src/mcp/server-identity.js";
import { TOOL_LIST } from "../../../src/mcp/tool-list.js";

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
};
const line = (message: object): string => `${JSON.stringify(message)}\n`;

async function responderOnStreams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  const stdio = new BoundedLineTransport(input, output);
  const responder = new StartupResponder(stdio, "9.9.9");
  await stdio.start();
  const replies = (): any[] =>
    written
      .split("\n")
      .filter(Boolean)
      .map((text) => JSON.parse(text));
  return { input, stdio, responder, replies, raw: () => written };
}

describe("the startup responder", () => {
  test("answers initialize, tools/list and ping as the SDK's server does, and holds everything else in order", async () => {
    const { input, responder, replies, raw } = await responderOnStreams();
    input.write(line(INITIALIZE));
    input.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
    input.write(line({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    input.write(line({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "hover", arguments: {} } }));
    input.write(line({ jsonrpc: "2.0", id: 4, method: "ping" }));
    await tick();
    expect(replies().map((reply) => reply.id)).toEqual([1, 2, 4]);
    expect(raw().split("\n")[0]).toBe(JSON.stringify({ result: initializeResult("2025-06-18", "9.9.9"), jsonrpc: "2.0", id: 1 }));
    expect(replies()[1].result).toEqual({ tools: TOOL_LIST });
    const handover = responder.handOver();
    expect(handover.initialize).toEqual(INITIALIZE);
    expect(handover.queued.map((message) => ("method" in message ? message.method : null))).toEqual(["notifications/initialized", "tools/call"]);
    expect(handover.closed).toBe(false);
  });

  test("an initialize the SDK would refuse is held for the server to answer", async () => {
    const { input, responder, replies } = await responderOnStreams();
    input.write(line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 5 } }));
    await tick();
    expect(replies()).toEqual([]);
    const handover = responder.handOver();
    expect(handover.initialize).toBeUndefined();
    expect(handover.queued).toHaveLength(1);
  });

  test("the server after it: hears the initialize under a private id (its answer dropped), then what was held, then the live stream", async () => {
    const { input, stdio, responder, replies } = await responderOnStreams();
    input.write(line(INITIALIZE));
    input.write(line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "a" } }));
    await tick();
    const transport = new HandedOverTransport(stdio, responder.handOver());
    const heard: JSONRPCMessage[] = [];
    transport.onmessage = (message) => heard.push(message);
    await transport.start();
    // Arrives after the hand-over but before the release: held behind the rest.
    input.write(line({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "b" } }));
    await tick();
    expect(heard).toEqual([]);
    transport.release();
    expect(heard.map((message) => (message as { id?: unknown }).id)).toEqual(["lspmcp-handshake-replay", 2, 3]);
    await transport.send({ result: {}, jsonrpc: "2.0", id: "lspmcp-handshake-replay" } as JSONRPCMessage);
    await transport.send({ result: { content: [] }, jsonrpc: "2.0", id: 2 } as JSONRPCMessage);
    await tick();
    expect(replies().map((reply) => reply.id)).toEqual([1, 2]);
    input.write(line({ jsonrpc: "2.0", id: 4, method: "ping" }));
    await tick();
    expect(heard.map((message) => (message as { id?: unknown }).id)).toEqual(["lspmcp-handshake-replay", 2, 3, 4]);
  });

  test("stdin that ended before the release closes the server at the release", async () => {
    const { input, stdio, responder } = await responderOnStreams();
    input.end();
    await tick();
    const handover = responder.handOver();
    expect(handover.closed).toBe(true);
    const transport = new HandedOverTransport(stdio, handover);
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.start();
    expect(closed).toBe(0);
    transport.release();
    expect(closed).toBe(1);
  });
});
