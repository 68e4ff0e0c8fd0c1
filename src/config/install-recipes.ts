import { join } from "node:path";
import type { CachedInstallSource, InstallSource } from "./install-schema.js";

// How each install source of a shipped server (the `from` of its `[install]` table) gets it: the
// commands it runs, the words `lspmcp servers` says them in, and the toolchain it builds with.
// Each source's particulars live here, beside the schema that names it, and nowhere else.

/** One command of an install, run in order; any failure ends the install. */
export interface InstallStep {
  /** What it does, in the words of the command a user would type. */
  readonly label: string;
  readonly argv: readonly [string, ...string[]];
  /** Set over the user's environment (which keeps GOPROXY, PIP_INDEX_URL, npm's and cargo's own config). */
  readonly env: Readonly<Record<string, string>>;
  /** A long build whose own progress is worth showing on a terminal (cargo's). */
  readonly ownProgress: boolean;
}

/**
 * The commands that put `version` of a source's server into `stage`, a fresh folder beside its
 * final place in the tool cache `cache`. Each writes only into `stage`, except the reusable build
 * caches under `{cache}/build/` (Go's module and build caches, cargo's target folder: a later pin
 * rebuilds only what changed), which are safe to share because one install of a server runs at a time.
 */
export function installSteps(source: CachedInstallSource, version: string, stage: string, cache: string): InstallStep[] {
  const build = join(cache, "build");
  switch (source.from) {
    case "go":
      return [
        {
          label: `go install ${source.module}@${version}`,
          argv: ["go", "install", `${source.module}@${version}`],
          // GOTOOLCHAIN=local: build with the machine's Go, never download another one.
          env: {
            GOPATH: join(build, "go"),
            GOBIN: join(stage, "bin"),
            GOMODCACHE: join(build, "go", "mod"),
            GOCACHE: join(build, "go", "cache"),
            GOFLAGS: "-modcacherw",
            GOTOOLCHAIN: "local",
          },
          ownProgress: false,
        },
      ];
    case "pypi":
      return [
        { label: `python3 -m venv`, argv: ["python3", "-m", "venv", stage], env: {}, ownProgress: false },
        {
          label: `pip install ${source.package}==${version}`,
          // pip as a module: the venv's own pip script names the staging folder in its #! line.
          argv: [join(stage, "bin", "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", `${source.package}==${version}`],
          env: {},
          ownProgress: false,
        },
      ];
    case "npm":
      return [
        {
          label: `npm install ${source.package}@${version}`,
          argv: ["npm", "install", "--prefix", stage, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `${source.package}@${version}`],
          env: {},
          ownProgress: false,
        },
      ];
    case "cargo":
      // The crates beside the server build in its target folder: crates of one family (emmylua_ls
      // and emmylua_check) share most of their dependencies' builds there.
      return [{ crate: source.crate, version }, ...(source.with ?? [])].map((crate) => ({
        label: `cargo install --locked ${crate.crate} --version ${crate.version}`,
        argv: ["cargo", "install", "--locked", crate.crate, "--version", crate.version, "--root", stage],
        env: { CARGO_TARGET_DIR: join(build, source.crate) },
        ownProgress: true,
      }));
  }
}

/** How `source` installs, in words: the command and the registry (`lspmcp servers`'s "how"). */
export function installWords(source: InstallSource, version: string): string {
  switch (source.from) {
    case "package":
      return `npm dependency of lspmcp (${source.package})`;
    case "debian":
      return `Debian package ${source.packages.join(", ")}`;
    case "go":
      return `tool cache: go install ${source.module}@${version} (Go module proxy)`;
    case "pypi":
      return `tool cache: pip install ${source.package}==${version} (PyPI, a virtualenv)`;
    case "npm":
      return `tool cache: npm install ${source.package}@${version} (npm registry)`;
    case "cargo":
      return `tool cache: ${[{ crate: source.crate, version: version }, ...(source.with ?? [])].map((crate) => `cargo install --locked ${crate.crate} --version ${crate.version}`).join(", then ")} (crates.io)`;
  }
}

const RUSTUP_FIX = "rustup update stable (without rustup: curl https://sh.rustup.rs -sSf | sh, then open a new shell)";

const BUILD_TOOLCHAINS: Readonly<Record<CachedInstallSource["from"], { readonly executable: string; readonly what: string; readonly fix: string }>> = {
  go: {
    executable: "go",
    what: "Go 1.25 or newer (`go` on PATH)",
    fix: "install Go 1.25 or newer from https://go.dev/dl/ (Debian 12's golang-go is 1.19, too old)",
  },
  cargo: { executable: "cargo", what: "Rust's cargo (`cargo` on PATH)", fix: RUSTUP_FIX },
  pypi: { executable: "python3", what: "Python 3 with venv (`python3` on PATH)", fix: "apt-get install python3 python3-venv" },
  npm: { executable: "npm", what: "npm (`npm` on PATH)", fix: "install Node.js 20.19 or newer (22.13 or newer on 22, or 24) with its npm" },
};

/** The toolchain an install source builds with: its executable, in words, and how to get it. */
export function buildToolchainOf(source: CachedInstallSource): { readonly executable: string; readonly what: string; readonly fix: string } {
  if (source.from === "cargo" && source.rust !== undefined)
    return { executable: "cargo", what: `Rust ${source.rust} or newer (\`cargo\` on PATH)`, fix: RUSTUP_FIX };
  return BUILD_TOOLCHAINS[source.from];
}

/**
 * How to tell that the toolchain found is too old for `source`: the arguments that make it print
 * its version, and what in that output is older than the source needs (the version found, in
 * words), or null when nothing is checked. An older cargo fails a build minutes in, on a crate's
 * rust-version; this says so before it starts.
 */
export function toolchainVersionCheck(
  source: CachedInstallSource,
): { readonly args: readonly string[]; readonly older: (output: string) => string | null } | null {
  if (source.from !== "cargo" || source.rust === undefined) return null;
  const rust = source.rust;
  return {
    args: ["--version"],
    older: (output) => {
      const found = olderRust(output, rust);
      return found === null ? null : `Rust ${found}`;
    },
  };
}

/**
 * Whether `cargo --version`'s output ("cargo 1.94.1 (…)") names a Rust older than `rust` ("1.95"):
 * the version it found, or null when it is new enough or says no version.
 */
export function olderRust(cargoVersionOutput: string, rust: string): string | null {
  const found = /^cargo (\d+)\.(\d+)\.\d+/.exec(cargoVersionOutput.trim());
  if (found === null) return null;
  const [major, minor] = rust.split(".").map(Number) as [number, number];
  const older = Number(found[1]) < major || (Number(found[1]) === major && Number(found[2]) < minor);
  return older ? `${found[1]}.${found[2]}` : null;
}
