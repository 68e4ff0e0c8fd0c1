import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { startBridge } from "../helpers/bridge.js";
import { diagnostics } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";

// A `cargo check` that cargo itself refuses (an unparsable Cargo.toml, an edition it does not
// know) publishes nothing under bacon-ls 0.31.0: its run's progress ends with no message and it
// logs cargo's reason. Each file is then listed as not checked with that reason, promptly: never
// a Timeout, never clean.

const CONFIG = '[[server]]\nname = "bacon-ls"\nprofile = "bacon-ls"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["bacon-ls"]\n';
const SOURCES = {
  "src/lib.rs": 'mod util;\n\npub fn f() -> i32 {\n    "one"\n}\n',
  "src/util.rs": "pub fn g() -> u8 {\n    1\n}\n",
};
const MANIFESTS = {
  unparsable: '[package\nname = "broken"\n',
  "an edition cargo refuses": '[package]\nname = "broken"\nversion = "0.1.0"\nedition = "2077"\n',
};
const FIXED = '[package]\nname = "broken"\nversion = "0.1.0"\nedition = "2021"\n';

/** The lines cargo itself starts with `error:` for the crate at `root`, without that word: its reason. */
async function cargoErrors(root: string): Promise<string[]> {
  const stderr = await new Promise<string>((resolve) =>
    execFile(
      "cargo",
      ["check", "--message-format=json"],
      { cwd: root, env: { ...process.env, CARGO_TARGET_DIR: join(tempDir(), "target") } },
      (_error, _out, err) => resolve(err),
    ),
  );
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("error:"))
    .map((line) => line.slice("error:".length).trim());
}

interface Report {
  items: unknown[];
  summary: { not_checked?: { server: string; path: string; reason: string }[] };
}

const repos: TempRepo[] = [];
afterAll(() => {
  for (const repo of repos) repo.remove();
});

describe.each(Object.entries(MANIFESTS))("bacon-ls over a crate whose Cargo.toml is %s", (_what, manifest) => {
  test("check lists each file as not checked with cargo's reason, within seconds, and exits 0 with no findings", async () => {
    requireBinary("cargo");
    requireCachedTool("bacon-ls/bin/bacon-ls");
    const repo = tempRepo({ "bridge.toml": CONFIG, "Cargo.toml": manifest, ...SOURCES });
    repos.push(repo);
    const reasons = await cargoErrors(repo.root);
    expect(reasons.length).toBeGreaterThan(0);
    const started = Date.now();
    const run = await runCheckCli(["--format", "json"], { cwd: repo.root });
    const elapsed = Date.now() - started;
    expect(run.code, run.stderr).toBe(0);
    // Far inside the 30 s request_timeout_ms that a wait for a run that never publishes ran into.
    expect(elapsed).toBeLessThan(20_000);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.items).toEqual([]);
    const listed = report.summary.not_checked ?? [];
    expect(listed.map(({ server, path }) => `${server} ${path}`)).toEqual(["bacon-ls src/lib.rs", "bacon-ls src/util.rs"]);
    for (const { reason } of listed) {
      expect(reason).toMatch(/^cargo check failed: cargo exited with exit status: 101: /);
      expect(
        reasons.some((own) => reason.endsWith(own)),
        `${reason} ends with one of ${JSON.stringify(reasons)}`,
      ).toBe(true);
    }
  }, 120_000);
});

test("serve: the diagnostics tool lists the files with cargo's reason, and once the manifest is fixed the same session answers cargo's findings", async () => {
  requireBinary("cargo");
  requireCachedTool("bacon-ls/bin/bacon-ls");
  const repo = tempRepo({ "bridge.toml": CONFIG, "Cargo.toml": MANIFESTS.unparsable, ...SOURCES });
  repos.push(repo);
  const bridge = await startBridge(null, {}, { cwd: repo.root });
  try {
    const broken = (await diagnostics(bridge, { path: "." })) as Awaited<ReturnType<typeof diagnostics>> & { not_checked?: string[] };
    expect(broken.items).toEqual([]);
    expect(broken.not_checked).toEqual([
      expect.stringMatching(/^src\/lib\.rs \(bacon-ls\): cargo check failed: cargo exited with exit status: 101: /),
      expect.stringMatching(/^src\/util\.rs \(bacon-ls\): cargo check failed: /),
    ]);
    writeFileSync(join(repo.root, "Cargo.toml"), FIXED);
    const fixed = (await diagnostics(bridge, { path: "src/lib.rs" })) as Awaited<ReturnType<typeof diagnostics>> & { not_checked?: string[] };
    expect(fixed.not_checked).toBeUndefined();
    expect(fixed.items.map((item) => `${item.severity} ${item.message.split("\n")[0]}`)).toEqual(["error error[E0308]: mismatched types"]);
  } finally {
    await bridge.close();
  }
}, 300_000);

test("docs/servers.md says what these runs show: each file not checked with cargo's reason, not a Timeout", () => {
  const page = readFileSync(join(REPO, "docs/servers.md"), "utf8").replace(/\s+/g, " ");
  const bacon = page.slice(page.indexOf("## Rust's diagnostics owner: bacon-ls"), page.indexOf("## Several servers for one file"));
  expect(bacon).toContain("A run cargo refuses (a `Cargo.toml` that does not parse) lists each file as not checked with cargo's reason");
  expect(bacon).not.toMatch(/Timeout/);
});
