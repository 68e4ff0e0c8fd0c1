#!/usr/bin/env node
// The bridge's fixed cost, each figure against baselines measured in the same run, in turn (A B A B):
//  - ready: spawn of `lspmcp serve` to its answer to `tools/list` (after `initialize`), the default
//    (shared: a new user's first serve, which elects and launches its shared server) and
//    `--standalone`, in a small git repository with no config (the embedded default), against a
//    bare Node program answering the same two requests (Node's own start, the floor) and cclsp
//    0.7.0, a peer bridge (installed once into a temp folder; skipped when npm cannot);
//  - `lspmcp check` with ty and pyrefly on the vendored Flask and httpx sources, against each
//    server's own CLI on the same folder and against the server's own floor, a plain LSP client
//    of it in a fresh process (bench/python-floor.mjs): the median of the pair ratios, wall and CPU.
// With --other-build PATH (another build's dist/lspmcp/main.js, e.g. main's), that build's figures
// are measured beside this one's in the same rounds.
// Usage: node bench/startup.mjs [--rounds 10] [--check-rounds 5] [--ready 1|0] [--check 1|0] [--other-build PATH]
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { config, timed } from "./bench-projects.mjs";
import { MAIN } from "./lspmcp-process.mjs";
import { toolCacheDir } from "../dist/src/config/tool-cache.js";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ROUNDS = Number(option("--rounds", "10"));
const CHECK_ROUNDS = Number(option("--check-rounds", "5"));
const CCLSP_VERSION = "0.7.0";
const OTHER = option("--other-build", null);
/** The builds measured: this one, and the other one when given. */
const BUILDS = [{ tag: "", main: MAIN }, ...(OTHER ? [{ tag: " [other build]", main: resolve(OTHER) }] : [])];
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

// The floor: Node starting an ES module that answers initialize and tools/list, nothing else.
const FLOOR = join(mkdtempSync(join(tmpdir(), "lspmcp-bench-floor-")), "floor.mjs");
writeFileSync(
  FLOOR,
  `import { readFileSync } from "node:fs";
const tools = JSON.parse(readFileSync(${JSON.stringify(join(REPO, "config/tool-list.json"))}, "utf8"));
let buffered = "";
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  for (let at = buffered.indexOf("\\n"); at >= 0; at = buffered.indexOf("\\n")) {
    const message = JSON.parse(buffered.slice(0, at));
    buffered = buffered.slice(at + 1);
    if (message.id === undefined) continue;
    const result = message.method === "tools/list" ? { tools } : { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "floor", version: "0" } };
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\\n");
  }
});
`,
);

/** CPU time `pid` has used so far, in ms (/proc/PID/schedstat: ns on a CPU, its threads included). */
function cpuMsOf(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "latin1").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * Spawn to the answer of tools/list (sent once initialize is answered), in ms, and the CPU the
 * process had used by then (its own, not a shared server's it launched); then stdin ends and the
 * process is reaped.
 */
function ready(command, argv, cwd, env) {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(command, argv, { cwd, stdio: ["pipe", "pipe", "ignore"], env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    let buffered = "";
    let answered;
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, at));
        buffered = buffered.slice(at + 1);
        if (message.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
        } else if (message.id === 2 && answered === undefined) {
          answered = { ms: performance.now() - start, cpuMs: cpuMsOf(child.pid) };
          if (!Array.isArray(message.result?.tools) || message.result.tools.length === 0)
            fail(new Error(`${command}: no tools in ${JSON.stringify(message).slice(0, 200)}`));
          child.stdin.end();
          // cclsp does not leave on EOF.
          setTimeout(() => child.kill("SIGTERM"), 2000).unref();
        }
      }
    });
    child.once("exit", () => (answered === undefined ? fail(new Error(`${command} ${argv.join(" ")} exited before answering`)) : done(answered)));
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
    });
  });
}

/** cclsp, installed once per machine into the temp folder (not a dependency of lspmcp); null when npm cannot. */
function cclsp() {
  const prefix = join(tmpdir(), `lspmcp-bench-cclsp-${CCLSP_VERSION}`);
  const entry = join(prefix, "node_modules/cclsp/dist/index.js");
  if (!existsSync(entry)) {
    try {
      mkdirSync(prefix, { recursive: true });
      execFileSync("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save", `cclsp@${CCLSP_VERSION}`], { stdio: "ignore" });
    } catch {
      return null;
    }
  }
  return existsSync(entry) ? entry : null;
}

/** Whether `pid` runs (a zombie that an init never reaps does not). */
function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    return false;
  }
}

/** Ends the shared server a default serve launched in `runtime` (its lease names it), and waits until it is gone. */
async function endSharedServers(runtime) {
  const folder = join(runtime, "lspmcp");
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder).filter((file) => file.endsWith(".lease"))) {
    try {
      const { pid } = JSON.parse(readFileSync(join(folder, name), "utf8"));
      process.kill(pid, "SIGTERM");
      while (running(pid)) await new Promise((r) => setTimeout(r, 20));
    } catch {}
  }
}

if (option("--ready", "1") !== "0") {
  const project = mkdtempSync(join(tmpdir(), "lspmcp-bench-startup-"));
  writeFileSync(join(project, "app.py"), "def greet(name: str) -> str:\n    return 'hello ' + name\n");
  execFileSync("git", ["init", "-q"], { cwd: project });
  execFileSync("git", ["add", "."], { cwd: project });
  const peer = cclsp();
  const peerConfig = join(project, "..", `cclsp-${process.pid}.json`);
  writeFileSync(peerConfig, JSON.stringify({ servers: [{ extensions: ["py"], command: [join(toolCacheDir(), "ty/bin/ty"), "server"], rootDir: "." }] }));
  const contenders = [
    { name: "floor (node, answering only)", run: () => ready(process.execPath, [FLOOR], project, {}) },
    ...(peer ? [{ name: `cclsp ${CCLSP_VERSION}`, run: () => ready(process.execPath, [peer], project, { CCLSP_CONFIG_PATH: peerConfig }) }] : []),
    ...BUILDS.flatMap(({ tag, main }) => [
      { name: `lspmcp serve --standalone${tag}`, run: () => ready(main, ["serve", "--standalone"], project, { LSPMCP_LOG_LEVEL: "error" }) },
      {
        name: `lspmcp serve (default)${tag}`,
        run: async () => {
          // A runtime folder of its own: no shared server yet, as a new user meets it.
          const runtime = mkdtempSync(join(tmpdir(), "lspmcp-bench-runtime-"));
          const answered = await ready(main, ["serve"], project, { LSPMCP_LOG_LEVEL: "error", XDG_RUNTIME_DIR: runtime });
          await endSharedServers(runtime);
          rmSync(runtime, { recursive: true, force: true });
          return answered;
        },
      },
    ]),
  ];
  const times = contenders.map(() => []);
  await contenders[0].run(); // warm the page cache once
  for (let round = 0; round < ROUNDS; round++) for (const [i, contender] of contenders.entries()) times[i].push(await contender.run());
  console.log(
    `ready: spawn to tools/list answered, ${ROUNDS} rounds in turn: median (range) ms wall, median ms CPU by then; ratios = medians of the per-round ratios`,
  );
  for (const key of ["ms", "cpuMs"]) {
    const floor = times[0].map((t) => t[key]);
    const peerTimes = peer ? times[1].map((t) => t[key]) : null;
    for (const [i, contender] of contenders.entries()) {
      const own = times[i].map((t) => t[key]);
      const perFloor = median(own.map((ms, round) => ms / floor[round]));
      const perPeer = peerTimes ? ` ${median(own.map((ms, round) => ms / peerTimes[round])).toFixed(2)}x cclsp` : "";
      console.log(
        `  ${key === "ms" ? "wall" : "cpu "} ${contender.name.padEnd(44)} ${median(own).toFixed(0).padStart(5)} ms (${range(own)})  ${perFloor.toFixed(2)}x floor${perPeer}`,
      );
    }
  }
  if (!peer) console.log("  (cclsp not measured: npm could not install it)");
  console.log("  target: lspmcp < 80 ms and below cclsp");
  rmSync(project, { recursive: true, force: true });
  rmSync(peerConfig, { force: true });
}

if (option("--check", "1") !== "0") {
  const cache = toolCacheDir();
  const clis = {
    ty: [join(cache, "ty/bin/ty"), ["check", "--no-progress", "--output-format", "concise", "."]],
    pyrefly: [join(cache, "pyrefly/bin/pyrefly"), ["check", "--output-format", "min-text"]],
  };
  console.log(`check ÷ the server's own CLI, ${CHECK_ROUNDS} pairs each in turn: median of the pair ratios (wall, cpu); target <= 1.5x`);
  for (const fixture of ["python-flask", "python-httpx"]) {
    const folder = mkdtempSync(join(tmpdir(), `lspmcp-bench-${fixture}-`));
    cpSync(join(REPO, "tests/fixtures/differential", fixture), folder, { recursive: true });
    for (const [profile, [command, argv]] of Object.entries(clis)) {
      writeFileSync(join(folder, "bridge.toml"), config(profile));
      const own = [];
      const floors = [];
      const checks = BUILDS.map(() => []);
      await timed(command, argv, folder); // warm the page cache and the checker's own caches once
      for (let round = 0; round < CHECK_ROUNDS; round++) {
        own.push(await timed(command, argv, folder));
        floors.push(await timed(process.execPath, [join(REPO, "bench/python-floor.mjs"), profile, folder], folder));
        for (const [b, { main }] of BUILDS.entries())
          checks[b].push(await timed(process.execPath, [main, "check", "--config", "bridge.toml", "--quiet", "--format", "json"], folder));
      }
      if (floors.some((run) => run.status !== 0)) throw new Error(`the ${profile} floor on ${fixture} failed`);
      const cli = `CLI ${median(own.map((r) => r.ms)).toFixed(0)} ms (${median(own.map((r) => r.cpuMs)).toFixed(0)} cpu)`;
      console.log(
        `  ${fixture} ${profile.padEnd(8)} floor (plain LSP client) ${median(floors.map((r) => r.ms)).toFixed(0)} ms (${median(floors.map((r) => r.cpuMs)).toFixed(0)} cpu) = ${median(floors.map((run, i) => run.ms / own[i].ms)).toFixed(2)}x the CLI`,
      );
      for (const [b, { tag }] of BUILDS.entries()) {
        const check = checks[b];
        const failed = check.find((run) => run.status !== 0 && run.status !== 1);
        if (failed) throw new Error(`check with ${profile} on ${fixture} exited ${failed.status}`);
        const wall = median(check.map((run, i) => run.ms / own[i].ms));
        const cpu = median(check.map((run, i) => run.cpuMs / own[i].cpuMs));
        const vsFloor = median(check.map((run, i) => run.ms / floors[i].ms));
        console.log(
          `  ${fixture} ${profile.padEnd(8)} ${cli}; check${tag} ${median(check.map((r) => r.ms)).toFixed(0)} ms (${median(check.map((r) => r.cpuMs)).toFixed(0)} cpu); ratio ${wall.toFixed(2)}x wall, ${cpu.toFixed(2)}x cpu; ${vsFloor.toFixed(2)}x the floor`,
        );
      }
    }
    rmSync(folder, { recursive: true, force: true });
  }
}
rmSync(join(FLOOR, ".."), { recursive: true, force: true });
