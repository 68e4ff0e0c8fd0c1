import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { requireBinary } from "../helpers/require-binary.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";
import type { PreviewAnswer } from "./helpers/preview-answer.js";

// rust-analyzer's flycheck (`cargo check`, sources rustc and clippy) reads only the disk: a preview
// lists it in not_previewed and counts none of its findings, while rust-analyzer's own analysis,
// which reads the documents, is counted (CONTRACT §4.4). tests/fixtures/workspaces/rust-crate:
// menu compiles with rustc warnings only.
const MENU = "menu/src/lib.rs";

type Answer = PreviewAnswer;

let repo: TempRepo;
let bridge: Bridge;
beforeAll(async () => {
  requireBinary("cargo");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  repo = fixtureRepo("rust-crate");
  bridge = await startBridge(writeConfig(profilesConfig(repo.root, ["rust-analyzer"], { timeoutMs: 600_000 })));
}, 600_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

const plain = (answer: Answer) => answer.items.map(({ channels: _channels, ...item }) => item);
const diagnostics = (args: Record<string, unknown>): Promise<Answer> => bridge.ok("diagnostics", { path: MENU, limit: 1000, ...args });

test("flycheck's sources are not previewed and never counted; rust-analyzer's own are, and nothing is left behind", async () => {
  const before = await diagnostics({});
  // The warnings cargo check reports on disk (rustc): present, so leaving them out is seen.
  expect(before.items.some((item) => item.source === "rustc")).toBe(true);
  // The edit changes the line of the unused variable rustc warns about and gives a variable a mismatched type,
  // which rust-analyzer's own analysis reports from the document's text.
  const text = readFileSync(join(repo.root, MENU), "utf8").replace("    let discount = 1;\n", '    let discount: u32 = "one";\n');
  const introduced = await diagnostics({ changes: [{ path: MENU, text }] });
  const resolved = await diagnostics({ changes: [{ path: MENU, text }], show: "resolved" });
  expect(introduced.not_previewed).toEqual([
    { server: "rust-analyzer", source: "clippy" },
    { server: "rust-analyzer", source: "rustc" },
  ]);
  for (const answer of [introduced, resolved]) expect(answer.items.filter((item) => item.source !== "rust-analyzer")).toEqual([]);
  expect(introduced.items.map((item) => [item.source, item.code, item.message])).toEqual([["rust-analyzer", "E0308", "expected u32, found &'static str"]]);
  // rustc's unused-variable warning stands on a line the edit changed: it would read as resolved
  // and introduced again, though rustc never saw the edit.
  expect(resolved.items).toEqual([]);
  expect(plain(await diagnostics({}))).toEqual(plain(before));
  expect(repo.status()).toBe("");
}, 600_000);
