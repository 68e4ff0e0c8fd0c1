// The real bridge (`dist/lspmcp/main.js serve --config F`) as a child process the test fully
// controls — its pid for signals, its stdin for EOF — driven by the MCP SDK's Client over a small
// Transport on that child's stdio (the SDK's StdioClientTransport owns its child and would
// SIGTERM it on close, which would blur the stdin-EOF gate).
import { spawn, type ChildProcess } from "node:child_process";
import { dirname } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { fakeWorkspace } from "../../helpers/fake-config.js";
import { BRIDGE_MAIN, REPO } from "../../helpers/paths.js";
import { giveTo, type SweepUser } from "./sweep-user.js";

class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout!.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    this.child.once("close", () => this.onclose?.());
    this.child.stdin!.on("error", (error) => this.onerror?.(error));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin!.write(serializeMessage(message));
  }

  /** Closing the client only stops listening; ending or killing the bridge is the test's move. */
  async close(): Promise<void> {}
}

export interface Bridge {
  readonly child: ChildProcess;
  readonly client: Client;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** A temp bridge.toml with one workspace served by the fake server (daemon and child included); `env` goes to the server. */
export function writeFakeConfig(env: Record<string, string>, user?: SweepUser): string {
  const { config } = fakeWorkspace([{ name: "fake", extension: ".fake", args: [], env }], "", { "a.fake": "x\n" });
  if (user !== undefined) giveTo(dirname(config), user);
  return config;
}

/** The orphan sweeps a bridge logged (LSPMCP_LOG=json): the pids of each tree it reaped. */
export function sweptPids(bridge: Bridge): number[] {
  return bridge
    .stderr()
    .split("\n")
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { message?: string; pids?: number[] };
        return entry.message === "reaped orphaned process tree" ? (entry.pids ?? []) : [];
      } catch {
        return [];
      }
    });
}

/**
 * Starts `lspmcp serve --config F` and connects an MCP client (initialize done); as `user` when
 * given (its config must be theirs to read), logging JSON lines to stderr. `onSpawn` learns its pid
 * at once, before initialize.
 */
export async function startBridge(configPath: string, user?: SweepUser, onSpawn?: (pid: number) => void): Promise<Bridge> {
  const child = spawn(process.execPath, [BRIDGE_MAIN, "serve", "--standalone", "--config", configPath], {
    cwd: REPO,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, LSPMCP_LOG: "json" },
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  });
  onSpawn?.(child.pid!);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const client = new Client({ name: "supervision-bridge-gates", version: "0.0.0" });
  await client.connect(new ChildStdioTransport(child));
  return { child, client, exit, stderr: () => stderr };
}

export interface SessionStatus {
  readonly state: string;
  readonly pid: number | null;
  readonly supervisor_pid: number | null;
  readonly tree_processes: number;
}

/** Calls a tool and returns its structuredContent, failing on an error result. */
export async function callTool<T>(bridge: Bridge, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await bridge.client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}
