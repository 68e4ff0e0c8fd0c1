import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import { loadConfig, type LoadOptions } from "../../../src/config/load-config.js";
import type { ConfigProblem } from "../../../src/config/problems.js";

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temp folder, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lspmcp-config-"));
  made.push(dir);
  return dir;
}

/** Writes `files` (path relative to `dir` → text) and returns `dir`. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** A tiny executable shell script at `dir/path` that prints a version. */
export async function fakeExecutable(dir: string, path: string, mode = 0o755): Promise<string> {
  const file = join(dir, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, "#!/bin/sh\necho 1.0.0\n");
  await chmod(file, mode);
  return file;
}

/** Loads `dir/bridge.toml`, expecting ConfigInvalid, and returns its problems. */
export async function problemsOf(dir: string, options: LoadOptions = {}): Promise<ConfigProblem[]> {
  const error = await loadConfig(join(dir, "bridge.toml"), options).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof BridgeError) || error.code !== "ConfigInvalid") {
    throw new Error(`expected ConfigInvalid, got ${String(error)}`);
  }
  return error.details.problems as ConfigProblem[];
}

/** The key paths of `problems`, in order. */
export function pathsOf(problems: readonly ConfigProblem[]): string[] {
  return problems.map((problem) => problem.path);
}

/** A valid server table using the fake executable `bin/ls1`, for tests that break something else. */
export function serverToml(name: string, extensions: string[] = [".x"]): string {
  const list = extensions.map((extension) => JSON.stringify(extension)).join(", ");
  return `[[server]]\nname = "${name}"\ncommand = "bin/ls1"\nversion = "1.0.0"\nlanguages = [{ id = "${name}", extensions = [${list}] }]\n`;
}

/** A workspace table serving the server "one" of {@link serverToml}. */
export const WORKSPACE_OF_ONE = `[[workspace]]\nname = "ws"\nroot = "."\nservers = ["one"]\n`;

/** A folder with `bin/ls1` and a bridge.toml of `toml`. */
export async function configDir(toml: string): Promise<string> {
  const dir = await tempDir();
  await fakeExecutable(dir, "bin/ls1");
  return writeFiles(dir, { "bridge.toml": toml });
}
