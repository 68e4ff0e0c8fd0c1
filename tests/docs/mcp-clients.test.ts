// docs/mcp-clients.md's registrations, each started as its client starts it: every entry the page
// writes (the `claude mcp add` and `codex mcp add` commands, the JSON of Cursor, VS Code, Zed and
// the generic entry, Codex's TOML table) gives a command, its arguments and its environment; each
// is started in a repository (the page's `/abs/path/to/bridge.toml` being the one `lspmcp init`
// wrote there) through the MCP SDK's client, and must answer an agent's call about a file with
// a type error.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parse } from "smol-toml";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pageBlocks, shellCommands } from "../helpers/page-blocks.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { isAlive } from "../helpers/proc.js";
import { sharedStatus } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { cacheEnv } from "../helpers/tool-cache.js";

interface Entry {
  readonly from: string;
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/** Every registration of lspmcp the page writes, in its order. */
function registrations(): Entry[] {
  const entries: Entry[] = [];
  for (const block of pageBlocks("docs/mcp-clients.md").blocks) {
    if (block.lang === "sh")
      for (const line of shellCommands(block.text)) {
        const added = line.match(/^(claude|codex) mcp add lspmcp -- (.*)$/);
        if (added) {
          const [command, ...args] = added[2]!.split(" ");
          entries.push({ from: line, command: command!, args, env: {} });
        }
      }
    if (block.lang === "json") {
      const json = JSON.parse(block.text) as Record<string, Record<string, { command: string; args?: string[]; env?: Record<string, string> }>>;
      const entry = (json.mcpServers ?? json.servers ?? json.context_servers)?.lspmcp;
      // An HTTP entry names a URL, not a command: the HTTP tests start `serve --http` themselves.
      if (entry?.command !== undefined) entries.push({ from: block.text.trim(), command: entry.command, args: entry.args ?? [], env: entry.env ?? {} });
    }
    if (block.lang === "toml") {
      const entry = (parse(block.text) as { mcp_servers?: { lspmcp?: { command: string; args?: string[] } } }).mcp_servers?.lspmcp;
      if (entry) entries.push({ from: block.text.trim(), command: entry.command, args: entry.args ?? [], env: {} });
    }
  }
  return entries;
}

const entries = registrations();
let repo: string;
let bin: string;
let env: Record<string, string>;
const clients: Client[] = [];

beforeAll(() => {
  const dir = tempDir("lspmcp-clients-");
  bin = join(dir, "bin");
  mkdirSync(bin);
  symlinkSync(BRIDGE_MAIN, join(bin, "lspmcp"));
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME ?? "/root", XDG_RUNTIME_DIR: tempDir("lspmcp-clients-runtime-"), ...cacheEnv() };
  repo = join(dir, "repo");
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "src/cart.ts"), 'export const count: number = "one";\n');
  execFileSync("git", ["init", "-q"], { cwd: repo });
  execFileSync(join(bin, "lspmcp"), ["init"], { cwd: repo, env, stdio: "ignore" });
});

afterAll(async () => {
  const { server } = await sharedStatus({ config: join(repo, "bridge.toml"), env });
  await Promise.all(clients.map((client) => client.close()));
  if (server !== null) await pollUntil(() => !isAlive(server.pid), 30_000, 100);
});

describe("docs/mcp-clients.md", () => {
  test("names the registrations of Claude Code, Codex, VS Code, Cursor, Zed and the generic entry", () => {
    // The bare entry as JSON and as `claude mcp add`, the generic JSON, Claude Code's two lines,
    // VS Code, Cursor, Codex's command and its TOML table, Zed.
    expect(entries).toHaveLength(10);
    expect(entries.every((entry) => entry.command === "lspmcp")).toBe(true);
  });

  test("each registration, started as its client starts it, answers an agent's call", { timeout: 300_000 }, async () => {
    for (const entry of entries) {
      const transport = new StdioClientTransport({
        command: join(bin, entry.command),
        args: entry.args.map((arg) => arg.replace("/abs/path/to/bridge.toml", join(repo, "bridge.toml"))),
        env: { ...env, ...entry.env },
        cwd: repo,
        stderr: "ignore",
      });
      const client = new Client({ name: "lspmcp-docs", version: "0" });
      clients.push(client);
      await client.connect(transport);
      const answer = (await client.callTool({ name: "diagnostics", arguments: { path: "src/cart.ts" } }, undefined, { timeout: 120_000 })) as {
        isError?: boolean;
        structuredContent?: { total: number };
      };
      expect(answer.isError ?? false, entry.from).toBe(false);
      expect(answer.structuredContent?.total, entry.from).toBe(1);
    }
  });
});
