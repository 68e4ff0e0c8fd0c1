import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BridgeError } from "../../contract/errors.js";
import { isLspmcpTypescript, lspmcpTypescript, type LspmcpTypescript } from "./lspmcp-typescript.js";
import { checkoutCodeRefusal, isWithin } from "../../config/checkout-code.js";
import { packageRoot } from "../../config/package-root.js";

/** Where the compiler that answers a TypeScript workspace comes from (CONTRACT §3). */
type CompilerSource = "workspace" | "pinned";

/** The TypeScript compiler chosen for one project, before anything is started. */
interface TypescriptCompiler {
  /** Its package.json's version: what the started server must report. */
  readonly version: string;
  readonly source: CompilerSource;
  /** The `typescript` package folder (absolute). */
  readonly packageDir: string;
  /**
   * "native": TypeScript 7's own language server (`tsc --lsp --stdio`); "tsserver": a 5.x or
   * 6.x package, whose tsserver typescript-language-server drives.
   */
  readonly kind: "native" | "tsserver";
}

/**
 * The project's own `typescript` package, found as Node resolves it from the project's folder
 * `from` (`node_modules/typescript` in it or a folder above), up to the checkout's top `top` and
 * no further: a package above the checkout is no compiler the project chose. Null when there is
 * none. A folder with no readable package.json is not a package and is passed over, as Node would
 * pass it over; so is lspmcp's own `typescript` dependency (`lspmcp-typescript.ts`): a hoisting
 * install (npm, yarn) puts it at the top level of a project that installed lspmcp and has no
 * `typescript` of its own.
 */
function findProjectTypescript(from: string, top: string, lspmcp: LspmcpTypescript | null = null): string | null {
  const last = isWithin(from, top) ? top : from;
  for (let dir = from; ; dir = dirname(dir)) {
    const packageDir = join(dir, "node_modules", "typescript");
    if (existsSync(join(packageDir, "package.json")) && (lspmcp === null || !isLspmcpTypescript(dir, from, lspmcp))) return packageDir;
    if (dir === last || dirname(dir) === dir) return null;
  }
}

/** The compiler that answers a project, or the project's own that may not run and why (its files are then not checked). */
export type CompilerChoice = { readonly compiler: TypescriptCompiler } | { readonly refused: string; readonly packageDir: string };

/**
 * The compiler that answers the project whose folder is `from`, in the checkout whose top is
 * `top`: the project's own installation when it has one, else the pinned package
 * (`pinnedPackageDir`). The project's own runs only when the checkout holds it
 * (`checkoutCodeRefusal` of each file that would run); otherwise the choice is the refusal, never
 * another compiler. A project package that cannot answer (no version, a major lspmcp cannot
 * drive, a missing tsserver or native binary) is `ServerStartFailed` naming its path and what was
 * found there — never a fall back to another compiler, which would answer with other rules than
 * the project's own `tsc`. `lspmcpRoot` is the lspmcp package whose own `typescript` dependency
 * is not the project's. In restricted mode (`restricted`: the reason for a package found) the
 * project's own is refused before anything of it is read, and the pinned one answers only the
 * projects that have none.
 */
export function chooseTypescriptCompiler(
  from: string,
  top: string,
  pinnedPackageDir: string,
  lspmcpRoot: string = packageRoot(),
  restricted: ((own: string) => string) | null = null,
): CompilerChoice {
  const own = findProjectTypescript(from, top, lspmcpTypescript(lspmcpRoot));
  if (own === null) return { compiler: describeTypescriptPackage(pinnedPackageDir, "pinned") };
  if (restricted !== null) return { refused: restricted(own), packageDir: own };
  const compiler = describeTypescriptPackage(own, "workspace");
  const refused = checkoutRefusal(compiler, top);
  return refused === null ? { compiler } : { refused, packageDir: own };
}

/**
 * Why the checkout does not hold `compiler` (a project's own, found at or below `top`): the first
 * of the files its session would run (`checkoutCodeRefusal`) that it may not, as a reason; null
 * when it holds them all.
 */
function checkoutRefusal(compiler: TypescriptCompiler, top: string): string | null {
  for (const file of filesThatRun(compiler)) {
    const refusal = checkoutCodeRefusal(file, top);
    if (refusal !== null) return `lspmcp runs only a compiler the checkout holds, and ${refusal}`;
  }
  return null;
}

/** The files a compiler's session runs: TypeScript 7's native binary, or the scripts of a 5.x or 6.x package's lib folder. */
function filesThatRun(compiler: TypescriptCompiler): string[] {
  if (compiler.kind === "native") return [nativeCompilerExecutable(compiler)];
  const lib = join(compiler.packageDir, "lib");
  return readdirSync(lib)
    .filter((name) => name.endsWith(".js"))
    .sort()
    .map((name) => join(lib, name));
}

/** The compiler of the `typescript` package at `packageDir`, or `ServerStartFailed` saying why it cannot answer. */
export function describeTypescriptPackage(packageDir: string, source: CompilerSource): TypescriptCompiler {
  const version = packageVersion(packageDir);
  const major = Number(version.split(".")[0]);
  if (major >= 7) return { version, source, packageDir, kind: "native" };
  if (major === 5 || major === 6) {
    const tsserver = join(packageDir, "lib", "tsserver.js");
    if (!existsSync(tsserver)) throw unusable(packageDir, version, `no lib/tsserver.js (a ${major}.x package ships one; is the install complete?)`);
    return { version, source, packageDir, kind: "tsserver" };
  }
  throw unusable(packageDir, version, "lspmcp answers with TypeScript 5, 6 or 7 (typescript-language-server 5.3.0 drives 5.x and 6.x)");
}

/**
 * The package folder of the pinned compiler, whose `bin/tsc` is the profile's `command` (links
 * followed: `node_modules/.bin/tsc` names the same package).
 */
export function pinnedTypescriptPackage(command: string): string {
  let real = command;
  try {
    real = realpathSync(command);
  } catch {
    // A command that is gone is the start's to report; the path as given names the package.
  }
  return dirname(dirname(real));
}

/** The native compiler binary of a TypeScript 7 package, as its own `bin/tsc` launcher finds it. */
export function nativeCompilerExecutable(compiler: TypescriptCompiler): string {
  const platformPackage = `@typescript/typescript-${process.platform}-${process.arch}`;
  let manifest: string;
  try {
    // From its real folder, as Node runs its launcher: pnpm puts the platform package beside the
    // store's copy, not beside the link in the project's node_modules.
    manifest = createRequire(join(realpathSync(compiler.packageDir), "package.json")).resolve(`${platformPackage}/package.json`);
  } catch {
    throw unusable(compiler.packageDir, compiler.version, `its native compiler ${platformPackage} is not installed beside it`);
  }
  const executable = join(dirname(manifest), "lib", "tsc");
  if (!existsSync(executable)) throw unusable(compiler.packageDir, compiler.version, `${executable} is missing`);
  return executable;
}

/** The tsserver.js of a TypeScript 5.x or 6.x package. */
export function tsserverPath(compiler: TypescriptCompiler): string {
  return join(compiler.packageDir, "lib", "tsserver.js");
}

function packageVersion(packageDir: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  } catch (error) {
    throw unusable(packageDir, null, `its package.json cannot be read (${(error as Error).message})`);
  }
  const version = (parsed as { version?: unknown } | null)?.version;
  if (typeof version !== "string" || !/^\d+\.\d+\.\d+/.test(version)) throw unusable(packageDir, null, "its package.json has no version");
  return version;
}

function unusable(packageDir: string, version: string | null, why: string): BridgeError {
  const what = version === null ? "the TypeScript package" : `TypeScript ${version}`;
  return new BridgeError("ServerStartFailed", `${what} at ${packageDir} cannot answer: ${why}`, {
    compiler_path: packageDir,
    compiler_version: version,
    reason: why,
  });
}
