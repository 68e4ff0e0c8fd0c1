// Soak. Modes, chosen by flags (run `npm run build` first; `npm run soak` does setup and passes
// `--calls 2000`, and later flags win, so `npm run soak -- --calls 100000 --mix` works):
//   (default)      N sequential tool calls through a standalone bridge over four fake-server
//                  sessions (issue 7), the bridge's RSS read every `--every` calls;
//   --mix          the long soak (issue 19, bench/soak-mix.mjs): `--workers` attached serve
//                  processes drive one shared bridge with every listed tool over TypeScript,
//                  Python and C files edited on disk as it goes; zero failed calls and zero stale
//                  answers expected; RSS of the bridge, forwarders and each server over time;
//   --fuzz N       fuzz at scale (bench/soak-fuzz.mjs): N generated calls across every tool.
// `--minutes M` ends the mix early (the report says how many calls were made). Prints one JSON
// object: the default mode's report, or { mix, fuzz } with the reports of the modes that ran,
// each with its RSS slope fitted over the second half of its samples, in KiB per 1,000 calls.
// Usage: node bench/soak.mjs [--calls 2000] [--every 50] [--mix [--workers 3] [--minutes M]
//        [--max-open 4]] [--fuzz 10000 [--seed 7]]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { soakFuzz } from "./soak-fuzz.mjs";
import { soakMix } from "./soak-mix.mjs";
import { peakKiB, rssKiB, slopePer1000 } from "./soak-stats.mjs";
import { lspmcpTransport } from "./lspmcp-process.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const argv = process.argv.slice(2);
// The last occurrence wins: npm's fixed `--calls 2000` comes before the caller's flags.
const option = (name, fallback, min = 1) => {
  const at = argv.lastIndexOf(name);
  const value = at >= 0 ? Number(argv[at + 1]) : NaN;
  return Number.isInteger(value) && value >= min ? value : fallback;
};
const CALLS = option("--calls", 2000, 0);
const MIX = argv.includes("--mix");
const FUZZ = option("--fuzz", 0, 0);
const EVERY = option("--every", MIX ? 1000 : 50);
const log = (line) => process.stderr.write(`${line}\n`);

if (MIX || FUZZ > 0) {
  const report = {};
  if (MIX && CALLS > 0) {
    report.mix = await soakMix({ calls: CALLS, every: EVERY, workers: option("--workers", 3), minutes: option("--minutes", 0, 0), maxOpen: option("--max-open", 4), log });
  }
  if (FUZZ > 0) report.fuzz = await soakFuzz({ repo: REPO, count: FUZZ, seed: option("--seed", 7, 0), log });
  console.log(JSON.stringify(report));
  process.exit(0);
}

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

const transport = lspmcpTransport(["serve", "--standalone", "--config", join(dir, "bridge.toml")]);
const client = new Client({ name: "lspmcp-soak", version: "0" });
await client.connect(transport);
const pid = transport.pid;

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
  if ((index + 1) % EVERY === 0) samples.push({ calls: index + 1, rss_kib: rssKiB(pid) });
}
const elapsedMs = Date.now() - started;

const slope1000 = slopePer1000(samples, (s) => s.calls, (s) => s.rss_kib) ?? 0;
const peak = peakKiB(pid);
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
    slope_kib_per_call: Number((slope1000 / 1000).toFixed(3)),
    slope_kib_per_1000_calls: Math.round(slope1000),
    samples,
  }),
);
