import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, pyrightCliFindings, type Finding } from "../helpers/differential.js";
import { ruffCliFindings } from "../helpers/ruff-cli.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// Issue 28: ruff's server as a linter beside pyright (as Biome is beside TypeScript), and
// basedpyright as the alternative type checker, on tests/fixtures/workspaces/python-lint (a
// ruff.toml, two files with findings of both kinds, astral characters before some columns).
const FILES = ["cafe/menu.py", "cafe/orders.py"];
const PYTHON = [".py", ".pyi"];
const routing = (server: string) => `default_server = { ${PYTHON.map((extension) => `"${extension}" = "${server}"`).join(", ")} }`;

type Item = Finding & { source: string | null; channels: string[] };
let repo: TempRepo;
let ruff: string;
let basedpyright: string;

beforeAll(() => {
  ruff = requireCachedTool("ruff/bin/ruff");
  basedpyright = requireCachedTool("basedpyright/node_modules/.bin/basedpyright");
  repo = fixtureRepo("python-lint");
});
afterAll(() => repo?.remove());

describe("pyright and ruff on one workspace", () => {
  let bridge: Bridge;
  let merged: { items: Item[]; total: number };
  let ruffCli: Finding[];
  let pyrightCli: Finding[];
  beforeAll(async () => {
    bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["pyright", "ruff"], { extra: routing("pyright") })));
    [merged, ruffCli, pyrightCli] = await Promise.all([
      diagnostics(bridge, { paths: FILES }) as Promise<{ items: Item[]; total: number }>,
      ruffCliFindings(repo.root, ruff),
      pyrightCliFindings(repo.root),
    ]);
  });
  afterAll(async () => bridge?.close());

  test("each CLI finds something in both files, so a partial answer cannot pass", () => {
    expect(new Set(ruffCli.map((finding) => finding.path))).toEqual(new Set(FILES));
    expect(ruffCli.length).toBeGreaterThan(6);
    expect(pyrightCli.length).toBeGreaterThan(1);
  });

  test("ruff's part of the merged answer is ruff check --output-format json exactly", () => {
    expect(findingKeys(merged.items.filter((item) => item.source === "Ruff"))).toEqual(findingKeys(ruffCli));
  });

  test("pyright's part is pyright --outputjson exactly, its editor hints aside, and there is nothing else", () => {
    // pyright's server adds hints that its CLI never prints: "x is not accessed" (severity hint,
    // tagged unnecessary), one per unused name.
    const pyright = merged.items.filter((item) => item.source === "Pyright");
    const hints = pyright.filter((item) => item.severity === "hint");
    expect(hints.map((item) => item.message)).toEqual(['"sys" is not accessed', '"os" is not accessed', '"total" is not accessed', '"label" is not accessed']);
    expect(findingKeys(pyright.filter((item) => item.severity !== "hint"))).toEqual(findingKeys(pyrightCli));
    expect(merged.total).toBe(ruffCli.length + pyrightCli.length + hints.length);
  });

  test("ruff is pulled; a column after three astral characters is counted in code points", () => {
    const long = merged.items.find((item) => item.code === "E501")!;
    expect(long.channels).toEqual(["pull"]);
    const source = readFileSync(join(repo.root, "cafe/orders.py"), "utf8");
    expect(long.range.start).toEqual({ line: positionOf(source, "label =").line, column: 58 });
  });

  test("pinned by `ruff --version`; hover goes to the default server, pyright", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions.find((s: any) => s.server === "ruff")).toMatchObject({ state: "ready", pinned_version: "0.17.5", reported_version: "ruff 0.17.5" });
    const source = readFileSync(join(repo.root, "cafe/orders.py"), "utf8");
    const hover = await bridge.ok("hover", { path: "cafe/orders.py", ...positionOf(source, "order(") });
    expect(hover.contents).toContain("def order(");
  });
});

describe("basedpyright, the alternative type checker", () => {
  let bridge: Bridge;
  beforeAll(async () => {
    bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["basedpyright"])));
  });
  afterAll(async () => bridge?.close());

  test("its diagnostics are basedpyright --outputjson exactly", async () => {
    const [answer, cli] = await Promise.all([diagnostics(bridge, { paths: FILES }), pyrightCliFindings(repo.root, basedpyright)]);
    expect(cli.length).toBeGreaterThan(pyrightCliFindingsFloor);
    expect(findingKeys(answer.items)).toEqual(findingKeys(cli));
  });

  test("pinned by `basedpyright --version`; hover and definition answer", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions[0]).toMatchObject({ state: "ready", pinned_version: "1.40.1", reported_version: expect.stringContaining("basedpyright 1.40.1") });
    const source = readFileSync(join(repo.root, "cafe/orders.py"), "utf8");
    const at = { path: "cafe/orders.py", ...positionOf(source, "cups)", "sum(") };
    expect((await bridge.ok("hover", at)).contents).toContain("cups: List[int]");
    expect((await bridge.ok("definition", at)).items.map((item: any) => item.text)).toEqual(["def order(cups: List[int], extras=[]) -> int:"]);
  });
});

/** basedpyright's stricter defaults find more than pyright's few errors here. */
const pyrightCliFindingsFloor = 5;

describe("the servers write nothing into the workspace", () => {
  test("git status --ignored is clean after both bridges (no .ruff_cache, no basedpyright cache)", () => {
    expect(repo.status()).toBe("");
  });
});
