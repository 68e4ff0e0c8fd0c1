// lspmcp as a JavaScript project's CI gate installs it: `npm pack`, then `npm i -D` of the tarball
// into the project, then `npx lspmcp check` there. npm hoists lspmcp's dependencies into the
// project's node_modules; they must be found there, and the project's own TypeScript must answer:
// the same findings as its own `tsc`. The same with pnpm, whose store keeps every package apart,
// and with Yarn 1, which hoists as npm does.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startKeys, tscFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { cachedTool } from "../helpers/tool-cache.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";

const version = (dir: string) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;

let work: string;
let tarball: string;
const projects: TempRepo[] = [];

/** The sources of a small TypeScript project: a type error, an implicit any, an import across files. */
const SOURCES = {
  ".gitignore": "node_modules/\n",
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext" }, include: ["src"] }),
  "src/count.ts": 'export const count: number = "not a number";\nexport function twice(value) {\n  return value * 2;\n}\n',
  "src/main.ts": 'import { twice } from "./count.js";\nconst label: string = twice(2);\nconsole.log(label);\n',
  "settings.json": '{ "name": "proj", }\n',
};

/**
 * The package managers, pinned in tests/tools/package.json and installed there by scripts/setup.sh
 * before the first test file: pnpm 10.34.9 (the last line that runs on Node 20) and Yarn 1.22.22
 * ("classic": the node_modules layout, hoisted as npm does).
 */
const TOOLS = join(REPO, "tests/tools/node_modules");
const PNPM = version(join(TOOLS, "pnpm"));
const YARN = version(join(TOOLS, "yarn"));
/**
 * pnpm's store and Yarn's cache, in the tool cache: filled from the registry by the first run on a
 * machine, kept for the next, and empty again in a fresh-machine run (`npm run test:fresh`).
 */
const STORES = cachedTool("npm-test-stores");

/**
 * A project's install, as a project's CI runs it: the registry's ~470 packages for pnpm and Yarn
 * while their stores are empty, on a 2-core machine that builds four servers from source beside
 * the tests. It runs in a `beforeAll`, apart from the tests' own clock.
 */
const INSTALL_TIMEOUT = 900_000;
/** `npm pack`, or one test's `tsc` and two or three `npx lspmcp` runs in an installed project, on that loaded machine. */
const CHECK_TIMEOUT = 300_000;
/** The removal of an installed project, on that loaded machine: more than 5 minutes for four at once was seen. */
const REMOVE_TIMEOUT = 600_000;

/**
 * A git repository of SOURCES after `npm i -D` (or `pnpm add -D`, `yarn add --dev`) of `install`,
 * committed. npm takes the packages from its cache, filled by `npm ci` (--prefer-offline); pnpm
 * and Yarn from their own in the tool cache (STORES).
 */
function installedProject(manager: "npm" | "pnpm" | "yarn", install: string[]): TempRepo {
  const project = tempRepo({ ...SOURCES, "package.json": JSON.stringify({ name: "proj", version: "1.0.0", private: true }) });
  projects.push(project);
  const bin = (name: string) => {
    const path = join(TOOLS, ".bin", name);
    if (!existsSync(path)) throw new Error(`${path} is not installed; run scripts/setup.sh (npm test does)`);
    return path;
  };
  const args = {
    npm: ["npm", "install", "--save-dev", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error", ...install],
    pnpm: [bin("pnpm"), "add", "--save-dev", "--prefer-offline", "--reporter", "silent", "--store-dir", join(STORES, "pnpm"), ...install],
    // Yarn 1 holds every package to its `engines`, and yaml-language-server 2.0.0 names Node 22.13.
    yarn: [
      bin("yarn"),
      "add",
      "--dev",
      "--prefer-offline",
      "--non-interactive",
      "--silent",
      "--ignore-engines",
      "--cache-folder",
      join(STORES, "yarn"),
      ...install,
    ],
  }[manager];
  execFileSync(args[0]!, args.slice(1), { cwd: project.root, stdio: ["ignore", "ignore", "pipe"], timeout: INSTALL_TIMEOUT });
  execFileSync("git", ["add", "-A"], { cwd: project.root });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "lspmcp as a devDependency"], { cwd: project.root });
  return project;
}

/** `npx lspmcp ARGS` in the project, as its CI runs it. */
function npxLspmcp(project: TempRepo, args: string[]) {
  return spawnSync("npx", ["--no", "lspmcp", ...args], { cwd: project.root, encoding: "utf8", timeout: 300_000, env: { ...process.env, TMPDIR: work } });
}

interface Report {
  items: (Finding & { server: string })[];
  summary: { runs: { server: string; compiler: { version: string; source: string } | null }[] };
}

/** `npx lspmcp check --format json` in the project: its exit status, report and stderr. */
function check(project: TempRepo, args: string[] = []): { status: number | null; report: Report | null; stderr: string } {
  const run = npxLspmcp(project, ["check", "--format", "json", ...args]);
  return { status: run.status, report: run.stdout.trim() === "" ? null : (JSON.parse(run.stdout) as Report), stderr: run.stderr };
}

beforeAll(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), "lspmcp-devdep-")));
  // dist/ is built before the tests run; --ignore-scripts skips prepack's second build.
  const name = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work, REPO], { cwd: work, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  tarball = join(work, name);
}, CHECK_TIMEOUT);
afterAll(async () => {
  // Each describe removes its own project; what an install that failed left behind goes here.
  await Promise.all([...projects].map(removeProject));
  if (work) await rm(work, { recursive: true, force: true });
}, REMOVE_TIMEOUT);

/**
 * Removes a project and its node_modules (about 470 packages; tens of thousands of files), without
 * blocking the test worker: on a busy 2-core machine that takes minutes.
 */
async function removeProject(project: TempRepo): Promise<void> {
  projects.splice(projects.indexOf(project), 1);
  await rm(project.root, { recursive: true, force: true });
}

/** `check` equals the project's own `tsc`: the same findings and exit meaning, `compiler` answering; the JSON server answers too. */
async function expectCheckEqualsTsc(project: TempRepo, tscPath: string, compiler: { version: string; source: string }): Promise<void> {
  const tsc = await tscFindings(project.root, tscPath);
  expect(tsc.length).toBeGreaterThanOrEqual(3);
  const { status, report, stderr } = check(project);
  expect(stderr).not.toContain("left out typescript");
  expect(stderr).not.toContain("left out json");
  // tsc's "errors found" is check's "findings at or above --fail-on" (1).
  expect(status, stderr).toBe(1);
  expect(report!.summary.runs.filter((run) => run.server === "typescript")).toHaveLength(1);
  expect(report!.summary.runs.find((run) => run.server === "typescript")?.compiler).toMatchObject(compiler);
  expect(startKeys(report!.items.filter((item) => item.server === "typescript"))).toEqual(startKeys(tsc));
  // A trailing comma in settings.json.
  expect(report!.items.filter((item) => item.server === "json").map((item) => item.path)).toEqual(["settings.json"]);
}

/** Biome's wrapper answers, and `lspmcp servers` lists every npm-shipped server as installed inside the project's node_modules. */
function expectNpmShippedServersFound(project: TempRepo): void {
  const config = join(work, `biome-${projects.indexOf(project)}.toml`);
  writeFileSync(
    config,
    ["[[server]]", 'name = "biome"', 'profile = "biome"', "[[workspace]]", 'name = "w"', `root = "${project.root}"`, 'servers = ["biome"]'].join("\n"),
  );
  const { status, report, stderr } = check(project, ["--config", config, "settings.json"]);
  expect(status, stderr).toBe(1);
  expect(report!.items.map((item) => [item.server, item.path])).toEqual([["biome", "settings.json"]]);
  const listed = JSON.parse(npxLspmcp(project, ["servers", "--format", "json"]).stdout) as {
    servers: { name: string; installed: boolean; from: string; where: string | null }[];
  };
  const shipped = listed.servers.filter((server) => server.from === "package");
  expect(shipped.map((server) => server.name)).toEqual(expect.arrayContaining(["typescript", "json", "biome", "yaml", "css", "html", "pyright", "bash"]));
  for (const server of shipped) {
    expect(server, server.name).toMatchObject({ installed: true, where: expect.stringContaining(join(project.root, "node_modules")) });
  }
}

describe("npm i -D lspmcp into a project with its own TypeScript 6.0.3", () => {
  let project: TempRepo;
  beforeAll(() => {
    project = installedProject("npm", ["typescript@6.0.3", tarball]);
  }, INSTALL_TIMEOUT);
  afterAll(async () => project && (await removeProject(project)), REMOVE_TIMEOUT);

  test("npm hoisted lspmcp's dependencies into the project's node_modules; lspmcp's own typescript 5.9.3 nests under it", () => {
    const modules = join(project.root, "node_modules");
    for (const name of ["typescript-7", "vscode-langservers-extracted", "@biomejs/biome", "typescript-language-server"]) {
      expect([name, existsSync(join(modules, name, "package.json")), existsSync(join(modules, "lspmcp/node_modules", name))]).toEqual([name, true, false]);
    }
    expect(version(join(modules, "typescript"))).toBe("6.0.3");
    expect(version(join(modules, "lspmcp/node_modules/typescript"))).toBe("5.9.3");
  });

  test(
    "npx lspmcp check equals the project's own tsc: the same findings, the same exit meaning, TypeScript 6.0.3 answering",
    async () => {
      await expectCheckEqualsTsc(project, join(project.root, "node_modules/.bin/tsc"), { version: "6.0.3", source: "workspace" });
    },
    CHECK_TIMEOUT,
  );

  test(
    "Biome's wrapper finds Biome where npm put it, and every npm-shipped server is found",
    () => {
      expectNpmShippedServersFound(project);
    },
    CHECK_TIMEOUT,
  );
});

describe("npm i -D lspmcp into a project with no TypeScript of its own", () => {
  let project: TempRepo;
  beforeAll(() => {
    project = installedProject("npm", [tarball]);
  }, INSTALL_TIMEOUT);
  afterAll(async () => project && (await removeProject(project)), REMOVE_TIMEOUT);

  test(
    "lspmcp's own typescript 5.9.3, hoisted to the project's top level, is not taken for the project's: the pinned 7.0.2 answers, as its tsc",
    async () => {
      const modules = join(project.root, "node_modules");
      expect(version(join(modules, "typescript"))).toBe("5.9.3");
      await expectCheckEqualsTsc(project, join(modules, "typescript-7/bin/tsc"), { version: version(join(modules, "typescript-7")), source: "pinned" });
    },
    CHECK_TIMEOUT,
  );
});

describe(`pnpm add -D lspmcp (pnpm ${PNPM}) into a project with its own TypeScript 6.0.3`, () => {
  let project: TempRepo;
  beforeAll(() => {
    project = installedProject("pnpm", ["typescript@6.0.3", tarball]);
  }, INSTALL_TIMEOUT);
  afterAll(async () => project && (await removeProject(project)), REMOVE_TIMEOUT);

  test(
    "lspmcp's dependencies are found in pnpm's store through its links; npx lspmcp check equals the project's tsc",
    async () => {
      const modules = join(project.root, "node_modules");
      // Only what the project named is at its top level; lspmcp itself is a link into the store.
      expect(readdirSync(modules).filter((name) => !name.startsWith("."))).toEqual(["lspmcp", "typescript"]);
      expect(realpathSync(join(modules, "lspmcp"))).toContain(join(modules, ".pnpm"));
      await expectCheckEqualsTsc(project, join(modules, ".bin/tsc"), { version: "6.0.3", source: "workspace" });
      expectNpmShippedServersFound(project);
    },
    CHECK_TIMEOUT,
  );
});

describe(`yarn add --dev lspmcp (Yarn ${YARN}, its node_modules layout) into a project with its own TypeScript 6.0.3`, () => {
  let project: TempRepo;
  beforeAll(() => {
    project = installedProject("yarn", ["typescript@6.0.3", `file:${tarball}`]);
  }, INSTALL_TIMEOUT);
  afterAll(async () => project && (await removeProject(project)), REMOVE_TIMEOUT);

  test(
    "lspmcp's dependencies are found where Yarn hoisted them; npx lspmcp check equals the project's tsc",
    async () => {
      const modules = join(project.root, "node_modules");
      expect(existsSync(join(modules, "typescript-7/package.json"))).toBe(true);
      expect(existsSync(join(modules, "lspmcp/node_modules/typescript-7"))).toBe(false);
      await expectCheckEqualsTsc(project, join(modules, ".bin/tsc"), { version: "6.0.3", source: "workspace" });
      expectNpmShippedServersFound(project);
    },
    CHECK_TIMEOUT,
  );
});
