import { resolveExecutable } from "../config/resolve-executable.js";
import type { CachedInstallSource } from "../config/install-schema.js";
import { ownSearchPath, runOwnCommand } from "../exec/own-command.js";

/** A toolchain an install needs and does not find, and how to get it. */
export interface MissingToolchain {
  readonly what: string;
  readonly fix: string;
}

const TOOLCHAINS: Readonly<Record<CachedInstallSource["from"], { readonly executable: string; readonly what: string; readonly fix: string }>> = {
  go: {
    executable: "go",
    what: "Go 1.25 or newer (`go` on PATH)",
    fix: "install Go 1.25 or newer from https://go.dev/dl/ (Debian 12's golang-go is 1.19, too old)",
  },
  cargo: { executable: "cargo", what: "Rust's cargo (`cargo` on PATH)", fix: "curl https://sh.rustup.rs -sSf | sh (rustup), then open a new shell" },
  pypi: { executable: "python3", what: "Python 3 with venv (`python3` on PATH)", fix: "apt-get install python3 python3-venv" },
  npm: { executable: "npm", what: "npm (`npm` on PATH)", fix: "install Node.js 20 or newer with its npm" },
};

/**
 * What the install of `source` needs and does not find on `searchPath`, or null. Python also
 * needs its venv module's ensurepip, which Debian splits into python3-venv.
 */
export async function missingToolchain(source: CachedInstallSource, searchPath: string): Promise<MissingToolchain | null> {
  const toolchain = TOOLCHAINS[source.from];
  const found = await resolveExecutable(toolchain.executable, "/", ownSearchPath(searchPath));
  if (!found.ok) return { what: toolchain.what, fix: toolchain.fix };
  if (source.from === "pypi" && !(await succeeds(found.path, ["-c", "import ensurepip, venv"]))) {
    return { what: "Python's venv module (ensurepip)", fix: "apt-get install python3-venv" };
  }
  return null;
}

/** The toolchain an install source builds with: its executable, and in words (`lspmcp servers`'s "needs"). */
export function toolchainOf(source: CachedInstallSource): { readonly executable: string; readonly what: string } {
  return TOOLCHAINS[source.from];
}

async function succeeds(file: string, args: readonly string[]): Promise<boolean> {
  return (await runOwnCommand([file, ...args], { timeoutMs: 30_000 })).status === 0;
}
