import { join } from "node:path";
import type { CachedInstallSource } from "../config/install-schema.js";

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
