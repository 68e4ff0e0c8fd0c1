// lspmcp as a user gets it: `npm pack`, `npm install -g` into a temp prefix, then the installed
// `lspmcp` with no config in a temp repo. It must find its own pinned servers (its dependencies),
// its profiles and the Maude server inside the install, not in this checkout.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { polyglotRepo } from "../helpers/polyglot-repo.js";
import { waitForExit } from "../helpers/proc.js";
import { requireBinary } from "../helpers/require-binary.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { BROKEN_TS, fixtureRepo, tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { cacheEnv } from "../helpers/tool-cache.js";

let work: string;
let bin: string;
let installed: string;
let repo: TempRepo;
let bridge: Bridge | undefined;

beforeAll(async () => {
  requireBinary("maude");
  work = realpathSync(mkdtempSync(join(tmpdir(), "lspmcp-pack-")));
  // dist/ is built before the tests run; --ignore-scripts skips prepack's second build.
  const tarball = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work, REPO], { cwd: work, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  // --prefer-offline: the dependencies come from npm's cache, filled by `npm ci`, when they are there.
  execFileSync(
    "npm",
    ["install", "-g", "--prefix", join(work, "prefix"), "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error", join(work, tarball)],
    { cwd: work, stdio: "ignore" },
  );
  bin = join(work, "prefix", "bin", "lspmcp");
  installed = join(work, "prefix", "lib", "node_modules", "lspmcp");
  repo = tempRepo({ "src/app.ts": BROKEN_TS, "spec/broken.maude": readFileSync(join(REPO, "tests/fixtures/maude/recoverable.maude"), "utf8") });
}, 300_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
  for (const fixture of Object.values(fixtures)) fixture.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed and installed lspmcp", () => {
  test("--version prints the package version", () => {
    const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    expect(execFileSync(bin, ["--version"], { encoding: "utf8" })).toBe(`lspmcp ${manifest.version}\n`);
  });

  test("serve with no config answers from its own pinned servers and its own Maude server", { timeout: 300_000 }, async () => {
    bridge = await startBridge(null, { TMPDIR: work }, { bin, cwd: join(repo.root, "src") });
    const ts = await bridge!.ok("diagnostics", { path: "src/app.ts" });
    expect(ts.items).toEqual([expect.objectContaining({ code: "2322", severity: "error" })]);
    const maude = await bridge!.ok("diagnostics", { path: "spec/broken.maude" });
    expect(maude.items).toEqual([
      expect.objectContaining({ severity: "warning", range: expect.objectContaining({ start: expect.objectContaining({ line: 6 }) }) }),
    ]);
    const { sessions } = await bridge.ok("session_status");
    expect(sessions.map((session: any) => [session.server, session.reported_version])).toEqual([
      // The pinned compiler answers a repo without a TypeScript of its own.
      ["typescript", /^version = "(.*)"$/m.exec(readFileSync(join(REPO, "servers/typescript.toml"), "utf8"))![1]],
      ["maude", "0.1.0"],
    ]);
    // Each server runs from inside the install, not from this checkout.
    for (const session of sessions) {
      const argv = readFileSync(`/proc/${session.pid}/cmdline`, "utf8").split("\0").join(" ");
      expect(argv, session.server).toContain(installed);
    }
    expect(repo.status()).toBe("");
  });
});

describe('registered as { "command": "lspmcp" }', () => {
  test("the installed lspmcp, found on PATH and started with no arguments, serves a polyglot repository in the default shared mode", {
    timeout: 300_000,
  }, async () => {
    const polyglot = polyglotRepo();
    const runtime = join(work, `lspmcp-${process.getuid!()}`);
    try {
      // As an MCP client spawns it: the command name alone, PATH holding the global install's bin.
      const registered = await startBridge(
        null,
        { PATH: `${dirname(bin)}:${process.env.PATH}`, TMPDIR: work, ...cacheEnv() },
        { bare: true, bin: "lspmcp", cwd: polyglot.root },
      );
      let shared: number;
      try {
        const answer = await registered.ok("diagnostics", { path: ".", limit: 1000 });
        expect(answer.files).toBe(18);
        expect(new Set(answer.items.map((item: { source: string }) => item.source))).toEqual(
          new Set(["Pyright", "Ruff", "assign", "compiler", "json", "printf", "rust-analyzer", "rustc", "ts"]),
        );
        const { sessions } = await registered.ok("session_status");
        expect(sessions.map((session: { server: string }) => session.server)).toEqual(["typescript", "pyright", "gopls", "json", "rust-analyzer", "ruff"]);
        // Shared: a lease names the shared server, which runs from the install, as do the package's own servers.
        const lease = readdirSync(runtime).find((name) => name.endsWith(".lease"));
        expect(lease).toBeDefined();
        shared = (JSON.parse(readFileSync(join(runtime, lease!), "utf8")) as { pid: number }).pid;
        expect(readFileSync(`/proc/${shared}/cmdline`, "utf8")).toContain(installed);
        await expectAttached({ config: null, cwd: polyglot.root, env: { PATH: `${dirname(bin)}:${process.env.PATH}`, TMPDIR: work } }, [registered]);
        // Six servers and max_sessions 4: each of the package's own is asked last before it is looked at, so it is live.
        for (const [server, path] of [
          ["typescript", "web/src/price.ts"],
          ["pyright", "py/cafe/kettle.py"],
          ["json", "web/settings.json"],
        ] as const) {
          await registered.ok("diagnostics", { path });
          const live = (await registered.ok("session_status")).sessions.find((entry: { server: string }) => entry.server === server);
          expect(live?.pid, server).toBeTypeOf("number");
          expect(readFileSync(`/proc/${live.pid}/cmdline`, "utf8").split("\0").join(" "), server).toContain(installed);
        }
      } finally {
        await registered.close();
      }
      expect(await waitForExit(shared, 20_000)).toBe(true);
      expect(polyglot.status()).toBe("");
    } finally {
      polyglot.remove();
    }
  });
});

/**
 * For every shipped profile, a file it claims in a fixture workspace: one `diagnostics` call per
 * profile installed here proves that the package holds all it needs (its wrappers included).
 */
const PROBES: Record<string, { fixture: string; file: string }> = {
  typescript: { fixture: "langs", file: "lint.ts" },
  biome: { fixture: "langs", file: "lint.ts" },
  pyright: { fixture: "langs", file: "inventory_lint.py" },
  basedpyright: { fixture: "langs", file: "inventory_lint.py" },
  pylsp: { fixture: "langs", file: "inventory_lint.py" },
  ty: { fixture: "python-lint", file: "cafe/orders.py" },
  pyrefly: { fixture: "python-lint", file: "cafe/orders.py" },
  ruff: { fixture: "python-lint", file: "cafe/orders.py" },
  clangd: { fixture: "langs", file: "cafe.c" },
  ccls: { fixture: "langs", file: "cafe.c" },
  fortls: { fixture: "langs", file: "cafe.f90" },
  json: { fixture: "langs", file: "settings.json" },
  yaml: { fixture: "langs", file: "config.yaml" },
  css: { fixture: "langs", file: "styles.css" },
  html: { fixture: "langs", file: "page.html" },
  dockerfile: { fixture: "langs", file: "Dockerfile" },
  svelte: { fixture: "langs", file: "Widget.svelte" },
  graphql: { fixture: "langs", file: "menu.graphql" },
  gopls: { fixture: "golang", file: "brew/brew.go" },
  "rust-analyzer": { fixture: "rust-crate", file: "cafe/src/lib.rs" },
  "bacon-ls": { fixture: "rust-crate", file: "cafe/src/lib.rs" },
  emmylua: { fixture: "lua", file: "cafe/orders.lua" },
  bash: { fixture: "scripts", file: "build.sh" },
  maude: { fixture: "scripts", file: "spec/broken.maude" },
};
const fixtures: Record<string, TempRepo> = {};

function fixture(name: string): TempRepo {
  fixtures[name] ??=
    name === "scripts"
      ? tempRepo({ "build.sh": 'echo "$1"\n', "spec/broken.maude": readFileSync(join(REPO, "tests/fixtures/maude/recoverable.maude"), "utf8") })
      : fixtureRepo(name);
  return fixtures[name];
}

describe("every shipped profile from the package", () => {
  test("init's config for a many-language repo validates", () => {
    const langs = fixture("langs");
    const init = spawnSync(bin, ["init"], { cwd: langs.root, encoding: "utf8" });
    expect(init.status, init.stderr).toBe(0);
    const validate = spawnSync(bin, ["validate", "--config", "bridge.toml"], { cwd: langs.root, encoding: "utf8" });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/^OK /);
    rmSync(join(langs.root, "bridge.toml"));
  });

  test("servers lists every profile; each the package brings is installed inside it", () => {
    const listed = JSON.parse(execFileSync(bin, ["servers", "--format", "json"], { encoding: "utf8" })) as {
      servers: { name: string; installed: boolean; from: string; where: string | null }[];
    };
    expect(listed.servers.map((server) => server.name).sort()).toEqual(Object.keys(PROBES).sort());
    for (const server of listed.servers.filter((entry) => entry.from === "package")) {
      expect(server, server.name).toMatchObject({ installed: true, where: expect.stringContaining(installed) });
    }
  });

  test("servers install runs from the package: rust-analyzer through a (fake) cargo into a tool cache of its own", () => {
    const home = mkdtempSync(join(work, "cache-"));
    const env = { ...process.env, PATH: `${join(REPO, "tests/fixtures/toolchains")}:/usr/bin:/bin`, XDG_CACHE_HOME: home };
    // Run outside this repository: the fake cargo lies inside it, and lspmcp keeps its own
    // commands off the checkout it runs in.
    const install = spawnSync(bin, ["servers", "install", "rust-analyzer"], { cwd: work, env, encoding: "utf8" });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toContain(`rust-analyzer 0.0.348: installed into ${join(home, "lspmcp/rust-analyzer")}`);
  });

  test("servers install runs from the package: ruff for real from PyPI into a tool cache of its own, then serves", { timeout: 300_000 }, async () => {
    const home = mkdtempSync(join(work, "cache-"));
    const env = { ...process.env, XDG_CACHE_HOME: home };
    const pin = /^version = "(.*)"$/m.exec(readFileSync(join(installed, "servers/ruff.toml"), "utf8"))![1];
    const install = spawnSync(bin, ["servers", "install", "ruff"], { env, encoding: "utf8" });
    expect(install.status, install.stderr).toBe(0);
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const done = `${literal(`ruff ${pin}: installed into ${join(home, "lspmcp/ruff")}`)} in [0-9:]+ ${literal(`(verified: ruff ${pin})`)}`;
    expect(install.stderr).toMatch(new RegExp(`^${done}$`, "m"));
    const listed = JSON.parse(execFileSync(bin, ["servers", "--format", "json"], { env, encoding: "utf8" })) as {
      servers: { name: string; installed: boolean; where: string | null }[];
    };
    expect(listed.servers.find((server) => server.name === "ruff")).toMatchObject({ installed: true, where: join(home, "lspmcp/ruff") });
    // The installed lspmcp serves the ruff it installed: its findings in the lint fixture.
    const config = join(work, "ruff-installed.toml");
    writeFileSync(
      config,
      ["[[server]]", 'name = "ruff"', 'profile = "ruff"', "[[workspace]]", 'name = "w"', `root = "${fixture("python-lint").root}"`, 'servers = ["ruff"]'].join(
        "\n",
      ),
    );
    const ruffBridge = await startBridge(config, { TMPDIR: work, XDG_CACHE_HOME: home }, { bin });
    try {
      const answer = await ruffBridge.ok("diagnostics", { path: "cafe/orders.py" });
      expect(answer.items.length).toBeGreaterThan(0);
      expect(answer.items.every((item: any) => item.source === "Ruff")).toBe(true);
      const { sessions } = await ruffBridge.ok("session_status");
      expect(readFileSync(`/proc/${sessions[0].pid}/cmdline`, "utf8")).toContain(join(home, "lspmcp/ruff/bin/ruff"));
    } finally {
      await ruffBridge.close();
    }
  });

  test("one diagnostics call per profile installed here answers", { timeout: 1_200_000 }, async () => {
    const listed = JSON.parse(execFileSync(bin, ["servers", "--format", "json"], { encoding: "utf8", env: { ...process.env, ...cacheEnv() } })) as {
      servers: { name: string; installed: boolean }[];
    };
    const here = listed.servers.filter((server) => server.installed).map((server) => server.name);
    // The servers of lspmcp's own dependencies, whose wrappers the package once left out, at least.
    expect(here).toEqual(expect.arrayContaining(["typescript", "json", "css", "html", "dockerfile", "svelte", "graphql", "biome"]));
    for (const name of here) {
      const probe = PROBES[name]!;
      const root = fixture(probe.fixture).root;
      const config = join(work, `${name}.toml`);
      writeFileSync(
        config,
        [
          `[bridge]`,
          `request_timeout_ms = 240000`,
          `[[server]]`,
          `name = "${name}"`,
          `profile = "${name}"`,
          `[[workspace]]`,
          `name = "w"`,
          `root = "${root}"`,
          `servers = ["${name}"]`,
        ].join("\n"),
      );
      const probeBridge = await startBridge(config, { TMPDIR: work, ...cacheEnv() }, { bin });
      try {
        const answer = await probeBridge.call("diagnostics", { path: probe.file });
        expect(answer.isError ? answer.content[0]?.text : "answered", name).toBe("answered");
      } finally {
        await probeBridge.close();
      }
    }
  });
});
