import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { asRustAnalyzerFindings, cargoCheckMessages } from "../helpers/cargo-cli.js";
import { findingKeys, type Finding } from "../helpers/differential.js";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "./helpers/cli.js";

// Two crates below the top-level, no cargo workspace: rust-analyzer's own discovery loads
// neither (it looks at the root and the folders just below it), and a file of an unloaded crate
// never settles. Zero-config links every crate; each file is answered as `cargo check` run in its
// crate's folder reports it.

const crate = (name: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`;
const MISMATCH = 'fn main() {\n    let count: u32 = "three";\n    println!("{count}");\n}\n';
const CRATES = ["services/b", "tools/a"];

let repo: TempRepo;
beforeAll(() => {
  requireBuild();
  requireBinary("cargo");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  repo = tempRepo({
    ".gitignore": "target/\n",
    "tools/a/Cargo.toml": crate("a"),
    "tools/a/src/main.rs": MISMATCH,
    "services/b/Cargo.toml": crate("b"),
    "services/b/src/main.rs": MISMATCH,
  });
});
afterAll(() => repo?.remove());

type Item = Finding & { server: string; source: string | null };

describe("two crates below the top-level without a cargo workspace (zero-config)", () => {
  test("check answers each crate's files as cargo check run in that crate", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/; rust-analyzer projects: services\/b, tools\/a[;\n]/);
    const items = (JSON.parse(result.stdout).items as Item[]).filter((item) => item.server === "rust-analyzer");
    const cli: Finding[] = [];
    for (const folder of CRATES) {
      const findings = asRustAnalyzerFindings(await cargoCheckMessages(join(repo.root, folder), join(tempDir(), "target", folder)));
      cli.push(...findings.map((finding) => ({ ...finding, path: `${folder}/${finding.path}` })));
    }
    // Each crate's E0308, so an unloaded crate cannot pass.
    expect(cli.filter((finding) => finding.code === "E0308" && finding.severity === "error").map((finding) => finding.path)).toEqual([
      "services/b/src/main.rs",
      "tools/a/src/main.rs",
    ]);
    expect(findingKeys(items.filter((item) => item.source === "rustc"))).toEqual(findingKeys(cli));
    // rust-analyzer's own analysis loaded both crates too.
    const own = items.filter((item) => item.source === "rust-analyzer").map((item) => `${item.path} ${item.code}`);
    expect(own.sort()).toEqual(["services/b/src/main.rs E0308", "tools/a/src/main.rs E0308"]);
  });
});
