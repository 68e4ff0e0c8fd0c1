#!/usr/bin/env node
// `npm start`: shows lspmcp working on the shipped example (examples/app) — the config check,
// the CI gate, and a real MCP round trip through the SDK's client, as an agent would do it.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const main = join(repo, "dist/lspmcp/main.js");
const agentConfig = join(repo, "config/agent.toml");

function section(title) {
  process.stdout.write(`\n=== ${title}\n`);
}

function runCli(...args) {
  process.stdout.write(`$ lspmcp ${args.join(" ")}\n`);
  const result = spawnSync(process.execPath, [main, ...args], { cwd: repo, stdio: ["ignore", "inherit", "inherit"] });
  process.stdout.write(`(exit ${result.status})\n`);
  return result.status;
}

section("validate the configuration");
runCli("validate", "--config", "config/agent.toml");

section("the CI gate on the example (exit 1: the example has errors on purpose)");
runCli("check", "--config", "config/ci.toml", "--fail-on", "error");

section("an agent's MCP session over stdio");
const transport = new StdioClientTransport({ command: process.execPath, args: [main, "serve", "--config", agentConfig], stderr: "inherit" });
const client = new Client({ name: "lspmcp-demo", version: "1" });
await client.connect(transport);
const { tools } = await client.listTools();
process.stdout.write(`tools: ${tools.map((tool) => tool.name).join(", ")}\n`);
process.stdout.write("(this `serve` attached to the shared bridge of config/agent.toml, launching it if needed)\n");

async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  process.stdout.write(`\n> ${name} ${JSON.stringify(args)}\n${result.content[0].text}\n`);
  return result;
}

for (const path of ["src/greet.ts", "src/stats.py", "src/vector.c"]) await call("diagnostics", { path });
const greet = readFileSync(join(repo, "examples/app/src/greet.ts"), "utf8").split("\n");
const line = greet.findIndex((text) => text.includes("const message")) + 1;
const column = [...greet[line - 1].slice(0, greet[line - 1].indexOf("message"))].length + 1;
await call("hover", { path: "src/greet.ts", line, column });
await call("document_symbols", { path: "src/greet.ts" });
await call("workspace_symbols", { server: "typescript", query: "greet" });
await call("session_status", {});

section("the shared bridge, its peers and its sessions");
runCli("status", "--config", "config/agent.toml");
await client.close();

// The shared bridge ends once its last peer has been gone for linger_ms; wait for that (bounded).
const until = Date.now() + 15_000;
let gone = false;
while (!gone && Date.now() < until) {
  gone = spawnSync(process.execPath, [main, "status", "--config", agentConfig], { stdio: "ignore" }).status === 1;
  if (!gone) await new Promise((resolve) => setTimeout(resolve, 100));
}
process.stdout.write(
  gone
    ? "\nThe last peer left: the shared bridge shut down and reaped every language server it started.\n"
    : "\nThe shared bridge is still up 15 s after its last peer left; see `lspmcp status`.\n",
);
process.exitCode = gone ? 0 : 1;
