/**
 * End to end through lspmcp over MCP: the bridge (`dist/lspmcp/main.js serve`) starts the Maude
 * server from `profile = "maude"` alone, and its `diagnostics` and `document_symbols` tools answer
 * on the fixtures. Diagnostics are compared with maude run directly (the tests' own run and reading,
 * helpers/maude-oracle.ts), as (line, message) pairs.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BRIDGE_MAIN as BRIDGE } from "../helpers/paths.js";
import { waitUntilGone } from "../helpers/proc.js";
import { requireBuild } from "../helpers/require-binary.js";
import { maudeWarnings } from "./helpers/maude-oracle.js";
import { FIXTURES, fixtureText, MARKER, requireMaude } from "./helpers/server-process.js";

const marker = randomUUID();
let client: Client;
let dir: string;

beforeAll(async () => {
  requireMaude();
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "maude-bridge-e2e-"));
  const config = join(dir, "bridge.toml");
  // The marker rides in the server's env, so every maude the server starts carries it too.
  writeFileSync(
    config,
    [
      "[[server]]",
      'name = "maude"',
      'profile = "maude"',
      `env = { ${MARKER} = "${marker}" }`,
      "",
      "[[workspace]]",
      'name = "fixtures"',
      `root = ${JSON.stringify(FIXTURES)}`,
      'servers = ["maude"]',
      "",
    ].join("\n"),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BRIDGE, "serve", "--standalone", "--config", config],
    env: { ...(process.env as Record<string, string>), [MARKER]: marker },
    stderr: "pipe",
  });
  client = new Client({ name: "maude-e2e", version: "0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await waitUntilGone(MARKER, marker);
  rmSync(dir, { recursive: true, force: true });
});

type Item = { path: string; range: { start: { line: number; column: number } }; severity: string; code: string | null; source: string | null; message: string };

async function call(name: string, args: Record<string, unknown>): Promise<{ items: Item[]; total: number } & Record<string, unknown>> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as { items: Item[]; total: number };
}

/** (line, message) pairs for `file` from maude run directly, in canonical (line) order. */
function direct(file: string): Array<[number, string]> {
  return maudeWarnings(resolve(FIXTURES, file))
    .filter((w) => w.file === basename(file) || w.file === null)
    .map((w): [number, string] => [w.line, w.message])
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

const pairs = (items: Item[]): Array<[number, string]> =>
  items.map((i): [number, string] => [i.range.start.line, i.message]).sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));

describe("lspmcp → maude server over MCP", () => {
  test.each(["clean.maude", "no-module.maude", "recoverable.maude", "many-warnings.maude", "non-ascii.maude", "loads-neighbour.maude", "lib/neighbour.maude"])(
    "diagnostics on %s equal maude's own warnings",
    async (file) => {
      const r = await call("diagnostics", { path: file });
      expect(pairs(r.items)).toEqual(direct(file));
      expect(r.items.every((i) => i.severity === "warning" && i.source === "maude" && i.path === file)).toBe(true);
    },
  );

  test("the recoverable warning's place and the non-ASCII column in code points", async () => {
    const rec = await call("diagnostics", { path: "recoverable.maude" });
    expect(rec.items.map((i) => [i.range.start.line, i.message])).toEqual([[6, "missing is keyword."]]);
    const na = await call("diagnostics", { path: "non-ascii.maude" });
    const bad = na.items.find((i) => i.message === "bad token h.");
    const line6 = fixtureText("non-ascii.maude").split("\n")[5]!;
    expect(bad?.range.start.column).toBe(Array.from(line6.slice(0, line6.indexOf("h("))).length + 1);
  });

  test("a binary file is refused by the bridge before it reaches the server", async () => {
    const r = await client.callTool({ name: "diagnostics", arguments: { path: "binary.maude" } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain("FileUnreadable");
  });

  test("document_symbols: modules by name, declarations nested", async () => {
    const r = await call("document_symbols", { path: "clean.maude" });
    const rows = (r.items as unknown as Array<{ name: string; kind: string; depth: number; container: string | null }>).map(
      (s) => `${"  ".repeat(s.depth)}${s.kind} ${s.name}`,
    );
    expect(rows.slice(0, 3)).toEqual(["module GREETING", "  class Greeting", "  class Name"]);
    expect(rows).toContain("module COUNTER");
    expect(rows).toContain("  event tick");
    expect(rows).toContain("  property greet-name");
  });

  test("session_status shows the pinned and reported version", async () => {
    const r = (await client.callTool({ name: "session_status", arguments: {} })).structuredContent as {
      sessions: Array<{ server: string; state: string; pinned_version: string; reported_version: string }>;
    };
    expect(r.sessions[0]).toMatchObject({ server: "maude", state: "ready", pinned_version: "0.1.0", reported_version: "0.1.0" });
  });
});
