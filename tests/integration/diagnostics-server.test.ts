import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, type Finding } from "../helpers/differential.js";
import { ruffCliFindings } from "../helpers/ruff-cli.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// `diagnostics_server` through the bridge, on real servers (issue 39): pyright and ruff both claim
// .py; with ruff owning .py's diagnostics, `diagnostics` asks ruff alone while hover still goes to
// the default server, pyright. The same routing keeps rust-analyzer's rustc findings out beside a
// diagnostics-only server.
const FILES = ["cafe/menu.py", "cafe/orders.py"];
const routing = [`default_server = { ".py" = "pyright", ".pyi" = "pyright" }`, `diagnostics_server = { ".py" = "ruff", ".pyi" = "ruff" }`].join("\n");

let repo: TempRepo;
let ruff: string;
let bridge: Bridge;

beforeAll(async () => {
  ruff = requireCachedTool("ruff/bin/ruff");
  repo = fixtureRepo("python-lint");
  bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["pyright", "ruff"], { extra: routing })));
}, 300_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

describe("diagnostics_server on pyright and ruff", () => {
  test("diagnostics is ruff check's findings exactly, and nothing of pyright's", async () => {
    const [answer, cli] = await Promise.all([
      diagnostics(bridge, { paths: FILES }) as Promise<{ items: (Finding & { source: string | null })[] }>,
      ruffCliFindings(repo.root, ruff),
    ]);
    expect(cli.length).toBeGreaterThan(6);
    expect(new Set(answer.items.map((item) => item.source))).toEqual(new Set(["Ruff"]));
    expect(findingKeys(answer.items)).toEqual(findingKeys(cli));
  });

  test("hover goes to the default server, pyright; naming pyright still reaches its diagnostics", async () => {
    const source = readFileSync(join(repo.root, "cafe/orders.py"), "utf8");
    expect((await bridge.ok("hover", { path: "cafe/orders.py", ...positionOf(source, "order(") })).contents).toContain("def order(");
    const named = (await diagnostics(bridge, { paths: FILES, server: "pyright" })) as { items: { source: string | null }[] };
    expect(named.items.length).toBeGreaterThan(0);
    expect(new Set(named.items.map((item) => item.source))).toEqual(new Set(["Pyright"]));
  });
});
