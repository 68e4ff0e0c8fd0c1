import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, startKeys, TSC, tscFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";

// Freshness owned by the bridge (issues 24 and 35): the TypeScript server watches no file itself
// (its adapter has the bridge watch them), so every change on disk must reach it through the bridge before an
// answer, and the warm path keeps an answer only while no change can reach it. After each edit
// below, a warm bridge's `diagnostics "."` must equal what the answering compiler's `tsc
// --noEmit` says of the tree at that moment — in the edited file and in files it never touched.
// TypeScript 7's native server standalone and in the default mode (attached to a shared server,
// which does the work), and a workspace's own TypeScript 5.9.3 through tsserver.
function project(compiler: Compiler): { root: string; config: string; write: (name: string, text: string) => void } {
  const root = tempDir("lspmcp-freshness-");
  mkdirSync(join(root, "src"));
  if (compiler === "5.9.3") {
    mkdirSync(join(root, "node_modules"));
    symlinkSync(join(REPO, "node_modules", "typescript"), join(root, "node_modules", "typescript"));
  }
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  const write = (name: string, text: string) => writeFileSync(join(root, "src", name), text);
  write("shape.ts", "interface Inner { size: number }\nexport function make(): Inner { return { size: 1 }; }\nexport const base = 10;\n");
  write("user.ts", 'import { make, base } from "./shape";\nexport const total: number = make().size + base;\n');
  write("far.ts", 'import { total } from "./user";\nexport const twice: number = total * 2;\n');
  write("alone.ts", "export const alone: number = 1;\n");
  writeFileSync(join(root, ".gitignore"), "node_modules/\n");
  execFileSync("git", ["init", "-q"], { cwd: root });
  const config = writeConfig(`
[bridge]
request_timeout_ms = 120000
max_result_bytes = 1048576

[shared]
linger_ms = 0

[[server]]
name = "typescript"
profile = "typescript"

[[workspace]]
name = "fresh"
root = ${JSON.stringify(root)}
servers = ["typescript"]
`);
  return { root, config, write };
}

// tsc never reports tsserver's suggestions (hints), and its positions have no end.
const errors = (items: readonly Finding[]) => startKeys(items.filter((item) => item.severity !== "hint"));

type Compiler = "7.0.2" | "5.9.3";

describe.each([
  ["standalone", "7.0.2"],
  ["shared", "7.0.2"],
  ["standalone", "5.9.3"],
] as const)("diagnostics of a whole project follow every change on disk (%s, TypeScript %s)", (mode, compiler) => {
  const { root, config, write } = project(compiler);
  let bridge: Bridge;
  // A runtime folder of its own: the shared server is this test's, and gone with it.
  const env = { TMPDIR: tempDir("lspmcp-freshness-run-") };
  const agree = async (): Promise<string[]> => {
    const [answer, truth] = await Promise.all([diagnostics(bridge, { path: ".", limit: 1000 }), tscFindings(root, TSC[compiler])]);
    expect(errors(answer.items)).toEqual(startKeys(truth));
    return errors(answer.items);
  };

  beforeAll(async () => {
    bridge = await startBridge(config, env, { shared: mode === "shared" });
  });
  afterAll(async () => {
    await bridge?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("clean at first", async () => {
    expect(await agree()).toEqual([]);
    // The compiler named is the one that answered, and the shared variant ran shared.
    const [session] = (await bridge.ok("session_status")).sessions;
    expect([session.reported_version, session.compiler_source]).toEqual([compiler, compiler === "7.0.2" ? "pinned" : "workspace"]);
    if (mode === "shared") await expectAttached({ config, env }, [bridge]);
  }, 180_000);

  test("a changed non-exported type that an export returns breaks the file that imports it", async () => {
    write("shape.ts", "interface Inner { size: string }\nexport function make(): Inner { return { size: '1' }; }\nexport const base = 10;\n");
    const found = await agree();
    expect(found.some((key) => key.startsWith("src/user.ts"))).toBe(true);
  }, 180_000);

  test("a fix in the file that broke them", async () => {
    write("shape.ts", "interface Inner { size: number }\nexport function make(): Inner { return { size: 1 }; }\nexport const base = 10;\n");
    expect(await agree()).toEqual([]);
  }, 180_000);

  test("an edit that keeps the size and the mtime", async () => {
    const path = join(root, "src", "alone.ts");
    const { mtime, atime } = statSync(path);
    const broken = 'export const alone: number ="";\n';
    expect(broken.length).toBe(statSync(path).size);
    write("alone.ts", broken);
    utimesSync(path, atime, mtime);
    expect((await agree()).some((key) => key.startsWith("src/alone.ts"))).toBe(true);
    write("alone.ts", "export const alone: number = 1;\n");
    utimesSync(path, atime, mtime);
    expect(await agree()).toEqual([]);
  }, 180_000);

  test("two quick edits of the same size within a tick, each asked about", async () => {
    write("alone.ts", "export const alone: number = 2;\n");
    expect(await agree()).toEqual([]);
    write("alone.ts", 'export const alone: number ="";\n');
    expect(await agree()).not.toEqual([]);
    write("alone.ts", "export const alone: number = 1;\n");
    expect(await agree()).toEqual([]);
  }, 180_000);

  test("a created file, and an import that it makes resolve", async () => {
    write("late.ts", 'import { missing } from "./later";\nexport const late: string = missing;\n');
    expect((await agree()).length).toBeGreaterThan(0);
    write("later.ts", "export const missing = 1;\n");
    expect((await agree()).some((key) => key.includes("Type 'number' is not assignable to type 'string'"))).toBe(true);
  }, 180_000);

  test("a deleted file breaks its importers", async () => {
    rmSync(join(root, "src", "later.ts"));
    expect((await agree()).some((key) => key.includes("Cannot find module './later'"))).toBe(true);
    rmSync(join(root, "src", "late.ts"));
    expect(await agree()).toEqual([]);
  }, 180_000);

  test("a module that becomes a script makes its globals visible", async () => {
    write("glob.ts", "export const g = 1;\n");
    write("usesglob.ts", "export const u: number = helperFromScript();\n");
    expect((await agree()).some((key) => key.includes("helperFromScript"))).toBe(true);
    write("glob.ts", "function helperFromScript(): number { return 1; }\n");
    expect(await agree()).toEqual([]);
  }, 180_000);

  // What a change reaches beyond its importers: the warm path re-checks past a file only when
  // what it shows others changed, so each of these must still reach the file two steps away.
  test("a return type that changes reaches, through an inferred export, a file two imports away", async () => {
    write("a.ts", "export function a() { return 1; }\n");
    write("b.ts", 'import { a } from "./a";\nexport const v = a();\n');
    write("c.ts", 'import { v } from "./b";\nexport const n: number = v;\n');
    expect(await agree()).toEqual([]);
    write("a.ts", 'export function a() { return "1"; }\n');
    expect((await agree()).some((key) => key.startsWith("src/c.ts"))).toBe(true);
    write("a.ts", "export function a() { return 1; }\n");
    expect(await agree()).toEqual([]);
  }, 180_000);

  test("a method of an exported class, a name of a multi-line export list, a re-exported constant", async () => {
    write("cls.ts", "export class K {\n  get(): number {\n    return 1;\n  }\n}\n");
    write("usek.ts", 'import { K } from "./cls";\nexport const k: number = new K().get();\n');
    write("ml.ts", "const hidden = 1;\nexport {\n  hidden,\n};\n");
    write("useml.ts", 'import { hidden } from "./ml";\nexport const h: number = hidden;\n');
    write("inner.ts", "export const s = 1;\n");
    write("re.ts", 'export * from "./inner";\n');
    write("usere.ts", 'import { s } from "./re";\nexport const t: number = s;\n');
    expect(await agree()).toEqual([]);
    write("cls.ts", 'export class K {\n  get(): string {\n    return "1";\n  }\n}\n');
    write("ml.ts", 'const hidden = "1";\nexport {\n  hidden,\n};\n');
    write("inner.ts", 'export const s = "1";\n');
    const found = await agree();
    for (const file of ["usek", "useml", "usere"]) expect(found.some((key) => key.startsWith(`src/${file}.ts`))).toBe(true);
    for (const file of ["cls", "usek", "ml", "useml", "inner", "re", "usere"]) rmSync(join(root, "src", `${file}.ts`));
    expect(await agree()).toEqual([]);
  }, 180_000);

  test("an unexported constant appended, and an export appended to a module nothing imports", async () => {
    write(
      "shape.ts",
      "interface Inner { size: number }\nexport function make(): Inner { return { size: 1 }; }\nexport const base = 10;\nconst helper: string = 1;\n",
    );
    expect((await agree()).some((key) => key.startsWith("src/shape.ts"))).toBe(true);
    write("shape.ts", "interface Inner { size: number }\nexport function make(): Inner { return { size: 1 }; }\nexport const base = 10;\n");
    write("alone.ts", 'export const alone: number = 1;\nexport const more: number = "x";\n');
    expect((await agree()).some((key) => key.startsWith("src/alone.ts"))).toBe(true);
    write("alone.ts", "export const alone: number = 1;\n");
    expect(await agree()).toEqual([]);
  }, 180_000);

  test("hover in one file sees a change of a file it imports that no call opened", async () => {
    write("typed.ts", "export function kind(): number { return 1; }\n");
    write("reader.ts", 'import { kind } from "./typed";\nexport const seen = kind();\n');
    const at = { path: "src/reader.ts", line: 2, column: 14 };
    expect(((await bridge.ok("hover", at)) as { contents: string }).contents).toContain("const seen: number");
    write("typed.ts", 'export function kind(): string { return "1"; }\n');
    expect(((await bridge.ok("hover", at)) as { contents: string }).contents).toContain("const seen: string");
  }, 180_000);
});
