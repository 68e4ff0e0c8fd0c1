import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A TypeScript project generated in a temp dir, and what its files hold. */
export interface GeneratedTsWorkspace {
  readonly root: string;
  /** Every .ts file, relative to the root, sorted. */
  readonly files: readonly string[];
  /** The files with a type error (TS2322), relative to the root, sorted. */
  readonly errorFiles: readonly string[];
}

/**
 * `count` TypeScript files under `src/`, `lib` of them in the sub-folder `src/lib/`: every
 * seventh has a type error (TS2322), the others an unused local (a hint). `src/lib/api.ts`
 * exports `greet(name)` and `src/app.ts` calls it, for cross-file changes. `docs/` holds a file
 * no server claims. No git checkout: discovery walks the tree.
 */
export function generateTsWorkspace(count: number, lib: number): GeneratedTsWorkspace {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-generated-"));
  const files: string[] = [];
  const errorFiles: string[] = [];
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    files.push(path);
  };
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "docs", "README.md"), "# not code\n");
  write("src/lib/api.ts", 'export function greet(name: string): string {\n  return "hello " + name;\n}\n');
  write("src/app.ts", 'import { greet } from "./lib/api";\n\nexport const message: string = greet("world");\n');
  let inLib = 1;
  for (let i = 0; files.length < count; i++) {
    const path = inLib++ < lib ? `src/lib/m${i}.ts` : `src/m${i}.ts`;
    if (i % 7 === 0) {
      write(path, `export const bad${i}: number = "not a number";\n`);
      errorFiles.push(path);
    } else {
      write(path, `export function f${i}(a: number): number {\n  const unused${i} = a;\n  return a * ${i};\n}\n`);
    }
  }
  return { root, files: files.sort(), errorFiles: errorFiles.sort() };
}

/** A bridge.toml serving `root` with the shipped profile of `profile` (typescript, pyright). */
export function profileConfig(root: string, profile: string, bridge = ""): string {
  return `[bridge]\nmax_result_bytes = 2000000\nrequest_timeout_ms = 120000\n${bridge}\n[[server]]\nname = "${profile}"\nprofile = "${profile}"\n\n[[workspace]]\nname = "gen"\nroot = ${JSON.stringify(root)}\nservers = ["${profile}"]\n`;
}

/**
 * `files` TypeScript files under `src/`, each with `errorsPerFile` type errors (TS2322) and
 * nothing else: a large report from little work for the server (one check, many findings).
 */
export function generateNoisyTsWorkspace(files: number, errorsPerFile: number): GeneratedTsWorkspace {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-noisy-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  const paths: string[] = [];
  for (let file = 0; file < files; file++) {
    const lines = Array.from({ length: errorsPerFile }, (_, i) => `export const v${i}: number = "not a number ${i}";\n`);
    const path = `src/noisy${String(file).padStart(3, "0")}.ts`;
    writeFileSync(join(root, path), lines.join(""));
    paths.push(path);
  }
  return { root, files: paths, errorFiles: paths };
}
