import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { workspaceCacheDir } from "../../src/config/workspace-cache.js";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { asBaconLsFindings, cargoCheckMessages } from "../helpers/cargo-cli.js";
import { diagnostics, findingKeys, type Finding } from "../helpers/differential.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// Issue 39: bacon-ls 0.31.0 (crates.io, its cargo backend) on tests/fixtures/workspaces/rust-crate:
// package cafe with a type error after an astral character and two borrow errors, package menu
// with three warnings. Its findings are cargo check's, as bacon-ls maps them (cargo-cli.ts,
// asBaconLsFindings); the settle rule waits for a run begun after the sync (the bacon-ls adapter).
const FILES = ["cafe/src/lib.rs", "cafe/src/brew.rs", "menu/src/lib.rs"];

type Item = Finding & { source: string | null; channels: string[] };
let repo: TempRepo;
let bridge: Bridge;
let first: { items: Item[]; total: number };
let cli: Finding[];
const source = (path: string) => readFileSync(join(repo.root, path), "utf8");
const cargoFindings = async () => asBaconLsFindings(await cargoCheckMessages(repo.root, join(tempDir(), "target")));

beforeAll(async () => {
  requireBinary("cargo");
  requireCachedTool("bacon-ls/bin/bacon-ls");
  repo = fixtureRepo("rust-crate");
  bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["bacon-ls"])));
  // The first call of a fresh bridge: bacon-ls's start-up run is under way, and must not pass for the answer's.
  [first, cli] = await Promise.all([diagnostics(bridge, { paths: FILES }) as Promise<typeof first>, cargoFindings()]);
}, 600_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

describe("bacon-ls against cargo check", () => {
  test("cargo check finds a type error, two borrow errors and three warnings, so a partial answer cannot pass", () => {
    const headers = cli.map((finding) => `${finding.severity} ${finding.message.split("\n")[0]}`);
    expect(headers.sort()).toEqual([
      "error error[E0308]: mismatched types",
      "error error[E0382]: use of moved value: `cup`",
      "error error[E0502]: cannot borrow `cups` as mutable because it is also borrowed as immutable",
      "warning warning: field `label` is never read",
      "warning warning: function `never_listed` is never used",
      "warning warning: unused variable: `discount`",
    ]);
  });

  test("the first answer is cargo check --message-format=json exactly, as bacon-ls maps it: file, line, code-point column, severity, code, rendered message", () => {
    expect(findingKeys(first.items)).toEqual(findingKeys(cli));
    expect(new Set(first.items.map((item) => item.source))).toEqual(new Set(["bacon-ls"]));
    expect(new Set(first.items.flatMap((item) => item.channels))).toEqual(new Set(["push"]));
  });

  test("a second call answers byte for byte the same", async () => {
    expect(JSON.stringify(await diagnostics(bridge, { paths: FILES }))).toBe(JSON.stringify(first));
  });

  test("a column after an astral character is counted in code points (bacon-ls passes rustc's on, and says UTF-16)", () => {
    const mismatch = first.items.find((item) => item.message.startsWith("error[E0308]"))!;
    expect(mismatch.range.start).toEqual(positionOf(source("cafe/src/lib.rs"), '"tea"', "🍵"));
  });

  test("pinned by `bacon-ls --version`; the server writes nothing into the workspace, and cargo builds in the workspace's own folder", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions[0]).toMatchObject({ state: "ready", pinned_version: "0.31.0", reported_version: "0.31.0" });
    expect(repo.status()).toBe("");
    expect(existsSync(join(workspaceCacheDir({ root: repo.root }), "bacon-ls-target"))).toBe(true);
  });

  test("an edit on disk is checked again: the type error moved to a new line, as cargo check sees it", async () => {
    const path = "cafe/src/lib.rs";
    const before = source(path);
    try {
      writeFileSync(join(repo.root, path), before.replace('"tea"', "2").replace("cups + label", 'let broken: u8 = "x";\n    cups + label'));
      const [edited, expected] = await Promise.all([diagnostics(bridge, { paths: FILES }), cargoFindings()]);
      expect(findingKeys(edited.items)).toEqual(findingKeys(expected));
      const mismatches = edited.items.filter((item) => item.message.startsWith("error[E0308]"));
      expect(mismatches.map((item) => item.range.start)).toEqual([positionOf(source(path), '"x"')]);
    } finally {
      writeFileSync(join(repo.root, path), before);
    }
    expect(findingKeys((await diagnostics(bridge, { paths: FILES })).items)).toEqual(findingKeys(cli));
  });
});
