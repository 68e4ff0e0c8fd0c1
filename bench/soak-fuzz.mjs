// Fuzz at scale (issue 19): COUNT generated calls (bench/tool-arguments.mjs, the generator of the
// short property test in CI) across every tool the bridge lists, through the SDK's client to a
// standalone bridge over two fake-server sessions. Each call must answer within its deadline
// (else it is a hang) with a result that is on contract (see judgeToolResult); the bridge must
// not crash, and must give the same answer to a fixed call before and after.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { judgeToolResult, toolCallArbitrary } from "./tool-arguments.mjs";
import { peakKiB } from "./soak-stats.mjs";
import { lspmcpTransport } from "./lspmcp-process.mjs";

const TIMEOUT_MS = 4000;
const SAMPLE_TEXT = "fn alpha\n  a bad line\nfn beta é😀\n  another bad one\n";

/** The error codes of CONTRACT §6, from the built bridge (one list, in src/contract/errors.ts). */
async function contractCodes(repo) {
  const { ERROR_CODES } = await import(join(repo, "dist/src/contract/errors.js"));
  return new Set(ERROR_CODES);
}

/** Runs the fuzz; resolves with its report. */
export async function soakFuzz({ repo, count, seed, log }) {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-soak-fuzz-"));
  const root = join(dir, "ws");
  mkdirSync(root);
  writeFileSync(join(root, "a.fk"), SAMPLE_TEXT);
  writeFileSync(join(root, "a.ot"), SAMPLE_TEXT);
  writeFileSync(join(root, "b.fk"), "fn one\n");
  const fake = join(repo, "tests/fixtures/servers/fake-server.mjs");
  const server = (name, extension) => `
[[server]]
name = "${name}"
command = ${JSON.stringify(fake)}
args = ["--lsp", "--no-daemon", "--no-child"]
version = "1.0.0"
languages = [{ id = "fake", extensions = ["${extension}"] }]
`;
  writeFileSync(
    join(dir, "bridge.toml"),
    `[bridge]\nrequest_timeout_ms = ${TIMEOUT_MS}\n${server("fake", ".fk")}${server("other", ".ot")}\n[[workspace]]\nname = "ws"\nroot = ${JSON.stringify(root)}\nservers = ["fake", "other"]\n`,
  );
  const transport = lspmcpTransport(["serve", "--standalone", "--config", join(dir, "bridge.toml")], { logLevel: "error" });
  const client = new Client({ name: "lspmcp-soak-fuzz", version: "0" });
  await client.connect(transport);
  const pid = transport.pid;
  const codes = await contractCodes(repo);
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  const probe = async () => JSON.stringify(await client.callTool({ name: "diagnostics", arguments: { path: "a.fk" } }));
  const before = await probe();

  const outcomes = {};
  const perTool = {};
  const problems = [];
  let hangs = 0;
  let slowest = 0;
  const started = Date.now();
  const calls = fc.sample(toolCallArbitrary(tools), { numRuns: count, seed });
  for (const [index, [tool, args]] of calls.entries()) {
    const at = Date.now();
    let result;
    try {
      result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: TIMEOUT_MS + 2000 });
    } catch (error) {
      // An unknown tool may be refused as a protocol error (CONTRACT §6); anything else is a hang or a crash.
      const message = error instanceof Error ? error.message : String(error);
      if (/timed out/i.test(message)) hangs++;
      else if (!/unknown tool/i.test(message)) problems.push(`${tool}: ${message.slice(0, 200)}`);
      continue;
    }
    slowest = Math.max(slowest, Date.now() - at);
    const { code, problem } = judgeToolResult(result, codes);
    outcomes[code] = (outcomes[code] ?? 0) + 1;
    perTool[tool] = (perTool[tool] ?? 0) + 1;
    if (problem) problems.push(`${tool} ${JSON.stringify(args).slice(0, 200)}: ${problem}`);
    if ((index + 1) % 1000 === 0) log(`[fuzz] ${index + 1}/${count} problems=${problems.length} hangs=${hangs}`);
  }
  const after = await probe();
  const peak = peakKiB(pid);
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    mode: "fuzz",
    calls: count,
    seed,
    minutes: Number(((Date.now() - started) / 60_000).toFixed(1)),
    tools: perTool,
    outcomes,
    hangs,
    off_contract: problems.length,
    first_problems: problems.slice(0, 10),
    still_serving_same_answer: before === after,
    slowest_ms: slowest,
    bridge_peak_kib: peak,
  };
}
