// How much resident memory each shipped server's whole process tree uses (run after `npm run
// build`): the figures the profiles' max_rss_mb caps were chosen from (docs/configuration.md).
// For each profile, one bridge with that profile alone (its cap turned off, max_rss_mb = 0), a
// `diagnostics` call over its fixture, and session_status polled every 250 ms during the call and
// for 3 s after it: the peak rss_mb and the one it settled at. The large runs are real projects:
// lspmcp's own src/ (185 files and the types of its node_modules) for typescript, and typeshed's
// standard library stubs (shipped inside pyright) for pyright.
// Usage: node bench/server-memory.mjs [--only a,b] [--small] [--json]
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { lspmcpTransport } from "./lspmcp-process.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const LANGS = join(REPO, "tests/fixtures/workspaces/langs");
const STDLIB = join(REPO, "node_modules/pyright/dist/typeshed-fallback/stdlib");
const argv = process.argv.slice(2);
const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1].split(",") : null;

/** [profile, workspace root, paths to diagnose, copy the root first?] */
const SMALL = [
  ["typescript", LANGS, ["lint.ts"]],
  ["pyright", LANGS, ["inventory_lint.py"]],
  ["clangd", LANGS, ["cafe.c"]],
  ["bash", join(REPO, "scripts"), ["setup.sh"]],
  ["maude", join(REPO, "tests/fixtures/maude"), ["recoverable.maude"]],
  ["yaml", LANGS, ["config.yaml"]],
  ["json", LANGS, ["settings.json"]],
  ["css", LANGS, ["styles.css"]],
  ["html", LANGS, ["page.html"]],
  ["dockerfile", LANGS, ["Dockerfile"]],
  ["svelte", LANGS, ["Widget.svelte"]],
  ["graphql", LANGS, ["menu.graphql"]],
  ["biome", LANGS, ["lint.ts"]],
  ["gopls", LANGS, ["go/main.go"]],
  ["pylsp", LANGS, ["inventory_lint.py"]],
  ["ccls", LANGS, ["cafe.c"]],
  ["fortls", LANGS, ["cafe.f90"]],
].map(([profile, root, paths]) => ({ profile, kind: "fixture", root, paths }));

const LARGE = [
  { profile: "typescript", kind: "lspmcp src/", root: REPO, paths: ["src"] },
  {
    profile: "pyright",
    kind: "typeshed stdlib",
    root: STDLIB,
    paths: readdirSync(STDLIB).filter((name) => name.endsWith(".pyi")),
  },
];

const runs = [...SMALL, ...(argv.includes("--small") ? [] : LARGE)].filter((run) => !only || only.includes(run.profile));

async function measure({ profile, kind, root, paths }) {
  // The fixture is copied: servers write caches (clangd, ccls) next to the files.
  const copy = kind === "fixture" ? mkdtempSync(join(tmpdir(), "lspmcp-memory-")) : null;
  if (copy) cpSync(root, copy, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-memory-config-"));
  const config = join(dir, "bridge.toml");
  writeFileSync(
    config,
    `[bridge]\nrequest_timeout_ms = 300000\n\n[[server]]\nname = "${profile}"\nprofile = "${profile}"\nmax_rss_mb = 0\n\n` +
      `[[workspace]]\nname = "w"\nroot = ${JSON.stringify(copy ?? root)}\nservers = ["${profile}"]\n`,
  );
  const client = new Client({ name: "server-memory-bench", version: "0" });
  await client.connect(lspmcpTransport(["serve", "--config", config]));
  let peak = 0;
  let processes = 0;
  const sample = async () => {
    const status = await client.callTool({ name: "session_status", arguments: {} });
    const session = status.structuredContent.sessions[0];
    if (typeof session.rss_mb === "number" && session.rss_mb >= peak) (peak = session.rss_mb), (processes = session.tree_processes);
    return session;
  };
  let running = true;
  const poller = (async () => {
    while (running) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const t0 = performance.now();
  const answer = await client.callTool({ name: "diagnostics", arguments: { paths, limit: 1 } }, undefined, { timeout: 300_000 });
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  running = false;
  await poller;
  const settled = await sample();
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  if (copy) rmSync(copy, { recursive: true, force: true });
  const files = answer.isError ? `error: ${answer.content[0].text}` : answer.structuredContent.files;
  return { profile, kind, files, seconds: Number(seconds.toFixed(1)), peak_rss_mb: peak, settled_rss_mb: settled.rss_mb, processes };
}

const results = [];
for (const run of runs) {
  const result = await measure(run);
  results.push(result);
  if (!argv.includes("--json")) {
    console.log(
      `${result.profile.padEnd(11)} ${result.kind.padEnd(16)} files ${String(result.files).padEnd(4)} ${String(result.seconds).padStart(6)} s  peak ${result.peak_rss_mb} MiB, settled ${result.settled_rss_mb} MiB, ${result.processes} processes`,
    );
  }
}
if (argv.includes("--json")) console.log(JSON.stringify(results));
