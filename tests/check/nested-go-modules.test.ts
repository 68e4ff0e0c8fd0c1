import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findingKeys, startKeys, type Finding } from "../helpers/differential.js";
import { goFindings } from "../helpers/go-cli.js";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "./helpers/cli.js";

// Two Go modules below the top-level and no go.work: zero-config `check` must answer each file
// as its own module's `go vet` and `go build` run in that module's folder report it.
//
// A guard of gopls's behaviour, not a proof of a mechanism of lspmcp's: gopls finds each module
// itself (lspmcp gives it the workspace root and nothing per module), so this file fails when a
// gopls upgrade stops doing so, and no change to lspmcp's code is seen here. Count it as such.

const VET = 'package lib\n\nimport "fmt"\n\n// Say prints a number as a string.\nfunc Say(n int) {\n\tfmt.Printf("%s\\n", n)\n}\n';

let repo: TempRepo;
beforeAll(() => {
  requireBuild();
  requireBinary("go");
  requireCachedTool("go/bin/gopls");
  repo = tempRepo({
    "tools/a/go.mod": "module example.com/a\n\ngo 1.22\n",
    "tools/a/lib/lib.go": VET,
    "services/b/go.mod": "module example.com/b\n\ngo 1.22\n",
    "services/b/lib/lib.go": VET,
    "services/b/cmd/main.go": 'package main\n\nimport "example.com/b/lib"\n\nfunc main() {\n\tlib.Say("three")\n}\n',
  });
});
afterAll(() => repo?.remove());

/** Each module's findings from its own folder, with paths from the top-level. */
async function perModule(): Promise<{ compiler: Finding[]; vet: Finding[] }> {
  const all = { compiler: [] as Finding[], vet: [] as Finding[] };
  for (const module of ["tools/a", "services/b"]) {
    const found = await goFindings(`${repo.root}/${module}`);
    const prefixed = (findings: Finding[]) => findings.map((finding) => ({ ...finding, path: `${module}/${finding.path}` }));
    all.compiler.push(...prefixed(found.compiler));
    all.vet.push(...prefixed(found.vet));
  }
  return all;
}

describe("two Go modules without go.work (zero-config)", () => {
  test("check answers each module's files as its own go vet and go build do (gopls's behaviour, guarded)", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    const items = (JSON.parse(result.stdout).items as (Finding & { server: string; source: string | null })[]).filter((item) => item.server === "gopls");
    const cli = await perModule();
    // One vet finding in each module, one type error in b: a module left unloaded cannot pass.
    expect(cli.vet.map((finding) => finding.path)).toEqual(["tools/a/lib/lib.go", "services/b/lib/lib.go"]);
    expect(cli.compiler.map((finding) => finding.path)).toEqual(["services/b/cmd/main.go"]);
    const compiler = items.filter((item) => item.source === "compiler").map((item) => ({ ...item, code: "compiler" }));
    expect(startKeys(compiler)).toEqual(startKeys(cli.compiler));
    const vet = items.filter((item) => item.source !== "compiler").map((item) => ({ ...item, code: item.source }));
    expect(findingKeys(vet)).toEqual(findingKeys(cli.vet));
  });
});
