import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { workspaceCacheDir } from "../../src/config/workspace-cache.js";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics } from "../helpers/differential.js";
import { requireBinary } from "../helpers/require-binary.js";
import { fixtureRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";

// Two copies of one cargo workspace (two worktrees of a repository, as a fleet of agents has
// them) served by one bridge. cargo names a path package's units by their paths inside the
// workspace and judges them fresh by file times: with one target folder for both, the copy
// checked second replayed the first one's cached warnings. Here copy "edited" drops menu's
// `unused_variables` warning on disk and is checked first; copy "as-committed", older on disk,
// must still answer with its own three warnings. Each copy's target folder is its own now.
const MENU = "menu/src/lib.rs";
let asCommitted: TempRepo;
let edited: TempRepo;
let bridge: Bridge;

const warnings = async (workspace: string, extra: Record<string, unknown> = {}) => {
  const answer = await diagnostics(bridge, { workspace, path: MENU, ...extra });
  return answer.items.filter((item) => item.severity === "warning").map((item) => item.code);
};

beforeAll(async () => {
  requireBinary("cargo");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  // Made first, so that its files are older than anything cargo records for the other copy.
  asCommitted = fixtureRepo("rust-crate");
  edited = fixtureRepo("rust-crate");
  const path = join(edited.root, MENU);
  writeFileSync(path, readFileSync(path, "utf8").replace("let discount = 1;\n", "let _discount = 1;\n"));
  bridge = await startBridge(
    writeConfig(`
[bridge]
max_sessions = 4
request_timeout_ms = 300000

[[server]]
name = "rust-analyzer"
profile = "rust-analyzer"

[[workspace]]
name = "edited"
root = ${JSON.stringify(edited.root)}
servers = ["rust-analyzer"]

[[workspace]]
name = "as-committed"
root = ${JSON.stringify(asCommitted.root)}
servers = ["rust-analyzer"]
`),
  );
}, 120_000);
afterAll(async () => {
  await bridge?.close();
  asCommitted?.remove();
  edited?.remove();
});

describe("two copies of one cargo workspace behind one bridge", () => {
  test("each answers with its own files: the copy checked second does not replay the first one's warnings", async () => {
    expect(await warnings("edited")).toEqual(["dead_code", "dead_code"]);
    expect(await warnings("as-committed")).toEqual(["unused_variables", "dead_code", "dead_code"]);
  }, 600_000);

  test("each copy's cargo target folder is its own, in the tool cache, and neither checkout gets one", () => {
    const [a, b] = [edited.root, asCommitted.root].map((root) => join(workspaceCacheDir({ root }), "cargo-target"));
    expect(a).not.toBe(b);
    expect(existsSync(join(a!, "flycheck0"))).toBe(true);
    expect(existsSync(join(b!, "flycheck0"))).toBe(true);
    expect(edited.status()).toBe(` M ${MENU}\n`);
    expect(asCommitted.status()).toBe("");
  });

  test('since "HEAD" checks the revision apart from the working tree: the edit resolved the warning, and the working tree still answers as it is', async () => {
    const resolved = await diagnostics(bridge, { workspace: "edited", path: MENU, since: "HEAD", show: "resolved" });
    expect(resolved.items.filter((item) => item.severity === "warning").map((item) => item.code)).toEqual(["unused_variables"]);
    const introduced = await diagnostics(bridge, { workspace: "edited", path: MENU, since: "HEAD" });
    expect(introduced.items).toEqual([]);
    expect(await warnings("edited")).toEqual(["dead_code", "dead_code"]);
  }, 600_000);
});
