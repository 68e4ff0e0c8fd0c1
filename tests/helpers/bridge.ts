import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const REPO = resolve(import.meta.dirname, "../..");
export const BRIDGE_MAIN = join(REPO, "dist/src/cli/main.js");

/** A running `lspmcp serve` driven by the MCP SDK's real client over stdio. */
export interface Bridge {
  readonly client: Client;
  readonly pid: number;
  /** Calls a tool and returns the raw result. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** Calls a tool that must succeed; returns its structuredContent. */
  ok<T = Record<string, any>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail; returns the CONTRACT §6 error object. */
  fail(name: string, args?: Record<string, unknown>): Promise<{ code: string; message: string; details: Record<string, any> }>;
  close(): Promise<void>;
}

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Writes `toml` to a fresh temp dir (relative paths in it resolve there) and returns its path. */
export function writeConfig(toml: string, dir = mkdtempSync(join(tmpdir(), "lspmcp-test-"))): string {
  const path = join(dir, "bridge.toml");
  writeFileSync(path, toml);
  return path;
}

/**
 * Starts `lspmcp serve` with the SDK's stdio client and initializes it. Standalone unless
 * `shared`: the suites that test one bridge's own sessions must not attach to another's.
 */
export async function startBridge(configPath: string, env: Record<string, string> = {}, options: { shared?: boolean } = {}): Promise<Bridge> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BRIDGE_MAIN, "serve", ...(options.shared ? [] : ["--standalone"]), "--config", configPath],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", LSPMCP_LOG_LEVEL: "warn", ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "lspmcp-tests", version: "0" });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("bridge did not start");
  // The bridge's own deadline (request_timeout_ms) decides when a call fails; the SDK's 60 s
  // default would cut a first call that waits for a server to load its project on a busy machine.
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as unknown as ToolResult;
  return {
    client,
    pid,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
      return result.structuredContent as any;
    },
    async fail(name, args) {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
      if (result.structuredContent !== undefined) throw new Error("an error result must carry no structuredContent");
      return JSON.parse(result.content[0]!.text).error;
    },
    close: () => client.close(),
  };
}

/** 1-based line and code-point column of the first occurrence of `needle` (after `after`). */
export function positionOf(text: string, needle: string, after = ""): { line: number; column: number } {
  const start = after ? text.indexOf(after) + after.length : 0;
  const index = text.indexOf(needle, start);
  if (index < 0) throw new Error(`"${needle}" not found`);
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line, column: [...text.slice(lineStart, index)].length + 1 };
}
