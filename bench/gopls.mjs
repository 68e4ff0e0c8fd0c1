#!/usr/bin/env node
// `lspmcp check` with gopls on golang.org/x/text (its module from Go's module proxy, into a
// committed temporary git repository) against gopls's own floor measured in the same run: a plain
// LSP client of the same pinned gopls (bench/gopls-floor.mjs), all files opened at once and 32 at
// a time (check's default batch), with the findings of each counted side by side (they must be
// equal). Runs alternate, floor first; wall time and CPU (user+sys of the whole process tree) are
// both printed, the CPU ratio being the steadier one on a shared machine. Target: check <= 1.3x
// the better floor. With --cold, each run gets an empty Go build cache and gopls cache of its own
// (GOCACHE, GOPLSCACHE) and check's session no memory cap (a cold load of this module passes the
// profile's); otherwise both use the user's caches (warmed by an untimed first check).
// Usage: node bench/gopls.mjs [--rounds 1] [--cold] (after `npm run build`; needs Go, the module
// proxy or golang.org/x/text@v0.21.0 and its requirements in the module cache, and gopls installed)
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { timed } from "./bench-projects.mjs";
import { MAIN } from "./lspmcp-process.mjs";

const MODULE = "golang.org/x/text@v0.21.0";
const FLOOR = fileURLToPath(new URL("gopls-floor.mjs", import.meta.url));
const args = process.argv.slice(2);
const rounds = Number(args.includes("--rounds") ? args[args.indexOf("--rounds") + 1] : "1");
const cold = args.includes("--cold");
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;

const work = mkdtempSync(join(tmpdir(), "lspmcp-bench-gopls-"));
const root = join(work, "text");
const download = JSON.parse(
  execFileSync("go", ["mod", "download", "-json", MODULE], { cwd: work, encoding: "utf8", env: { ...process.env, GOFLAGS: "-mod=mod" } }),
);
cpSync(download.Dir, root, { recursive: true });
execFileSync("chmod", ["-R", "u+w", root]);
// Its requirements, which gopls (GOPROXY=off) and go vet load from the module cache.
execFileSync("go", ["mod", "download"], { cwd: root });
const git = (...argv) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...argv], { cwd: root });
git("init", "-q");
git("add", "-A");
git("commit", "-q", "-m", "x/text");
const config = join(work, "bridge.toml");

/** The environment of one run: with --cold, empty caches of its own (gopls inherits GOCACHE; GOPLSCACHE is set in the config). */
function caches() {
  if (!cold) return { env: {}, done: () => {} };
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-bench-gopls-cache-"));
  const env = { GOCACHE: join(dir, "go-build"), GOPLSCACHE: join(dir, "gopls") };
  return { env, done: () => rmSync(dir, { recursive: true, force: true }) };
}

function writeConfig(env) {
  const extra = Object.entries({ GOPROXY: "off", GOTOOLCHAIN: "local", ...env }).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
  writeFileSync(
    config,
    `[bridge]\nrequest_timeout_ms = 600000\nmax_result_bytes = 64000000\n\n[[server]]\nname = "gopls"\nprofile = "gopls"\nenv = { ${extra.join(", ")} }\n${cold ? "max_rss_mb = 0\n" : ""}\n[[workspace]]\nname = "text"\nroot = ${JSON.stringify(root)}\nservers = ["gopls"]\n`,
  );
}

async function withEnv(env, run) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  }
}

async function floor(batch) {
  const { env, done } = caches();
  const argv = [FLOOR, root, ...(batch ? ["--batch", String(batch)] : [])];
  const run = await withEnv(env, () => timed(process.execPath, argv, root));
  done();
  return { ...run, summary: JSON.parse(run.stdout) };
}

async function check() {
  const { env, done } = caches();
  writeConfig(env);
  const run = await timed(MAIN, ["check", "--config", config, "--trust-config", "--quiet", "--format", "json", "--fail-on", "never"], root);
  done();
  if (run.status !== 0) throw new Error(`lspmcp check exited ${run.status}`);
  const { summary } = JSON.parse(run.stdout);
  return {
    ...run,
    summary: {
      files: summary.files,
      severities: { 1: summary.errors, 2: summary.warnings, 3: summary.information, 4: summary.hints },
      notChecked: summary.not_checked.length,
    },
  };
}

const show = (label, run) => `${label}: ${run.ms.toFixed(0)} ms wall, ${run.cpuMs} ms cpu; ${JSON.stringify(run.summary)}`;
try {
  if (!cold) await check();
  const all = { floorAll: [], floor32: [], check: [] };
  for (let round = 0; round < rounds; round++) {
    all.floorAll.push(await floor(0));
    all.floor32.push(await floor(32));
    all.check.push(await check());
    console.log(`round ${round + 1}${cold ? " (cold caches)" : " (warm caches)"}:`);
    console.log(`  ${show("floor, all files opened at once", all.floorAll.at(-1))}`);
    console.log(`  ${show("floor, 32 at a time", all.floor32.at(-1))}`);
    console.log(`  ${show("lspmcp check", all.check.at(-1))}`);
  }
  const median = (runs, key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const best = (key) => Math.min(median(all.floorAll, key), median(all.floor32, key));
  const same = all.check.every((c) => [...all.floorAll, ...all.floor32].every((f) => JSON.stringify(f.summary) === JSON.stringify(c.summary)));
  console.log(
    `check / floor (the better of the two): wall ${ratio(median(all.check, "ms"), best("ms"))}, cpu ${ratio(median(all.check, "cpuMs"), best("cpuMs"))} (target <= 1.3x); findings ${same ? "equal" : "DIFFER"}`,
  );
  if (!same) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
