// The standard settle rule, run after run, on typescript-language-server written by hand with
// `adapter = "standard"` (pushes in phases, no version): cold `check` runs of ajv's 106 files held
// to tsc 5.9.3's errors, and cold one-file runs (a fresh process's first answer for a file with
// one TS2322). Each run is counted equal, not settled (exit 3, a file named), or wrong (fewer or
// other findings: a false clean, which the rule must never give).
//
//   node bench/standard-rule-runs.mjs [--ajv 20] [--one 100] [--entry standard|hand-written]
//
// `--entry hand-written` drops the `adapter` line: the entry a user writes, which lspmcp recognises
// as typescript-language-server and answers by its own rule.
//
// Run after `npm run build`; start load beside it (a test suite) for the loaded-machine figures.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { ajv: { type: "string", default: "20" }, one: { type: "string", default: "100" }, entry: { type: "string", default: "standard" } },
});
if (!["standard", "hand-written"].includes(values.entry)) throw new Error(`--entry is standard or hand-written, not ${values.entry}`);
const adapterLine = values.entry === "standard" ? 'adapter = "standard"\n' : "";
const LS = join(root, "node_modules/.bin/typescript-language-server");
const run = (file, args, cwd) =>
  new Promise((done) =>
    execFile(file, args, { cwd, maxBuffer: 256 << 20, env: { ...process.env, LSPMCP_TRUST_CONFIG: "1" } }, (error, stdout, stderr) =>
      done({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    ),
  );

function config(dir, workspace) {
  const file = join(dir, "bridge.toml");
  writeFileSync(
    file,
    `[bridge]\nrequest_timeout_ms = 180000\nmax_result_bytes = 4194304\n[[server]]\nname = "tls"\ncommand = ${JSON.stringify(LS)}\nargs = ["--stdio"]\nversion = "5.3.0"\nversion_command = [${JSON.stringify(LS)}, "--version"]\nlanguages = [{ id = "typescript", extensions = [".ts"] }]\n${adapterLine}[[workspace]]\nname = "w"\nroot = ${JSON.stringify(workspace)}\nservers = ["tls"]\n`,
  );
  return file;
}

/** tsc's errors as `path:line:col TSn`, from its plain output. */
async function tscErrors(workspace) {
  const { stdout } = await run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", ".", "--pretty", "false"], workspace);
  return [...stdout.matchAll(/^(.+)\((\d+),(\d+)\): error TS(\d+)/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} TS${m[4]}`).sort();
}

async function checkRuns(label, workspace, count, expected) {
  const tally = { equal: 0, notSettled: 0, wrong: 0, seconds: [] };
  const cfg = config(mkdtempSync(join(tmpdir(), "lspmcp-bench-")), workspace);
  for (let i = 0; i < count; i++) {
    const started = Date.now();
    const result = await run(
      process.execPath,
      [join(root, "dist/lspmcp/main.js"), "check", "--config", cfg, "--format", "json", "--fail-on", "never"],
      workspace,
    );
    tally.seconds.push((Date.now() - started) / 1000);
    if (result.code === 3 && /did not settle/.test(result.stderr)) tally.notSettled++;
    else {
      // tsc counts columns in UTF-16 units, lspmcp in code points: ajv's and the one file's errors are on ASCII lines.
      const got = JSON.parse(result.stdout)
        .items.filter((item) => item.severity === "error")
        .map((item) => `${item.path}:${item.range.start.line}:${item.range.start.column} TS${item.code}`)
        .sort();
      if (JSON.stringify(got) === JSON.stringify(expected)) tally.equal++;
      else {
        tally.wrong++;
        console.log(`${label} run ${i + 1}: ${got.length} errors, tsc ${expected.length}`);
      }
    }
  }
  const s = tally.seconds.sort((a, b) => a - b);
  console.log(
    `${label} (${values.entry} entry): ${count} cold runs: ${tally.equal} equal to tsc (${expected.length} errors), ${tally.notSettled} not settled, ${tally.wrong} wrong; median ${s[s.length >> 1]?.toFixed(1)} s, max ${s.at(-1)?.toFixed(1)} s`,
  );
}

const ajv = mkdtempSync(join(tmpdir(), "lspmcp-bench-ajv-"));
cpSync(join(root, "tests/fixtures/differential/typescript-ajv"), ajv, { recursive: true });
const one = mkdtempSync(join(tmpdir(), "lspmcp-bench-one-"));
mkdirSync(join(one, "src"));
writeFileSync(join(one, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["src"] }));
writeFileSync(join(one, "src/a.ts"), 'export const count: number = "three";\n');
try {
  if (Number(values.one) > 0) await checkRuns("one file", one, Number(values.one), await tscErrors(one));
  if (Number(values.ajv) > 0) await checkRuns("ajv", ajv, Number(values.ajv), await tscErrors(ajv));
} finally {
  rmSync(ajv, { recursive: true, force: true });
  rmSync(one, { recursive: true, force: true });
}
