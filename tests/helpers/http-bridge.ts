import { type ChildProcess, spawn } from "node:child_process";
import { BRIDGE_MAIN } from "./paths.js";
import { tempDir } from "./temp.js";
import { bridgeEnv } from "./tool-cache.js";
import { modernMeta } from "./raw-mcp.js";

/** A running `lspmcp serve --http`: its endpoint, its token, and how it ends. */
export interface HttpBridge {
  readonly url: string;
  readonly token: string;
  readonly tokenFile: string;
  readonly child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** POSTs one JSON-RPC message with the token (and `headers`); the status, headers and body. */
  post(message: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  /** SIGTERM, then waits for the exit. */
  close(): Promise<void>;
}

/**
 * Starts `lspmcp serve --http 127.0.0.1:0` (a free port; or `address`) with `config`, standalone unless
 * `shared`, its runtime folder a fresh temp folder; resolves once it says where it listens.
 */
export async function startHttpBridge(config: string, options: { shared?: boolean; args?: readonly string[]; address?: string } = {}): Promise<HttpBridge> {
  const child = spawn(
    process.execPath,
    [
      BRIDGE_MAIN,
      "serve",
      ...(options.shared ? [] : ["--standalone"]),
      "--config",
      config,
      "--http",
      options.address ?? "127.0.0.1:0",
      ...(options.args ?? []),
    ],
    { env: { ...bridgeEnv(), XDG_RUNTIME_DIR: tempDir("lspmcp-run-"), LSPMCP_LOG: "json", LSPMCP_LOG_LEVEL: "info" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let text = "";
  const listening = await new Promise<{ url: string; token_file: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lspmcp serve --http did not listen within 20 s: ${text}`)), 20_000);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      for (const line of text.split("\n")) {
        if (!line.includes("serving MCP over HTTP")) continue;
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.once("exit", (code) => reject(new Error(`lspmcp serve --http exited ${code}: ${text}`)));
  });
  const { readFileSync } = await import("node:fs");
  const token = readFileSync(listening.token_file, "utf8").trim();
  return {
    url: listening.url,
    token,
    tokenFile: listening.token_file,
    child,
    stderr: () => text,
    async post(message, headers = {}) {
      const response = await fetch(listening.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, ...headers },
        body: typeof message === "string" ? message : JSON.stringify(message),
      });
      const body = await response.text();
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // Not JSON: an event stream or a plain refusal, returned as text.
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A 2026-07-28 request as a client of that revision POSTs it, with its headers. */
export function modernPost(id: number, method: string, params: Record<string, any> = {}): { message: unknown; headers: Record<string, string> } {
  return {
    message: { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...modernMeta(), ...params._meta } } },
    headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}) },
  };
}
