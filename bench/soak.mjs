// Soak (issue 7): N sequential tool calls through the real bridge (run `npm run build` first),
// over four fake-server sessions, with the bridge's RSS read from /proc every `--every` calls.
// Prints one JSON object: calls, failures, RSS samples, max RSS, and the RSS slope (least squares
// over the second half of the samples, after warm-up) in KiB per call and per 1,000 calls.
// Usage: node bench/soak.mjs [--calls 2000] [--every 50]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  const value = at >= 0 ? Number(argv[at + 1]) : NaN;
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const CALLS = option("--calls", 2000);
const EVERY = option("--every", 50);
const SERVERS = ["s1", "s2", "s3", "s4"];

const dir = mkdtempSync(join(tmpdir(), "lspmcp-soak-"));
const root = join(dir, "ws");
mkdirSync(root);
const servers = SERVERS.map((name) => {
  writeFileSync(join(root, `a.${name}`), "fn alpha\n  a bad line\nfn beta é😀\n  another bad one\n");
  return `
[[server]]
name = "${name}"
command = ${JSON.stringify(join(REPO, "tests/fixtures/servers/fake-server.mjs"))}
args = ["--lsp", "--no-daemon", "--no-child"]
version = "1.0.0"
languages = [{ id = "fake", extensions = [".${name}"] }]
`;
});
writeFileSync(
  join(dir, "bridge.toml"),
  `[bridge]\nmax_sessions = 4\nrequest_timeout_ms = 10000\n${servers.join("")}\n[[workspace]]\nname = "ws"\nroot = ${JSON.stringify(root)}\nservers = ${JSON.stringify(SERVERS)}\n`,
);

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(REPO, "dist/src/cli/main.js"), "serve", "--standalone", "--config", join(dir, "bridge.toml")],
  env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", LSPMCP_LOG_LEVEL: "warn" },
  stderr: "ignore",
});
const client = new Client({ name: "lspmcp-soak", version: "0" });
await client.connect(transport);
const pid = transport.pid;
const rssKiB = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);

// A rotation of every tool over every session, with the file edited now and then so that sync
// (didChange) is part of the load, not only cached answers.
function callFor(index) {
  const server = SERVERS[index % SERVERS.length];
  const path = `a.${server}`;
  switch (Math.floor(index / SERVERS.length) % 5) {
    case 0:
      return { name: "diagnostics", arguments: { path } };
    case 1:
      return { name: "document_symbols", arguments: { path } };
    case 2:
      return { name: "hover", arguments: { path, line: 3, column: 5 } };
    case 3:
      return { name: "session_status", arguments: {} };
    default:
      writeFileSync(join(root, path), `fn alpha\n  a bad line ${index}\nfn beta é😀\n  another bad one\n`);
      return { name: "diagnostics", arguments: { path } };
  }
}

const samples = [];
let failures = 0;
const started = Date.now();
for (let index = 0; index < CALLS; index++) {
  const result = await client.callTool(callFor(index));
  if (result.isError) failures++;
  if ((index + 1) % EVERY === 0) samples.push({ calls: index + 1, rss_kib: rssKiB() });
}
const elapsedMs = Date.now() - started;

const tail = samples.slice(Math.floor(samples.length / 2));
const meanX = tail.reduce((sum, s) => sum + s.calls, 0) / tail.length;
const meanY = tail.reduce((sum, s) => sum + s.rss_kib, 0) / tail.length;
const slope =
  tail.reduce((sum, s) => sum + (s.calls - meanX) * (s.rss_kib - meanY), 0) / Math.max(1, tail.reduce((sum, s) => sum + (s.calls - meanX) ** 2, 0));
const peak = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
await client.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    calls: CALLS,
    failures,
    elapsed_ms: elapsedMs,
    first_rss_kib: samples[0]?.rss_kib ?? null,
    last_rss_kib: samples.at(-1)?.rss_kib ?? null,
    max_rss_kib: Math.max(...samples.map((s) => s.rss_kib)),
    peak_rss_kib: peak,
    slope_kib_per_call: Number(slope.toFixed(3)),
    slope_kib_per_1000_calls: Math.round(slope * 1000),
    samples,
  }),
);
