import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys, type Finding } from "../helpers/differential.js";
import { firstLine, pyreflyCliFindings, tyCliFindings } from "../helpers/python-native-cli.js";
import { fixtureRepo, tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";
import { runCheckCli } from "../check/helpers/cli.js";

// Issue 39: ty and pyrefly, the native Python type checkers, on tests/fixtures/workspaces/python-lint
// (astral characters before some columns), and the embedded default choosing them where a project
// configures them.
const FILES = ["cafe/menu.py", "cafe/orders.py"];
const CHECKERS = {
  ty: { binary: "ty/bin/ty", cli: tyCliFindings, version: "1.0.0" },
  pyrefly: { binary: "pyrefly/bin/pyrefly", cli: pyreflyCliFindings, version: "1.5.1" },
} as const;
const withoutHints = (findings: readonly Finding[]) => findingKeys(findings.filter((finding) => finding.severity !== "hint").map(firstLine));

describe.each(Object.keys(CHECKERS) as (keyof typeof CHECKERS)[])("%s on the python-lint fixture", (checker) => {
  let repo: TempRepo;
  let bridge: Bridge;
  beforeAll(async () => {
    requireCachedTool(CHECKERS[checker].binary);
    repo = fixtureRepo("python-lint");
    bridge = await startBridge(writeConfig(profilesConfig(repo.root, [checker])));
  });
  afterAll(async () => {
    await bridge?.close();
    repo?.remove();
  });

  test("its diagnostics are its CLI's, columns in code points after astral characters", async () => {
    const [answer, cli] = await Promise.all([
      diagnostics(bridge, { paths: FILES }),
      CHECKERS[checker].cli(repo.root, requireCachedTool(CHECKERS[checker].binary)),
    ]);
    expect(cli.map((finding) => finding.code)).toContain(checker === "ty" ? "unresolved-reference" : "unknown-name");
    expect(withoutHints(answer.items)).toEqual(withoutHints(cli));
  });

  test("pinned and reported; hover, definition, references and symbols answer", async () => {
    const status = await bridge.ok("session_status");
    expect(status.sessions[0]).toMatchObject({
      state: "ready",
      pinned_version: CHECKERS[checker].version,
      reported_version: `${checker} ${CHECKERS[checker].version}`,
    });
    const source = readFileSync(join(repo.root, "cafe/orders.py"), "utf8");
    const at = { path: "cafe/orders.py", ...positionOf(source, "cups)", "sum(") };
    expect((await bridge.ok("hover", at)).contents).toContain("int");
    expect((await bridge.ok("definition", at)).items.map((item: any) => item.text)).toEqual(["def order(cups: List[int], extras=[]) -> int:"]);
    expect((await bridge.ok("references", at)).items.length).toBe(2);
    expect((await bridge.ok("document_symbols", { path: "cafe/orders.py" })).items.map((item: any) => item.name)).toContain("order");
  });

  test("references reach files never opened: the server indexed the workspace before answering", async () => {
    const bridge2 = await startBridge(writeConfig(profilesConfig(repo.root, [checker])));
    try {
      writeFileSync(join(repo.root, "cafe/till.py"), "from cafe.orders import order\n\nTOTAL = order([1, 2])\n");
      const source = readFileSync(join(repo.root, "cafe/orders.py"), "utf8");
      const at = { path: "cafe/orders.py", ...positionOf(source, "order(") };
      const paths = (await bridge2.ok("references", at)).items.map((item: any) => item.path);
      expect(paths).toContain("cafe/till.py");
    } finally {
      await bridge2.close();
    }
  });

  // Neither server watches the disk: the bridge tells them (the python-native adapter). Without
  // that, kettle.py stays as the server first read it and brew.py reads clean (seen with both).
  // pyrefly is restarted instead (its adapter's `diskChangesNeedRestart`): told, its first answer
  // was the old state's in 7 of 10 runs (docs/contributors/contract-notes.md), so the edit is made five times.
  test("never a false clean after an edit on disk: a change to an imported file reaches the importer, edit after edit", async () => {
    // A star import, so that the finding is one pyrefly's lenient auto configuration reports too.
    writeFileSync(join(repo.root, "cafe/kettle.py"), "def boil() -> int:\n    return 100\n");
    writeFileSync(join(repo.root, "cafe/brew.py"), "from cafe.kettle import *\n\nprint(boil())\n");
    const before = (await diagnostics(bridge, { path: "cafe/brew.py" })).items;
    expect(withoutHints(before), JSON.stringify(before)).toEqual([]);
    const unknown = [["error", checker === "ty" ? "unresolved-reference" : "unknown-name", { line: 3, column: 7 }]];
    for (let edit = 1; edit <= 5; edit++) {
      const renamed = edit % 2 === 1;
      writeFileSync(join(repo.root, "cafe/kettle.py"), `def ${renamed ? "heat" : "boil"}() -> int:\n    return 100\n`);
      // Every other edit asks for two files: the project path's complete look, then file by file.
      const asked = renamed ? { path: "cafe/brew.py" } : { paths: ["cafe/brew.py", "cafe/kettle.py"] };
      const after = (await diagnostics(bridge, asked)).items.filter((item) => item.severity !== "hint");
      expect(
        after.map((item) => [item.severity, item.code, item.range.start]),
        `edit ${edit}`,
      ).toEqual(renamed ? unknown : []);
    }
  });

  // The restart is decided once per change, in the look that finds it: calls that were waiting
  // on that look take the new server, and the new server's look starts from it (no loop).
  test.runIf(checker === "pyrefly")(
    "one change on disk restarts pyrefly once, however many calls find it; a created or deleted file restarts it too",
    async () => {
      const restarts = async () => (await bridge.ok("session_status")).sessions[0].restarts as number;
      const errors = async () =>
        (await diagnostics(bridge, { path: "cafe/brew.py" })).items.filter((item) => item.severity === "error").map((item) => item.code);
      writeFileSync(join(repo.root, "cafe/kettle.py"), "def boil() -> int:\n    return 100\n");
      writeFileSync(join(repo.root, "cafe/brew.py"), "from cafe.kettle import *\n\nprint(boil())\n");
      expect(await errors()).toEqual([]);
      const first = await restarts();
      expect(await errors()).toEqual([]);
      expect(await restarts(), "no change on disk, no restart").toBe(first);

      writeFileSync(join(repo.root, "cafe/kettle.py"), "def heat() -> int:\n    return 100\n");
      const answers = await Promise.all([1, 2, 3, 4].map(() => errors()));
      expect(answers).toEqual([["unknown-name"], ["unknown-name"], ["unknown-name"], ["unknown-name"]]);
      expect(await restarts(), "four calls found one change").toBe(first + 1);
      expect(await errors()).toEqual(["unknown-name"]);
      expect(await restarts(), "the new server's look starts from the restart's").toBe(first + 1);

      rmSync(join(repo.root, "cafe/kettle.py"));
      expect(await errors()).toContain("missing-import");
      expect(await restarts()).toBe(first + 2);
      writeFileSync(join(repo.root, "cafe/kettle.py"), "def boil() -> int:\n    return 100\n");
      expect(await errors()).toEqual([]);
      expect(await restarts()).toBe(first + 3);
    },
  );
});

describe("the embedded default with [tool.pyrefly] and [tool.ruff] in a sub-folder", () => {
  let repo: TempRepo;
  beforeAll(() => {
    requireCachedTool("pyrefly/bin/pyrefly");
    repo = tempRepo({
      "py/pyproject.toml": '[project]\nname = "svc"\nversion = "0"\n\n[tool.pyrefly]\n\n[tool.ruff.lint]\nselect = ["F"]\n',
      "py/svc/app.py": "import os\n\n\ndef hello() -> int:\n    return 'one'\n",
    });
  });
  afterAll(() => repo?.remove());

  test("pyrefly answers Python in pyright's place, ruff beside it; stderr and session_status say why", async () => {
    const result = await runCheckCli(["--format", "json", "--fail-on", "never"], { cwd: repo.root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^lspmcp: config: embedded default for .*: servers pyrefly, ruff; pyrefly: configured by pyproject\.toml \[tool\.pyrefly\]; ruff: configured by pyproject\.toml \[tool\.ruff\]$/m,
    );
    const items = JSON.parse(result.stdout).items as (Finding & { server: string })[];
    expect(items.filter((item) => item.severity !== "hint").map((item) => [item.server, item.code])).toEqual([
      ["ruff", "F401"],
      ["pyrefly", "bad-return"],
    ]);
    const bridge = await startBridge(null, {}, { cwd: repo.root });
    try {
      expect((await bridge.ok("session_status")).chosen).toEqual([
        { server: "pyrefly", reason: "configured by pyproject.toml [tool.pyrefly]" },
        { server: "ruff", reason: "configured by pyproject.toml [tool.ruff]" },
      ]);
    } finally {
      await bridge.close();
    }
  });
});
