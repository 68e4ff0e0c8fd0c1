// The embedded default's language detection on a 50,000-file checkout (CONTRACT §2: it must be
// fast on a big checkout). The baseline is `git ls-files` alone, in the same run: detection reads
// that very listing, so the ratio says what planning adds on top of git. CPU is user+sys of this
// process and its children (git), from process.cpuUsage and /proc's children fields.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const { planDefault } = await import(join(REPO, "dist/src/config/default-plan.js"));
const FILES = 50_000;
const RUNS = 5;

/** CPU ms of this process plus its waited-for children (git), from /proc/self/stat. */
function cpuMs() {
  const f = readFileSync("/proc/self/stat", "latin1").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
}

// A monorepo-like tree: 500 folders of 100 files, mostly .md and .json, one .py deep inside and
// one .ts at the very end of git's sorted listing, so every claimed key is looked for to the end.
const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-detect-"));
try {
  for (let d = 0; d < FILES / 100; d++) {
    const dir = join(root, `pkg${String(d).padStart(3, "0")}`);
    mkdirSync(dir);
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `f${f}.${f % 2 === 0 ? "md" : "json"}`), "");
  }
  writeFileSync(join(root, "pkg250", "deep.py"), "");
  writeFileSync(join(root, "pkg499", "zz.ts"), "");
  const git = (...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "bench");

  const measure = async (body) => {
    const samples = [];
    for (let i = 0; i < RUNS; i++) {
      const cpu = cpuMs();
      const wall = performance.now();
      await body();
      samples.push({ wall: performance.now() - wall, cpu: cpuMs() - cpu });
    }
    const median = (key) => samples.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(RUNS / 2)];
    return { wall: median("wall"), cpu: median("cpu") };
  };
  const baseline = await measure(() => spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, maxBuffer: 1 << 28 }));
  let plan;
  const detect = await measure(async () => (plan = await planDefault(root, { packageRoot: REPO, searchPath: process.env.PATH ?? "" })));
  console.log(`files: ${FILES + 2} tracked; scanned ${plan.detected.scanned} via ${plan.detected.via}; chose ${plan.servers.map((s) => s.name).join(", ")}`);
  console.log(`git ls-files alone (baseline): ${baseline.wall.toFixed(0)} ms wall, ${baseline.cpu} ms CPU (median of ${RUNS})`);
  console.log(`planDefault:                   ${detect.wall.toFixed(0)} ms wall, ${detect.cpu} ms CPU (median of ${RUNS})`);
  console.log(
    `ratio planDefault / git ls-files: ${(detect.wall / baseline.wall).toFixed(2)} wall, ${(detect.cpu / Math.max(10, baseline.cpu)).toFixed(2)} CPU`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
