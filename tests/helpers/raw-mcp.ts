import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { BRIDGE_MAIN } from "./paths.js";
import { bridgeEnv } from "./tool-cache.js";

/** One JSON-RPC message as read off the bridge's stdout, with its arrival index. */
export interface WireMessage {
  readonly index: number;
  readonly message: Record<string, any>;
}

/**
 * `lspmcp serve` driven by raw newline-delimited JSON-RPC on stdio: every message the bridge
 * writes is kept in arrival order. For what the SDK's Client cannot show, such as the order of
 * notifications and responses (the SDK 1.32 client drops a notification that is read in the
 * same chunk as the response).
 */
export class RawBridge {
  readonly messages: WireMessage[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters = new Set<() => void>();
  private nextId = 1;

  /** Standalone unless `options.shared`. */
  constructor(configPath: string, options: { shared?: boolean } = {}) {
    this.child = spawn(process.execPath, [BRIDGE_MAIN, "serve", ...(options.shared ? [] : ["--standalone"]), "--config", configPath], {
      env: { ...bridgeEnv(), LSPMCP_LOG_LEVEL: "warn" },
    });
    let buffered = "";
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines.filter((l) => l.trim() !== "")) this.messages.push({ index: this.messages.length, message: JSON.parse(line) });
      for (const wake of [...this.waiters]) wake();
    });
    this.child.stderr.resume();
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(message: Record<string, unknown>): void {
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
  }

  /** Sends a request and returns its id (the answer is awaited with `response`). */
  request(method: string, params: Record<string, unknown> = {}): number {
    const id = this.nextId++;
    this.send({ id, method, params });
    return id;
  }

  /** Waits until a message matching `test` has arrived (within `timeoutMs`) and returns it. */
  waitFor(test: (message: Record<string, any>) => boolean, timeoutMs = 120_000): Promise<WireMessage> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.messages.find((wire) => test(wire.message));
        if (!found) return false;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(found);
        return true;
      };
      const wake = (): void => void check();
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`no matching message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(wake);
      check();
    });
  }

  response(id: number, timeoutMs?: number): Promise<WireMessage> {
    return this.waitFor((message) => message.id === id && ("result" in message || "error" in message), timeoutMs);
  }

  /** Sends a request of MCP revision 2026-07-28 (no handshake: the envelope in `_meta`) and returns its id. */
  modernRequest(method: string, params: Record<string, any> = {}, version = "2026-07-28"): number {
    return this.request(method, { ...params, _meta: { ...modernMeta(version), ...params._meta } });
  }

  /** initialize + initialized. */
  async initialize(): Promise<void> {
    const id = this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } });
    await this.response(id);
    this.send({ method: "notifications/initialized" });
  }

  /** A tool's structuredContent, or throws with its error text. */
  async tool(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
    const { message } = await this.response(this.request("tools/call", { name, arguments: args }));
    if (message.result?.isError) throw new Error(message.result.content[0].text);
    return message.result.structuredContent;
  }

  /** Ends stdin (the bridge's clean shutdown) and waits for the exit. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once("exit", () => resolve());
      this.child.stdin.end();
    });
  }
}

/** The per-request `_meta` envelope of MCP revision 2026-07-28. */
export function modernMeta(version = "2026-07-28"): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "0" },
  };
}
