import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge } from "../helpers/bridge.js";
import { findingKeys, pyrightCliFindings, type Finding } from "../helpers/differential.js";
import { requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { firstLine, pyreflyCliFindings, tyCliFindings } from "../helpers/python-native-cli.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { bridgeEnv, requireCachedTool } from "../helpers/tool-cache.js";
import { runCheckCli } from "./helpers/cli.js";

// A monorepo whose Python packages configure their type checker each in its own folder: every
// file must be answered as the checker's CLI run in that folder answers it (a package's CI runs
// it there), and a file under no such folder as the CLI run at the top-level. Zero-config, real
// servers; the oracle is the checker's own CLI, run per folder at test time.

/** Untyped code: clean in pyright's basic mode, errors in strict mode. */
const UNTYPED = "def add(a, b):\n    return a + b\n\n\ndef first(items: list) -> object:\n    return items[0]\n";

const FILES = {
  "pyproject.toml": '[project]\nname = "mono"\nversion = "0"\n',
  "packages/strictpkg/pyproject.toml": '[project]\nname = "strictpkg"\nversion = "0"\n\n[tool.pyright]\ntypeCheckingMode = "strict"\n',
  "packages/strictpkg/src/lib.py": UNTYPED,
  // Strict, but without the rule the top-level's basic mode reports here: pyright also checks this
  // file in the top-level's folder, whose findings must not leak into the answer.
  "services/api/pyrightconfig.json": '{ "typeCheckingMode": "strict", "reportAssignmentType": "none" }\n',
  "services/api/app.py": 'def handle(request):\n    return request\n\n\ncount: int = "three"\n',
  // Under no root of its own: the top-level's rules (basic), which find this one error only.
  "tools/script.py": `${UNTYPED}\ncount: int = "three"\n`,
  // A package with a pyproject.toml that configures no type checker is no root.
  "packages/plain/pyproject.toml": '[project]\nname = "plain"\nversion = "0"\n',
  "packages/plain/plain.py": UNTYPED,
};

/** The CLI's findings in `folder` for its own files, with paths from the top-level; `below` are left to their own roots. */
/**
 * A checker's CLI findings run in `folder` (relative to `root`, "" for the root) for its own files:
 * paths from the top-level, files of the `below` folders (their own roots) left out. By default pyright's CLI.
 */
async function cliAt(
  root: string,
  folder: string,
  below: readonly string[],
  cli?: string,
  run: (dir: string, cli?: string) => Promise<Finding[]> = pyrightCliFindings,
): Promise<Finding[]> {
  const found = await run(folder === "" ? root : `${root}/${folder}`, cli);
  return found
    .map((finding) => ({ ...finding, path: folder === "" ? finding.path : `${folder}/${finding.path}` }))
    .filter((finding) => !below.some((nested) => finding.path.startsWith(`${nested}/`)));
}

function itemsOf(stdout: string, server: string): Finding[] {
  return (JSON.parse(stdout).items as (Finding & { server: string })[]).filter((item) => item.server === server);
}

describe("pyright under each package's own configuration (zero-config)", () => {
  let repo: TempRepo;
  beforeAll(() => {
    requireBuild();
    repo = tempRepo(FILES);
  });
  afterAll(() => repo?.remove());

  test("check answers each file as pyright run in its nearest configured folder, and names the folders", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/; pyright projects: packages\/strictpkg, services\/api[;\n]/);
    const nested = ["packages/strictpkg", "services/api"];
    const expected = [
      ...(await cliAt(repo.root, "packages/strictpkg", [])),
      ...(await cliAt(repo.root, "services/api", [])),
      ...(await cliAt(repo.root, "", nested)),
    ];
    // The fixture means what it says: strict errors in both packages, one basic error at the top.
    expect(new Set(expected.map((finding) => finding.path.split("/")[0]))).toEqual(new Set(["packages", "services", "tools"]));
    expect(expected.filter((finding) => finding.path === "tools/script.py").map((finding) => finding.code)).toEqual(["reportAssignmentType"]);
    const topLevelRules = await cliAt(repo.root, "", []);
    expect(topLevelRules.filter((finding) => finding.path === "services/api/app.py").map((finding) => finding.code)).toEqual(["reportAssignmentType"]);
    expect(findingKeys(itemsOf(result.stdout, "pyright"))).toEqual(findingKeys(expected));
  });

  test("a file asked alone gets the same answer, and session_status lists the folders the server was told of", async () => {
    const bridge = await startBridge(null, {}, { cwd: repo.root });
    try {
      const alone = await bridge.ok("diagnostics", { path: "packages/strictpkg/src/lib.py", server: "pyright" });
      expect(findingKeys(alone.items)).toEqual(findingKeys(await cliAt(repo.root, "packages/strictpkg", [])));
      const sessions = (await bridge.ok("session_status")).sessions as { server: string; projects: string[] | null }[];
      expect(sessions.find((session) => session.server === "pyright")?.projects).toEqual(["packages/strictpkg", "services/api"]);
    } finally {
      await bridge.close();
    }
  });
});

describe("lspmcp init in such a monorepo", () => {
  test("writes the project roots it found as a comment on the server", () => {
    const repo = tempRepo(FILES);
    try {
      execFileSync(process.execPath, [BRIDGE_MAIN, "init"], { cwd: repo.root, env: bridgeEnv(), stdio: "ignore" });
      const written = readFileSync(join(repo.root, "bridge.toml"), "utf8");
      expect(written).toContain("# Its projects, found at each start (each file is answered under the one that holds it): packages/strictpkg, services/api.");
    } finally {
      repo.remove();
    }
  });
});

describe("basedpyright under each package's own configuration (zero-config)", () => {
  let repo: TempRepo;
  let basedpyright: string;
  beforeAll(() => {
    requireBuild();
    basedpyright = requireCachedTool("basedpyright/node_modules/.bin/basedpyright");
    // [tool.basedpyright] in a package chooses basedpyright; its own folder and the pyright-configured one are roots.
    repo = tempRepo({
      ...FILES,
      "packages/based/pyproject.toml": '[project]\nname = "based"\nversion = "0"\n\n[tool.basedpyright]\ntypeCheckingMode = "basic"\n',
      "packages/based/based.py": `${UNTYPED}\ncount: int = "three"\n`,
    });
  });
  afterAll(() => repo?.remove());

  test("check answers each file as basedpyright run in its nearest configured folder", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/; basedpyright projects: packages\/based, packages\/strictpkg, services\/api[;\n]/);
    const nested = ["packages/based", "packages/strictpkg", "services/api"];
    const expected = [
      ...(await cliAt(repo.root, "packages/based", [], basedpyright)),
      ...(await cliAt(repo.root, "packages/strictpkg", [], basedpyright)),
      ...(await cliAt(repo.root, "services/api", [], basedpyright)),
      ...(await cliAt(repo.root, "", nested, basedpyright)),
    ];
    expect(findingKeys(itemsOf(result.stdout, "basedpyright"))).toEqual(findingKeys(expected));
  });
});

describe("ty under each package's own configuration (zero-config)", () => {
  let repo: TempRepo;
  let ty: string;
  const WRONG = 'count: int = "three"\n';
  beforeAll(() => {
    requireBuild();
    ty = requireCachedTool("ty/bin/ty");
    repo = tempRepo({
      "pyproject.toml": '[project]\nname = "mono"\nversion = "0"\n',
      "pkg/quiet/ty.toml": '[rules]\ninvalid-assignment = "ignore"\n',
      "pkg/quiet/m.py": WRONG,
      "pkg/loud/pyproject.toml": '[project]\nname = "loud"\nversion = "0"\n\n[tool.ty.rules]\ninvalid-assignment = "warn"\n',
      "pkg/loud/m.py": WRONG,
      "top/m.py": WRONG,
    });
  });
  afterAll(() => repo?.remove());

  const tyAt = (folder: string, below: readonly string[]) => cliAt(repo.root, folder, below, ty, (dir, cli) => tyCliFindings(dir, cli!));

  test("check answers each file as ty check run in its nearest configured folder", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/; ty projects: pkg\/loud, pkg\/quiet[;\n]/);
    const expected = [...(await tyAt("pkg/loud", [])), ...(await tyAt("pkg/quiet", [])), ...(await tyAt("", ["pkg/loud", "pkg/quiet"]))];
    // Ignored in one package, a warning in the other, an error at the top-level.
    expect(expected.map((finding) => `${finding.path} ${finding.severity}`).sort()).toEqual(["pkg/loud/m.py warning", "top/m.py error"]);
    expect(findingKeys(itemsOf(result.stdout, "ty").map(firstLine))).toEqual(findingKeys(expected));
  });
});

describe("pyrefly under each package's own configuration (zero-config)", () => {
  let repo: TempRepo;
  let pyrefly: string;
  const WRONG = 'count: int = "three"\n';
  beforeAll(() => {
    requireBuild();
    pyrefly = requireCachedTool("pyrefly/bin/pyrefly");
    repo = tempRepo({
      "pyrefly.toml": "",
      "pkg/quiet/pyrefly.toml": "[errors]\nbad-assignment = false\n",
      "pkg/quiet/m.py": WRONG,
      "pkg/loud/pyproject.toml": '[project]\nname = "loud"\nversion = "0"\n\n[tool.pyrefly.errors]\nbad-assignment = "warn"\n',
      "pkg/loud/m.py": WRONG,
      "top/m.py": WRONG,
    });
  });
  afterAll(() => repo?.remove());

  const pyreflyAt = (folder: string, below: readonly string[]) => cliAt(repo.root, folder, below, pyrefly, (dir, cli) => pyreflyCliFindings(dir, cli!));

  // pyrefly finds the nearest configuration of each file itself, with the root as its one folder:
  // a guard of pyrefly's behaviour, not a proof of a mechanism of lspmcp's (lspmcp tells it of no
  // folder of its own, unlike pyright's, basedpyright's and ty's above). It fails when a pyrefly
  // upgrade stops finding them; no change to lspmcp's code is seen here. Count it as such.
  test("check answers each file as pyrefly check run in its nearest configured folder (pyrefly's behaviour, guarded)", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    const expected = [...(await pyreflyAt("pkg/loud", [])), ...(await pyreflyAt("pkg/quiet", [])), ...(await pyreflyAt("", ["pkg/loud", "pkg/quiet"]))];
    expect(expected.map((finding) => `${finding.path} ${finding.severity}`).sort()).toEqual(["pkg/loud/m.py warning", "top/m.py error"]);
    expect(findingKeys(itemsOf(result.stdout, "pyrefly"))).toEqual(findingKeys(expected));
  });
});
