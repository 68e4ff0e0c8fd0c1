import { resolveExecutable } from "../config/resolve-executable.js";
import { buildToolchainOf, toolchainVersionCheck } from "../config/install-recipes.js";
import type { CachedInstallSource } from "../config/install-schema.js";
import { ownSearchPath, runOwnCommand } from "../exec/own-command.js";

/** A toolchain an install needs and does not find, and how to get it. */
interface MissingToolchain {
  readonly what: string;
  readonly fix: string;
  /** The older version found, when one is there but too old. */
  readonly found?: string;
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
  const versionCheck = toolchainVersionCheck(source);
  if (versionCheck !== null) {
    const older = versionCheck.older((await runOwnCommand([found.path, ...versionCheck.args], { timeoutMs: 30_000 })).stdout);
    if (older !== null) return { what: toolchain.what, fix: toolchain.fix, found: older };
  }
  return null;
}

async function succeeds(file: string, args: readonly string[]): Promise<boolean> {
  return (await runOwnCommand([file, ...args], { timeoutMs: 30_000 })).status === 0;
}
