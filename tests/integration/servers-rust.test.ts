import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { workspaceCacheDir } from "../../src/config/workspace-cache.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { asRustAnalyzerFindings, cargoCheckMessages } from "../helpers/cargo-cli.js";
import { diagnostics, findingKeys, type Finding } from "../helpers/differential.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";

// rust-analyzer 0.0.348 (issue 28) on tests/fixtures/workspaces/rust-crate: a cargo workspace whose
// package cafe has a type error and two borrow errors, and whose package menu compiles with three
// warnings (rustc lints no crate with errors). Its diagnostics come from its own analysis (pulled)
// and from cargo check (flycheck, published): the settle rule waits for both (the rust-analyzer adapter).
const FILES = ["cafe/src/lib.rs", "cafe/src/brew.rs", "menu/src/lib.rs"];

type Item = Finding & { source: string | null; channels: string[] };
let repo: TempRepo;
let bridge: Bridge;
let answer: { items: Item[]; total: number };
let cli: Finding[];
/** rust-src, the standard library's sources, which this kind of machine does not have. */
let rustSrc: string;
let hadRustSrc: boolean;
const source = (path: string) => readFileSync(join(repo.root, path), "utf8");
const at = (path: string, needle: string, after = "") => ({ path, ...positionOf(source(path), needle, after) });

beforeAll(async () => {
  requireBinary("cargo");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  rustSrc = join(execFileSync("rustc", ["--print", "sysroot"], { encoding: "utf8" }).trim(), "lib/rustlib/src/rust/library/core");
  hadRustSrc = existsSync(rustSrc);
  repo = fixtureRepo("rust-crate");
  bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["rust-analyzer"])));
  const [answered, messages] = await Promise.all([diagnostics(bridge, { paths: FILES }), cargoCheckMessages(repo.root, join(tempDir(), "target"))]);
  answer = answered as typeof answer;
  cli = asRustAnalyzerFindings(messages);
}, 600_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

describe("rust-analyzer's diagnostics against cargo check", () => {
  test("cargo check finds a type error, two borrow errors and three warnings, so a partial answer cannot pass", () => {
    const main = cli.filter((finding) => finding.severity !== "hint").map((finding) => `${finding.severity} ${finding.code}`);
    expect(main.sort()).toEqual(["error E0308", "error E0382", "error E0502", "warning dead_code", "warning dead_code", "warning unused_variables"]);
  });

  test("the flycheck part is cargo check --message-format=json exactly, as rust-analyzer maps it (hints too)", () => {
    const rustc = answer.items.filter((item) => item.source === "rustc");
    expect(findingKeys(rustc)).toEqual(findingKeys(cli));
    expect(new Set(rustc.flatMap((item) => item.channels))).toEqual(new Set(["push"]));
  });

  test("rust-analyzer's own analysis adds its type mismatch, pulled, and nothing else", () => {
    const own = answer.items.filter((item) => item.source !== "rustc");
    expect(own.map((item) => [item.path, item.range, item.severity, item.code, item.source, item.message, item.channels])).toEqual([
      [
        "cafe/src/lib.rs",
        cli.find((finding) => finding.code === "E0308")!.range,
        "error",
        "E0308",
        "rust-analyzer",
        "expected u32, found &'static str",
        ["pull"],
      ],
    ]);
  });

  test("a column after an astral character is counted in code points (rust-analyzer counts UTF-16)", () => {
    const mismatch = answer.items.find((item) => item.source === "rustc" && item.code === "E0308")!;
    expect(mismatch.range.start).toEqual(positionOf(source("cafe/src/lib.rs"), '"tea"', "🍵"));
  });
});

describe("rust-analyzer's navigation", () => {
  test("pinned by cargo's record of the install", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions[0]).toMatchObject({ state: "ready", pinned_version: "0.0.348", reported_version: "ra_ap_rust-analyzer v0.0.348:" });
  });

  test("hover, definition, references and incoming calls on the crate's own code", async () => {
    const hover = await bridge.ok("hover", at("cafe/src/brew.rs", "pour(cup)", "first = "));
    expect(hover.contents).toContain("pub fn pour(cup: Cup) -> u32");
    expect(hover.contents).toContain("Pours a cup, which is gone afterwards.");
    const definition = await bridge.ok("definition", at("cafe/src/brew.rs", "pour(cup)", "first = "));
    expect(definition.items.map((item: any) => [item.path, item.selection_range.start.line])).toEqual([["cafe/src/brew.rs", 7]]);
    const references = await bridge.ok("references", at("cafe/src/brew.rs", "pour(cup: Cup)"));
    expect(references.items.map((item: any) => item.range.start.line)).toEqual([7, 14, 15]);
    const incoming = await bridge.ok("call_hierarchy", { ...at("cafe/src/brew.rs", "pour(cup: Cup)"), direction: "incoming" });
    expect(incoming.items.map((item: any) => item.name)).toEqual(["twice"]);
  });

  test("document and workspace symbols", async () => {
    const symbols = await bridge.ok("document_symbols", { path: "cafe/src/brew.rs" });
    expect(symbols.items.map((item: any) => item.name)).toEqual(expect.arrayContaining(["Cup", "pour", "twice", "refill"]));
    const found = await bridge.ok("workspace_symbols", { query: "refill" });
    expect(found.items.map((item: any) => `${item.path} ${item.name}`)).toContain("cafe/src/brew.rs refill");
  });

  test("the standard library: answered only with rust-src, which the session never installs", async () => {
    const hover = await bridge.ok("hover", at("menu/src/lib.rs", "new()", "String::"));
    const definition = await bridge.ok("definition", at("menu/src/lib.rs", "new()", "String::"));
    if (hadRustSrc) {
      expect(hover.contents).toContain("pub const fn new() -> String");
    } else {
      // Without rust-src, rust-analyzer knows nothing of std: no hover, no definition.
      expect(hover).toMatchObject({ range: null, contents: "" });
      expect(definition.items).toEqual([]);
      // rust-analyzer runs `rustup component add rust-src` when it is missing; the profile
      // points rustup's download server at a closed port, so the toolchain is left as it was.
      expect(existsSync(rustSrc)).toBe(false);
    }
  });
});

describe("rust-analyzer writes nothing into the workspace", () => {
  test("git status --ignored is clean (no target/, Cargo.lock as committed): cargo's target folder is the workspace's own in the tool cache", () => {
    expect(repo.status()).toBe("");
    expect(existsSync(join(workspaceCacheDir({ root: repo.root }), "cargo-target", "flycheck0"))).toBe(true);
  });
});

describe("a file changed on disk", () => {
  test("is checked again: the bridge asks for a cargo check run after the change and waits for it", async () => {
    const path = join(repo.root, "menu/src/lib.rs");
    const before = readFileSync(path, "utf8");
    writeFileSync(path, before.replace("let discount = 1;\n", "let _discount = 1;\n"));
    try {
      const after = await diagnostics(bridge, { path: "menu/src/lib.rs" });
      const codes = after.items.filter((item) => item.severity === "warning").map((item) => item.code);
      expect(codes).toEqual(["dead_code", "dead_code"]);
    } finally {
      writeFileSync(path, before);
    }
  });
});
