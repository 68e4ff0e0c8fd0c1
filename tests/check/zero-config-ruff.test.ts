import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findingKeys, type Finding } from "../helpers/differential.js";
import { requireBuild } from "../helpers/require-binary.js";
import { ruffCliFindings } from "../helpers/ruff-cli.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "./helpers/cli.js";

// Issue 36: a monorepo configures ruff where its Python lives (`[tool.ruff]` in py/pyproject.toml),
// and the embedded default must choose ruff there too, not only for the top level's pyproject.toml.
// Real ruff and pyright, no config: `lspmcp check` in the repository, as a user runs it.

let repo: TempRepo;
let ruff: string;

beforeAll(() => {
  requireBuild();
  ruff = requireCachedTool("ruff/bin/ruff");
  repo = tempRepo({
    "py/pyproject.toml": '[project]\nname = "svc"\nversion = "0"\n\n[tool.ruff.lint]\nselect = ["F"]\n',
    "py/svc/app.py": "import os\n\n\ndef hello() -> int:\n    return 1\n",
    "web/index.ts": "export const answer: number = 42;\n",
  });
});
afterAll(() => repo?.remove());

describe("the embedded default with [tool.ruff] in a sub-folder's pyproject.toml", () => {
  test("chooses ruff, whose findings are ruff check's own", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^lspmcp: config: embedded default for .*: servers typescript, pyright, ruff[;\n]/m);
    const items = JSON.parse(result.stdout).items as (Finding & { server: string })[];
    const cli = (await ruffCliFindings(`${repo.root}/py`, ruff)).map((finding) => ({ ...finding, path: `py/${finding.path}` }));
    expect(cli.map((finding) => finding.code)).toEqual(["F401"]);
    expect(findingKeys(items.filter((item) => item.server === "ruff"))).toEqual(findingKeys(cli));
  });
});
