import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { findingKeys, pyrightCliFindings, type Finding } from "../helpers/differential.js";
import { firstLine, pyreflyCliFindings, tyCliFindings } from "../helpers/python-native-cli.js";
import { requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";

// Each Python configuration root is answered with the environment its checker's CLI uses from
// that folder. Two roots, a/ and b/, each with its own .venv; a package (`onlya`) is installed in
// a's only. basedpyright, pyrefly and ty each take the root's .venv from its folder, so their CLI
// reports a type error in a/ (onlya.V is a str) and an unresolved import in b/; pyright's CLI takes
// no .venv it is not told of, and reports the import unresolved in both. lspmcp, from the top of
// the checkout, equals each root's own CLI run in that root.

const ROOT_FILES = (name: string) => ({
  [`${name}/pyproject.toml`]: `[project]\nname = "${name}"\nversion = "0"\n\n[tool.pyright]\n\n[tool.basedpyright]\n\n[tool.pyrefly]\n\n[tool.ty]\n`,
  [`${name}/main.py`]: "import onlya\n\nx: int = onlya.V\n",
});

const CHECKERS = {
  pyright: (root: string) => pyrightCliFindings(root),
  basedpyright: (root: string) => pyrightCliFindings(root, requireCachedTool("basedpyright/node_modules/.bin/basedpyright")),
  pyrefly: (root: string) => pyreflyCliFindings(root, requireCachedTool("pyrefly/bin/pyrefly")),
  ty: (root: string) => tyCliFindings(root, requireCachedTool("ty/bin/ty")),
} as const;

/** Findings as both sides are compared: no editor hints, each message's first line (ty's server adds "info:" lines). */
const comparable = (findings: readonly Finding[]) => findingKeys(findings.filter((finding) => finding.severity !== "hint").map(firstLine));

let repo: TempRepo;
beforeAll(() => {
  requireBuild();
  repo = tempRepo({ ".gitignore": ".venv/\n", ...ROOT_FILES("a"), ...ROOT_FILES("b") });
  for (const name of ["a", "b"]) execFileSync("python3", ["-m", "venv", "--without-pip", join(repo.root, name, ".venv")]);
  const lib = join(repo.root, "a/.venv/lib");
  const python = readdirSync(lib).find((entry) => entry.startsWith("python3"));
  writeFileSync(join(lib, python!, "site-packages", "onlya.py"), 'V = "s"\n');
}, 120_000);
afterAll(() => repo?.remove());

/** The CLI's findings in the root `name`, with paths from the checkout's top. */
async function cliIn(checker: keyof typeof CHECKERS, name: string): Promise<Finding[]> {
  const root = join(repo.root, name);
  const found = await CHECKERS[checker](root);
  return found.map((finding) => ({ ...finding, path: relative(repo.root, isAbsolute(finding.path) ? finding.path : join(root, finding.path)) }));
}

describe.each(Object.keys(CHECKERS) as (keyof typeof CHECKERS)[])("%s: each root with the environment its CLI uses there", (checker) => {
  test("lspmcp check from the top equals the CLI run in each root", async () => {
    const [inA, inB] = [await cliIn(checker, "a"), await cliIn(checker, "b")];
    const errors = (findings: Finding[]) => findings.filter((finding) => finding.severity === "error").map((finding) => finding.code);
    // The roots' environments differ where the CLI reads them, so one answer for both cannot pass.
    if (checker === "pyright") expect([errors(inA), errors(inB)]).toEqual([["reportMissingImports"], ["reportMissingImports"]]);
    else expect(errors(inA)).not.toEqual(errors(inB));
    const [a, b] = [comparable(inA), comparable(inB)];
    const config = `[[server]]\nname = "${checker}"\nprofile = "${checker}"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["${checker}"]\n`;
    writeFileSync(join(repo.root, "bridge.toml"), config);
    const run = await runCheckCli(["--format", "json"], { cwd: repo.root });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { items: Finding[]; summary: { not_checked?: unknown[] } };
    expect(report.summary.not_checked).toBeUndefined();
    expect(comparable(report.items)).toEqual([...a, ...b].sort());
  }, 240_000);
});
