import { resolveExecutable } from "../config/resolve-executable.js";
import { buildToolchainOf } from "../config/install-recipes.js";
import type { CachedInstallSource } from "../config/install-schema.js";
import { ownSearchPath, runOwnCommand } from "../exec/own-command.js";

/** A toolchain an install needs and does not find, and how to get it. */
export interface MissingToolchain {
  readonly what: string;
  readonly fix: string;
}

/**
 * What the install of `source` needs and does not find on `searchPath`, or null. Python also
 * needs its venv module's ensurepip, which Debian splits into python3-venv.
 */
export async function missingToolchain(source: CachedInstallSource, searchPath: string): Promise<MissingToolchain | null> {
  const toolchain = buildToolchainOf(source);
  const found = await resolveExecutable(toolchain.executable, "/", ownSearchPath(searchPath));
  if (!found.ok) return { what: toolchain.what, fix: toolchain.fix };
  if (source.from === "pypi" && !(await succeeds(found.path, ["-c", "import ensurepip, venv"]))) {
    return { what: "Python's venv module (ensurepip)", fix: "apt-get install python3-venv" };
  }
  return null;
}

async function succeeds(file: string, args: readonly string[]): Promise<boolean> {
  return (await runOwnCommand([file, ...args], { timeoutMs: 30_000 })).status === 0;
}
