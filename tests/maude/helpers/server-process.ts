/**
 * Drives lspmcp-maude-server as a real child process over stdio with a vscode-jsonrpc client.
 * Every wait has a deadline; nothing sleeps for readiness.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import type { Diagnostic, DocumentSymbol, InitializeResult, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { REPO } from "../../helpers/paths.js";
import { waitForExit, waitUntilGone } from "../../helpers/proc.js";

export const FIXTURES = resolve(REPO, "tests/fixtures/maude");
export const SERVER_BIN = resolve(REPO, "servers/maude/bin/lspmcp-maude-server");
export const MARKER = "LSPMCP_MAUDE_TEST";

/** Fails loudly when the real interpreter is missing: these tests are about it. */
export function requireMaude(): string {
  const path = "/usr/bin/maude";
  if (!existsSync(path)) throw new Error("maude is not installed at /usr/bin/maude: `apt-get install maude` (3.2) is required for these tests");
  if (!existsSync(resolve(REPO, "dist/servers/maude/src/main.js"))) throw new Error("the server is not built: run `npx tsc -p tsconfig.json` first");
  return path;
}

export function fixtureUri(name: string): string {
  return pathToFileURL(resolve(FIXTURES, name)).href;
}

export function fixtureText(name: string): string {
  return readFileSync(resolve(FIXTURES, name), "utf8");
}

export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** A running server with a client connection. */
export class ServerProcess {
  readonly marker = randomUUID();
  readonly child: ChildProcess;
  readonly conn: MessageConnection;
  readonly stderr: string[] = [];
  private readonly published: PublishDiagnosticsParams[] = [];
  private readonly waiters: Array<() => void> = [];
  private stopping: Promise<void> | undefined;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  /** @param viaNode start the bin with this node rather than through its shebang (for a PATH without node). */
  constructor(extraEnv: Record<string, string> = {}, viaNode = false) {
    const argv = viaNode ? [process.execPath, SERVER_BIN, "--stdio"] : [SERVER_BIN, "--stdio"];
    this.child = spawn(argv[0]!, argv.slice(1), {
      cwd: FIXTURES,
      env: { ...process.env, ...extraEnv, [MARKER]: this.marker },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((r) => this.child.on("exit", (code, signal) => r({ code, signal })));
    this.child.stderr?.setEncoding("utf8").on("data", (d: string) => this.stderr.push(d));
    this.conn = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.conn.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      this.published.push(p);
      for (const w of this.waiters.splice(0)) w();
    });
    this.conn.onError(() => {});
    this.conn.listen();
  }

  initialize(initializationOptions: unknown = {}): Promise<InitializeResult> {
    return withDeadline(
      this.conn.sendRequest("initialize", {
        processId: process.pid,
        rootUri: pathToFileURL(FIXTURES).href,
        workspaceFolders: [{ uri: pathToFileURL(FIXTURES).href, name: "fixtures" }],
        capabilities: { general: { positionEncodings: ["utf-16"] }, textDocument: { diagnostic: {}, publishDiagnostics: { versionSupport: true } } },
        initializationOptions,
      }) as Promise<InitializeResult>,
      10_000,
      "initialize",
    ).then(async (r) => {
      await this.conn.sendNotification("initialized", {});
      return r;
    });
  }

  async open(name: string, text = fixtureText(name), version = 1, uri = fixtureUri(name)): Promise<string> {
    await this.conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "maude", version, text } });
    return uri;
  }

  async change(uri: string, text: string, version: number): Promise<void> {
    await this.conn.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  /**
   * The `nth` (1-based) publishDiagnostics for `uri` (and `version`, when given), waiting for it
   * until the deadline.
   */
  async waitForPublish(uri: string, version: number | undefined, deadlineMs = 30_000, nth = 1): Promise<PublishDiagnosticsParams> {
    const find = (): PublishDiagnosticsParams | undefined =>
      this.published.filter((p) => p.uri === uri && (version === undefined || p.version === version))[nth - 1];
    const until = Date.now() + deadlineMs;
    for (;;) {
      const hit = find();
      if (hit !== undefined) return hit;
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no publishDiagnostics for ${uri} v${String(version)} within ${deadlineMs} ms`);
      await withDeadline(new Promise<void>((r) => this.waiters.push(r)), left, `publishDiagnostics for ${uri}`).catch(() => {});
    }
  }

  /** All publications seen so far for `uri`. */
  publicationsFor(uri: string): PublishDiagnosticsParams[] {
    return this.published.filter((p) => p.uri === uri);
  }

  async pull(uri: string, deadlineMs = 30_000): Promise<Diagnostic[]> {
    const r = (await withDeadline(this.conn.sendRequest("textDocument/diagnostic", { textDocument: { uri } }), deadlineMs, `pull diagnostics for ${uri}`)) as {
      kind: string;
      items: Diagnostic[];
    };
    if (r.kind !== "full") throw new Error(`expected a full report, got ${r.kind}`);
    return r.items;
  }

  symbols(uri: string): Promise<DocumentSymbol[]> {
    return withDeadline(this.conn.sendRequest("textDocument/documentSymbol", { textDocument: { uri } }), 10_000, "documentSymbol") as Promise<DocumentSymbol[]>;
  }

  /**
   * Whether the server ends within 5 s, net of the machine's load (GateClock); once it has, its
   * exit status has been read too.
   */
  async exitsInTime(): Promise<boolean> {
    if (!(await waitForExit(this.child.pid!))) return false;
    await this.exited;
    return true;
  }

  /**
   * shutdown + exit, then asserts that the server answered shutdown, ended with code 0 on exit
   * (within 5 s, net of the machine's load), and that every maude it started is gone. A server
   * that ignores either fails here; it is SIGKILLed afterwards all the same, so that nothing
   * outlives the test. Called again, it answers as the first call did.
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    try {
      if (this.child.exitCode === null && this.child.signalCode === null) {
        await withDeadline(this.conn.sendRequest("shutdown"), 10_000, "the answer to shutdown");
        await this.conn.sendNotification("exit");
        if (!(await this.exitsInTime())) throw new Error("the server did not exit within 5 s of the exit notification");
        expect(await this.exited).toEqual({ code: 0, signal: null });
      }
    } finally {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
      this.conn.dispose();
      await waitUntilGone(MARKER, this.marker);
    }
  }
}
