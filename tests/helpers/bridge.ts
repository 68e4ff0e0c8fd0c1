import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BRIDGE_MAIN } from "./paths.js";
import { tempDir } from "./temp.js";
import { bridgeEnv } from "./tool-cache.js";

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
  /**
   * Calls a tool with a progress token and returns the result with every progress notification the
   * bridge sent for it, read off the wire in arrival order (the SDK's client drops one it reads in
   * the same chunk as the response: modelcontextprotocol/typescript-sdk#2580; a loaded machine
   * can put all of them there).
   */
  callWithProgress(name: string, args?: Record<string, unknown>): Promise<{ result: ToolResult; progress: { progress: number; total?: number }[] }>;
  /** What the bridge wrote to stderr so far (its log, at the level its env sets: warn unless given). */
  stderr(): string;
  close(): Promise<void>;
}

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Writes `toml` to `dir` (by default a temp folder of the test file; relative paths in it resolve there) and returns its path. */
export function writeConfig(toml: string, dir = tempDir()): string {
  const path = join(dir, "bridge.toml");
  writeFileSync(path, toml);
  return path;
}

/**
 * Starts `lspmcp serve` with the SDK's stdio client and initializes it. Standalone unless
 * `shared`: the suites that test one bridge's own sessions must not attach to another's.
 * `configPath` null starts it with no `--config`, in `options.cwd`; `options.bin` runs that
 * `lspmcp` executable (an installed one) instead of this checkout's build. `options.bare` runs the
 * executable (`bin`, else this checkout's) as a program with no arguments at all, as an MCP
 * client registers it: `serve`, shared, with the config found from `cwd` (`configPath` must be null).
 */
export async function startBridge(
  configPath: string | null,
  env: Record<string, string> = {},
  options: { shared?: boolean; cwd?: string; bin?: string; bare?: boolean } = {},
): Promise<Bridge> {
  if (options.bare && configPath !== null) throw new Error("a bare lspmcp takes no --config");
  // A null config path means none on the command line: discovery or the embedded default from `cwd`.
  const transport = new StdioClientTransport({
    command: options.bare ? (options.bin ?? BRIDGE_MAIN) : (options.bin ?? process.execPath),
    args: options.bare
      ? []
      : [
          ...(options.bin === undefined ? [BRIDGE_MAIN] : []),
          "serve",
          ...(options.shared ? [] : ["--standalone"]),
          ...(configPath === null ? [] : ["--config", configPath]),
        ],
    env: { ...bridgeEnv(), LSPMCP_LOG_LEVEL: "warn", ...env },
    stderr: "pipe",
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const client = new Client({ name: "lspmcp-tests", version: "0" });
  // Read as it comes: an unread pipe would fill and stall a bridge that logs much.
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  await client.connect(transport);
  // What went out and what came in, in order, before the SDK's client handles it.
  const sent: Record<string, any>[] = [];
  const heard: Record<string, any>[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    sent.push(message);
    return send(message, sendOptions);
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    heard.push(message);
    onmessage?.(message, extra);
  };
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
    async callWithProgress(name, args = {}) {
      const [sentBefore, heardBefore] = [sent.length, heard.length];
      const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000, onprogress: () => {} })) as unknown as ToolResult;
      // Answered after the call's response, so whatever the call sent has arrived by then.
      await client.ping();
      const request = sent.slice(sentBefore).find((message) => message.method === "tools/call");
      const token = request?.params?._meta?.progressToken;
      if (token === undefined) throw new Error("the call went out without a progress token");
      const progress = heard
        .slice(heardBefore)
        .filter((message) => message.method === "notifications/progress" && message.params.progressToken === token)
        .map((message) => ({ progress: message.params.progress as number, total: message.params.total as number | undefined }));
      return { result, progress };
    },
    stderr: () => stderr.join(""),
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
