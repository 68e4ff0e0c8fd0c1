import { describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { type CliOracle, type CliTruth, cliTruth, GO, PYRIGHT, previewAgainstCli, TSC, type TextChange } from "../helpers/preview-oracle.js";
import { requireBinary } from "../helpers/require-binary.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";
import { type PreviewAnswer, type PreviewItem, startedInFile } from "./helpers/preview-answer.js";

// `diagnostics` with `changes` (CONTRACT §4.4) on real servers, per server kind: TypeScript 7's
// project path (files the bridge watches, answers kept per disk state), pyright (push) and gopls
// (pull with its barrier). The truth is the compiler's own CLI (tsc 7.0.2, pyright's, go build and
// go vet) run on a copy of the workspace and on a copy with the change written: the preview's
// introduced and resolved findings and its counts must be the CLI's split, finding for finding.
// After every preview a plain call must equal the one before it.

type Item = PreviewItem;
type Answer = PreviewAnswer;

interface Kind {
  readonly name: string;
  readonly profile: string;
  readonly oracle: CliOracle;
  /** The files the server claims (its profile's `languages`), to count the files a preview checks. */
  readonly claims: RegExp;
  readonly needs: () => void;
  /**
   * Committed: a library, an importer that breaks, an importer of a name the library lacks (the
   * edit fixes it), one old error the edit leaves, and a file the edit deletes (with an importer).
   */
  readonly files: Record<string, string>;
  /**
   * Several files at once: the library's exported signature changed and the missing name added,
   * a file created with an error, and a deletion where the server can be shown one.
   */
  readonly change: TextChange[];
  /** The files with introduced findings, per the CLI: the importers, never opened, and the created file. */
  readonly breaks: readonly string[];
  /** The files with resolved findings, per the CLI: the importer the edit fixes, and the deleted file. */
  readonly fixes: readonly string[];
  readonly importer: string;
}

/** TypeScript's library, its importer, an importer of a name it lacks and an old error; the edit of the library. */
const TS_LIBRARY: Record<string, string> = {
  "tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
  "lib.ts": "export function scale(a: number): number {\n  return a * 2;\n}\n",
  "use.ts": 'import { scale } from "./lib";\n\nexport const twice = scale(3);\n',
  "fixme.ts": 'import { half } from "./lib";\n\nexport const quarter = half(half(8));\n',
  "old.ts": 'export const count: number = "three";\n',
};
const TS_LIBRARY_EDIT: TextChange = {
  path: "lib.ts",
  text: "export function scale(a: string): number {\n  return a.length * 2;\n}\n\nexport function half(a: number): number {\n  return a / 2;\n}\n",
};
/** What both TypeScript 7 cases share: the profile, tsc as the oracle, and the library's importer. */
const TS7 = { profile: "typescript", oracle: TSC, claims: /\.ts$/, needs: () => {}, importer: "use.ts" } as const;

const KINDS: Kind[] = [
  {
    ...TS7,
    name: "TypeScript 7 (project path)",
    files: {
      ...TS_LIBRARY,
      "gone.ts": 'export const gone: number = "x";\n',
      "keep.ts": 'import { gone } from "./gone";\n\nexport const kept = gone;\n',
    },
    change: [TS_LIBRARY_EDIT, { path: "fresh/new.ts", text: 'export const fresh: number = "no";\n' }, { path: "gone.ts", text: null }],
    breaks: ["fresh/new.ts", "keep.ts", "use.ts"],
    fixes: ["fixme.ts", "gone.ts"],
  },
  {
    // Edits of files' text alone: the answers kept from the plain call before are given again for
    // the files the edits cannot reach (old.ts; chain.ts, whose import keeps its shape), and only
    // the rest is asked under the preview: the edited files and the importer of a changed shape.
    ...TS7,
    name: "TypeScript 7 (project path, edits alone)",
    files: {
      ...TS_LIBRARY,
      "chain.ts": 'import { twice } from "./use";\n\nexport const four: number = twice + 1;\n',
      "body.ts": "export function one(): number {\n  return 1;\n}\n",
    },
    change: [TS_LIBRARY_EDIT, { path: "body.ts", text: "export function one(): number {\n  const label: string = 1;\n  return label.length;\n}\n" }],
    breaks: ["body.ts", "use.ts"],
    fixes: ["fixme.ts"],
  },
  {
    name: "pyright (push)",
    profile: "pyright",
    oracle: PYRIGHT,
    claims: /\.py$/,
    needs: () => {},
    files: {
      "pyrightconfig.json": '{ "typeCheckingMode": "strict" }\n',
      "lib.py": "def scale(a: int) -> int:\n    return a * 2\n",
      "use.py": "from lib import scale\n\ntwice = scale(3)\n",
      "fixme.py": "from lib import half\n\nquarter = half(half(8))\n",
      "old.py": 'count: int = "three"\n',
    },
    // pyright cannot be shown a deletion (tests/changes/preview-edges.test.ts).
    change: [
      { path: "lib.py", text: "def scale(a: str) -> int:\n    return len(a) * 2\n\n\ndef half(a: float) -> float:\n    return a / 2\n" },
      { path: "new.py", text: 'fresh: int = "no"\n' },
    ],
    breaks: ["new.py", "use.py"],
    fixes: ["fixme.py"],
    importer: "use.py",
  },
  {
    name: "gopls (pull)",
    profile: "gopls",
    oracle: GO,
    claims: /(\.go|^go\.mod)$/,
    needs: () => {
      requireBinary("go");
      requireCachedTool("go/bin/gopls");
    },
    // go build skips the importers of a package that does not compile: the library keeps
    // compiling, and the created file's error is in the package that has one already, which nothing imports.
    files: {
      "go.mod": "module example.com/m\n\ngo 1.22\n",
      "lib/lib.go": "package lib\n\nfunc Scale(a int) int {\n\treturn a * 2\n}\n",
      "use/use.go": 'package use\n\nimport "example.com/m/lib"\n\nvar Twice = lib.Scale(3)\n',
      "fixme/fixme.go": 'package fixme\n\nimport "example.com/m/lib"\n\nvar Quarter = lib.Half(8)\n',
      "old/old.go": 'package old\n\nvar Count int = "three"\n',
    },
    // gopls reads a deletion from the disk only (tests/changes/preview-edges.test.ts shows pyright's).
    change: [
      { path: "lib/lib.go", text: "package lib\n\nfunc Scale(a string) int {\n\treturn len(a) * 2\n}\n\nfunc Half(a int) int {\n\treturn a / 2\n}\n" },
      { path: "old/fresh.go", text: 'package old\n\nvar Fresh int = "no"\n' },
    ],
    breaks: ["old/fresh.go", "use/use.go"],
    fixes: ["fixme/fixme.go"],
    importer: "use/use.go",
  },
];

const { started, repos, configs } = startedInFile();

/** The findings as the contract matches them, channels left out (which channel answered first is timing). */
const plain = (items: readonly Item[]) => items.map(({ path, range, severity, code, source, message }) => ({ path, range, severity, code, source, message }));

async function diagnostics(bridge: Bridge, args: Record<string, unknown>): Promise<Answer> {
  return bridge.ok("diagnostics", { path: ".", limit: 1000, ...args });
}

/** introduced, resolved and the counts of one comparison, both lists asked for. */
async function compared(bridge: Bridge, args: Record<string, unknown>) {
  const introduced = await diagnostics(bridge, args);
  const resolved = await diagnostics(bridge, { ...args, show: "resolved" });
  expect(introduced.not_previewed).toBeUndefined();
  return {
    introduced: plain(introduced.items),
    resolved: plain(resolved.items),
    counts: [introduced.introduced, introduced.resolved, introduced.unchanged] as const,
    files: introduced.files,
  };
}

function setUp(kind: Kind): { repo: TempRepo; config: string } {
  kind.needs();
  const repo = tempRepo(kind.files);
  repos.push(repo);
  const extra = `[shared]\nlease_dir = ${JSON.stringify(tempDir("lspmcp-changes-runtime-"))}\nlinger_ms = 200\n`;
  const config = writeConfig(profilesConfig(repo.root, [kind.profile], { extra }));
  configs.push(config);
  return { repo, config };
}

async function bridgeOf(config: string, shared: boolean): Promise<Bridge> {
  const bridge = await startBridge(config, {}, { shared });
  started.push(bridge);
  return bridge;
}

/** The CLI's truth of a kind, run once for both modes (every repository of a kind holds the same files). */
const truths = new Map<string, Promise<CliTruth>>();
function truthOf(kind: Kind, root: string): Promise<CliTruth> {
  const truth = truths.get(kind.name) ?? cliTruth(kind.oracle, root, kind.change);
  truths.set(kind.name, truth);
  return truth;
}

/** The files a preview checks: the kind's files its server claims, less the deleted, with the created. */
function filesAfter(kind: Kind): number {
  const paths = new Set(Object.keys(kind.files).filter((path) => kind.claims.test(path)));
  for (const { path, text } of kind.change) text === null ? paths.delete(path) : paths.add(path);
  return paths.size;
}

const pathsOf = (findings: readonly { path: string }[]) => [...new Set(findings.map((finding) => finding.path))].sort();

describe.each(KINDS)("changes on $name", (kind) => {
  test.each([
    { mode: "standalone", shared: false },
    { mode: "shared", shared: true },
  ])(
    "a preview equals the CLI on the changed copy, finding for finding, and leaves nothing behind ($mode)",
    async ({ shared }) => {
      const { repo, config } = setUp(kind);
      const truth = truthOf(kind, repo.root);
      const bridge = await bridgeOf(config, shared);
      const untouched = (await diagnostics(bridge, {})).items;
      if (shared) await expectAttached({ config }, [bridge]);
      const importer = plain((await diagnostics(bridge, { path: kind.importer })).items);

      const preview = await compared(bridge, { changes: kind.change });
      expect(repo.status()).toBe("");
      // Nothing left behind: a plain call answers as before the preview.
      // The importer alone first: its server would still hold the library's new text, or an answer made from it.
      expect(plain((await diagnostics(bridge, { path: kind.importer })).items)).toEqual(importer);
      expect(plain((await diagnostics(bridge, {})).items)).toEqual(plain(untouched));

      // The CLI's own split is what the scenario is for, so that a preview that misses a part cannot pass:
      // the importers (never opened) and the created file break, the fixed importer (and the deleted file) resolve.
      const cli = await truth;
      expect(pathsOf(cli.introduced)).toEqual(kind.breaks);
      expect(pathsOf(cli.resolved)).toEqual(kind.fixes);
      expect(cli.unchanged).toBeGreaterThan(0);
      const { actual, expected } = previewAgainstCli(
        kind.oracle,
        { plain: untouched, introduced: preview.introduced, resolved: preview.resolved, counts: preview.counts },
        cli,
      );
      expect(actual).toEqual(expected);
      expect(preview.files).toBe(filesAfter(kind));
    },
    300_000,
  );
});

describe("gopls: a file created in a folder with no Go file on disk", () => {
  // gopls takes its packages from the disk: a document of a package the disk does not have yet (a
  // folder that does not exist, or holds no Go file) is published with no diagnostics and never
  // checked, with no notice (checked only when a later change happens to be diagnosed after gopls
  // loaded it: timing). The preview must not read it as clean: it is listed in not_checked, with
  // why and no findings, every time, while go build finds its error in the written copy.
  test("is listed as not checked, never clean, and the rest equals go build and go vet", async () => {
    const kind = KINDS.find((entry) => entry.profile === "gopls")!;
    const { config, repo } = setUp({ ...kind, files: { ...kind.files, "docs/README.md": "notes\n" } });
    const change = [
      { path: "fresh/fresh.go", text: 'package fresh\n\nvar Fresh int = "no"\n' },
      { path: "docs/docs.go", text: 'package docs\n\nvar Docs int = "no"\n' },
      // In a folder with a package on disk: answered, and its error introduced.
      { path: "old/fresh.go", text: 'package old\n\nvar Fresh int = "no"\n' },
    ];
    const truth = cliTruth(GO, repo.root, change);
    const bridge = await bridgeOf(config, false);
    const untouched = (await diagnostics(bridge, {})).items;
    const answer = await diagnostics(bridge, { changes: change });
    const cli = await truth;
    // Silence would be a false clean: go build finds an error in each new package.
    expect(pathsOf(cli.introduced)).toEqual(["docs/docs.go", "fresh/fresh.go", "old/fresh.go"]);
    const why = "a new package: gopls reads packages from the disk, and this folder holds no Go file there yet";
    expect(answer.not_checked).toEqual([`docs/docs.go (gopls): ${why}`, `fresh/fresh.go (gopls): ${why}`]);
    expect(answer.not_previewed).toBeUndefined();
    // The files gopls did check are the CLI's, finding for finding.
    const checked = <T extends { path: string }>(findings: readonly T[]) =>
      findings.filter((finding) => finding.path !== "docs/docs.go" && finding.path !== "fresh/fresh.go");
    const resolved = await diagnostics(bridge, { changes: change, show: "resolved" });
    const { actual, expected } = previewAgainstCli(
      GO,
      {
        plain: untouched,
        introduced: plain(answer.items),
        resolved: plain(resolved.items),
        counts: [answer.introduced, answer.resolved, answer.unchanged],
      },
      { ...cli, introduced: checked(cli.introduced) },
    );
    expect(actual).toEqual(expected);
    // Nothing left behind.
    expect(plain((await diagnostics(bridge, {})).items)).toEqual(plain(untouched));
  }, 300_000);
});
