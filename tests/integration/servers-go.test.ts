import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, startKeys, type Finding } from "../helpers/differential.js";
import { goFindings } from "../helpers/go-cli.js";
import { requireBinary } from "../helpers/require-binary.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// gopls v0.23.0 (issue 28) on tests/fixtures/workspaces/golang: a module of two packages, where
// cmd/cafe's type errors depend on package brew's API and brew/vet.go has three go vet findings.
const FILES = ["brew/brew.go", "brew/vet.go", "cmd/cafe/main.go"];

let repo: TempRepo;
let bridge: Bridge;
let cli: { compiler: Finding[]; vet: Finding[] };
let answer: { items: (Finding & { source: string | null })[]; total: number };
const source = (path: string) => readFileSync(join(repo.root, path), "utf8");
const at = (path: string, needle: string, after = "") => ({ path, ...positionOf(source(path), needle, after) });

beforeAll(async () => {
  requireBinary("go");
  requireCachedTool("go/bin/gopls");
  repo = fixtureRepo("golang");
  bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["gopls"])));
  [cli, answer] = await Promise.all([goFindings(repo.root), diagnostics(bridge, { paths: FILES }) as Promise<typeof answer>]);
});
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

describe("gopls diagnostics against go build and go vet", () => {
  test("the CLIs find three type errors and three vet findings, so a partial answer cannot pass", () => {
    expect(cli.compiler).toHaveLength(3);
    expect(cli.vet).toHaveLength(3);
  });

  test("the compiler's type errors match go build's at their start (go build prints no end)", () => {
    const bridgeSide = answer.items.filter((item) => item.source === "compiler").map((item) => ({ ...item, code: "compiler" }));
    expect(startKeys(bridgeSide)).toEqual(startKeys(cli.compiler));
  });

  test("the analyzers' findings match go vet -json exactly: range, analyzer and message", () => {
    const bridgeSide = answer.items.filter((item) => item.source !== "compiler").map((item) => ({ ...item, code: item.source }));
    expect(findingKeys(bridgeSide)).toEqual(findingKeys(cli.vet));
  });

  test("nothing else: every finding of gopls is one of the CLIs'", () => {
    expect(answer.total).toBe(cli.compiler.length + cli.vet.length);
  });

  test("a column after an astral character is counted in code points (gopls counts UTF-16, Go bytes)", () => {
    const brewOfThree = answer.items.find((item) => item.message.startsWith("cannot use 3"))!;
    expect(brewOfThree.range.start).toEqual(positionOf(source("cmd/cafe/main.go"), "3)", "🍵"));
  });
});

describe("gopls navigation", () => {
  test("pinned by `gopls version`", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions.find((s: any) => s.server === "gopls")).toMatchObject({ state: "ready", pinned_version: "v0.23.0" });
  });

  test("hover shows the signature and doc comment of a function of another package", async () => {
    const hover = await bridge.ok("hover", at("cmd/cafe/main.go", "Twice", "brew."));
    expect(hover.contents).toContain("func brew.Twice(m brew.Maker) int");
    expect(hover.contents).toContain("Twice brews two rounds.");
  });

  test("definition crosses packages", async () => {
    const result = await bridge.ok("definition", at("cmd/cafe/main.go", "Twice", "brew."));
    expect(result.items.map((item: any) => [item.path, item.text])).toEqual([["brew/brew.go", "func Twice(m Maker) int {"]]);
  });

  test("references of Brew: its declaration, its call in Twice (twice) and in main (twice)", async () => {
    const result = await bridge.ok("references", at("brew/brew.go", "Brew(m Maker)"));
    expect(result.items.map((item: any) => `${item.path}:${item.range.start.line}`)).toEqual([
      "brew/brew.go:22",
      "brew/brew.go:28",
      "brew/brew.go:28",
      "cmd/cafe/main.go:12",
      "cmd/cafe/main.go:13",
    ]);
  });

  test("implementation of an interface lists both types that satisfy it", async () => {
    const result = await bridge.ok("implementation", at("brew/brew.go", "Maker", "type "));
    expect(result.items.map((item: any) => item.text)).toEqual(["type Espresso struct{}", "type Latte struct{ Milk int }"]);
  });

  test("call hierarchy: Brew's callers, and what Twice calls", async () => {
    const incoming = await bridge.ok("call_hierarchy", { ...at("brew/brew.go", "Brew(m Maker)"), direction: "incoming" });
    expect(incoming.items.map((item: any) => `${item.path} ${item.name}`)).toEqual(["brew/brew.go Twice", "cmd/cafe/main.go main"]);
    const outgoing = await bridge.ok("call_hierarchy", { ...at("brew/brew.go", "Twice(m Maker)"), direction: "outgoing" });
    expect(outgoing.items.map((item: any) => `${item.path} ${item.name}`)).toEqual(["brew/brew.go Brew"]);
  });

  test("document symbols: the types, their methods and the functions", async () => {
    const result = await bridge.ok("document_symbols", { path: "brew/brew.go" });
    expect(result.items.map((item: any) => item.name)).toEqual(expect.arrayContaining(["Maker", "Espresso", "Latte", "Brew", "Twice"]));
  });

  test("workspace symbols find a function by name", async () => {
    const result = await bridge.ok("workspace_symbols", { query: "Twice" });
    expect(result.items.map((item: any) => `${item.path} ${item.name}`)).toContain("brew/brew.go Twice");
  });
});

describe("gopls writes nothing into the workspace", () => {
  test("git status --ignored is clean after every call above", () => {
    expect(repo.status()).toBe("");
  });
});

describe("a package's diagnostics depend on the packages it imports", () => {
  test("once the changed file is synced, its dependents' diagnostics follow in the same settle", async () => {
    const path = join(repo.root, "brew/brew.go");
    const before = readFileSync(path, "utf8");
    // Latte no longer satisfies Maker: main.go, unchanged itself, gains an error.
    writeFileSync(path, before.replace("func (l Latte) Make() int", "func (l Latte) Pour() int"));
    try {
      const after = await diagnostics(bridge, { paths: ["brew/brew.go", "cmd/cafe/main.go"] });
      expect(after.items.filter((item) => item.path === "cmd/cafe/main.go").map((item) => item.range.start.line)).toEqual([11, 12, 13, 14]);
      expect(after.items.find((item) => item.range.start.line === 12)!.message).toContain("brew.Latte does not implement brew.Maker (missing method Make)");
    } finally {
      writeFileSync(path, before);
    }
  });
});
