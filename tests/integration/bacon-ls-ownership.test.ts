import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { asBaconLsFindings, cargoCheckMessages } from "../helpers/cargo-cli.js";
import { diagnostics, findingKeys, type Finding } from "../helpers/differential.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// Issue 39: one workspace served by rust-analyzer and bacon-ls, bacon-ls owning .rs's diagnostics
// (docs/configuration.md, `diagnostics_server`): `diagnostics` and `check` answer bacon-ls's
// findings alone (no rustc finding twice, none of rust-analyzer's own), and every other tool
// rust-analyzer's, on tests/fixtures/workspaces/rust-crate.
const FILES = ["cafe/src/lib.rs", "cafe/src/brew.rs", "menu/src/lib.rs"];
const routing = `default_server = { ".rs" = "rust-analyzer" }\ndiagnostics_server = { ".rs" = "bacon-ls" }`;

type Item = Finding & { source: string | null };
let repo: TempRepo;
let config: string;
let bridge: Bridge;
let cli: Finding[];

beforeAll(async () => {
  requireBinary("cargo");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  requireCachedTool("bacon-ls/bin/bacon-ls");
  repo = fixtureRepo("rust-crate");
  config = writeConfig(profilesConfig(repo.root, ["rust-analyzer", "bacon-ls"], { extra: routing }));
  bridge = await startBridge(config);
  cli = asBaconLsFindings(await cargoCheckMessages(repo.root, join(tempDir(), "target")));
}, 600_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

describe("bacon-ls owns Rust's diagnostics beside rust-analyzer", () => {
  test("diagnostics is bacon-ls's findings alone: cargo check's exactly, each rustc finding once", async () => {
    const answer = (await diagnostics(bridge, { paths: FILES })) as { items: Item[] };
    expect(new Set(answer.items.map((item) => item.source))).toEqual(new Set(["bacon-ls"]));
    expect(findingKeys(answer.items)).toEqual(findingKeys(cli));
    const headers = answer.items.map((item) => `${item.path}:${item.range.start.line} ${item.message.split("\n")[0]}`);
    expect(new Set(headers).size).toBe(headers.length);
  });

  test("check answers the same findings, from bacon-ls alone", async () => {
    const run = await runCheckCli(["--config", config, "--format", "json", ...FILES], { cwd: repo.root });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { items: Item[]; summary: { runs: { server: string }[] } };
    expect(report.summary.runs.map((entry) => entry.server)).toEqual(["bacon-ls"]);
    expect(new Set(report.items.map((item) => item.source))).toEqual(new Set(["bacon-ls"]));
    expect(findingKeys(report.items)).toEqual(findingKeys(cli));
  });

  test("naming rust-analyzer still reaches its diagnostics; hover goes to the default server, rust-analyzer", async () => {
    // Its diagnostics settle once its analysis is quiescent, after which its hover is whole.
    const named = (await diagnostics(bridge, { paths: FILES, server: "rust-analyzer" })) as { items: Item[] };
    expect(new Set(named.items.map((item) => item.source))).toEqual(new Set(["rustc", "rust-analyzer"]));
    const source = readFileSync(join(repo.root, "cafe/src/brew.rs"), "utf8");
    const hover = await bridge.ok("hover", { path: "cafe/src/brew.rs", ...positionOf(source, "pour(cup)", "first = ") });
    expect(hover.contents).toContain("pub fn pour(cup: Cup) -> u32");
  });
});
