// What the TypeScript and check benches share: timing a command with its whole process tree's
// CPU, and the generated projects they run on.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { treeWhere } from "./proc.mjs";

/**
 * Runs a command and measures it: wall time, and CPU (user+sys) of its whole process tree,
 * sampled from /proc every 50 ms (each process's highest figure): a reaped child's CPU is not
 * enough, since lspmcp's servers run under a supervisor that the command does not wait for.
 * stdout goes to a file: the figure is the command's, not a pipe reader's.
 */
export async function timed(command, argv, cwd) {
  const out = join(mkdtempSync(join(tmpdir(), "lspmcp-bench-out-")), "stdout");
  const fd = openSync(out, "w");
  const start = process.hrtime.bigint();
  const child = spawn(command, argv, { cwd, stdio: ["ignore", fd, "ignore"] });
  const cpu = new Map();
  const sample = () => {
    for (const p of treeWhere((pid) => pid === child.pid)) cpu.set(`${p.pid}:${p.start}`, Math.max(cpu.get(`${p.pid}:${p.start}`) ?? 0, p.cpuMs));
  };
  const timer = setInterval(sample, 50);
  const status = await new Promise((done) => child.once("exit", (code) => done(code)));
  clearInterval(timer);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  closeSync(fd);
  const stdout = readFileSync(out, "utf8");
  rmSync(dirname(out), { recursive: true, force: true });
  return { ms, cpuMs: [...cpu.values()].reduce((a, b) => a + b, 0), status, stdout };
}

/**
 * A TypeScript project of `files` modules with imports as real code has them: each module
 * imports two or three earlier ones (its neighbour, a "parent" and a shared hub) and uses what it
 * imports; every tenth module has a type error.
 */
export function tsWorkspace(files) {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-check-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  for (let i = 0; i < files; i++) writeFileSync(join(root, "src", `f${i}.ts`), tsModule(i, 0));
  writeFileSync(join(root, "bridge.toml"), config("typescript"));
  execFileSync("git", ["init", "-q"], { cwd: root });
  return root;
}

export function tsModule(i, edit) {
  const imports = [...new Set([i - 1, Math.floor(i / 2), Math.floor(i / 50) * 50].filter((j) => j >= 0 && j < i))];
  const lines = imports.map((j) => `import { f${j}, type T${j} } from "./f${j}";`);
  const uses = imports.map((j) => `f${j}(a).value`).join(" + ") || "a";
  lines.push(`export interface T${i} { readonly value: number; readonly label: string }`);
  lines.push(`export function f${i}(a: number): T${i} { return { value: ${uses} * ${i + edit}, label: "f${i}" }; }`);
  if (imports.length > 0) lines.push(`export const use${i}: T${imports[0]} = f${imports[0]}(${i});`);
  if (i % 10 === 0) lines.push(`export const wrong${i}: number = "x";`);
  return lines.join("\n") + "\n";
}

export function config(profile) {
  return `[bridge]\nrequest_timeout_ms = 300000\nmax_result_bytes = 16000000\n\n[[server]]\nname = "${profile}"\nprofile = "${profile}"\n\n[[workspace]]\nname = "bench"\nroot = "."\nservers = ["${profile}"]\n`;
}

/**
 * A committed git repository of `files` TypeScript modules (since and changes benches): every
 * tenth has a type error; f0.ts exports `scale`, which every fifth calls. Its config is written
 * beside it, outside the repository.
 */
export function scaleRepository(files, name) {
  const root = mkdtempSync(join(tmpdir(), `lspmcp-bench-${name}-`));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  writeFileSync(join(root, "src", "f0.ts"), "export function scale(a: number): number { return a * 2; }\n");
  for (let i = 1; i < files; i++) {
    const body =
      i % 10 === 0
        ? `export const v${i}: number = "x";\n`
        : i % 5 === 0
          ? `import { scale } from "./f0";\nexport function f${i}(a: number): number { return scale(a) + ${i}; }\n`
          : `export function f${i}(a: number): number { return a * ${i}; }\n`;
    writeFileSync(join(root, "src", `f${i}.ts`), body);
  }
  const git = (...argv) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...argv], { cwd: root, encoding: "utf8" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "generated");
  const config = join(root, "..", `${root.split("/").at(-1)}.toml`);
  writeFileSync(
    config,
    `[bridge]\nrequest_timeout_ms = 300000\nmax_result_bytes = 16000000\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "bench"\nroot = ${JSON.stringify(root)}\nservers = ["typescript"]\n`,
  );
  return { root, config, git };
}
