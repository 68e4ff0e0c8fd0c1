import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { requireBinary } from "../helpers/require-binary.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { profilesConfig } from "../helpers/workspace.js";
import { type PreviewAnswer, type PreviewItem, startedInFile } from "./helpers/preview-answer.js";

// `diagnostics` with `changes` (CONTRACT §4.4) on real servers, per server kind: TypeScript 7's
// project path (files the bridge watches, answers kept per disk state), pyright (push) and gopls
// (pull with its barrier). The truth is the same change written, `since: "HEAD"` on the clean
// tree, and the change taken back: the preview must equal it finding for finding. After every
// preview a plain call must equal the one before it, and a call racing a preview must answer as
// if there were none.

type Item = PreviewItem;
type Answer = PreviewAnswer;

interface Kind {
  readonly name: string;
  readonly profile: string;
  readonly needs: () => void;
  /** Committed: a library, an importer never opened, one old error, a file to delete. */
  readonly files: Record<string, string>;
  /** The library's exported signature changed (its importer breaks), and a file created with an error. */
  readonly change: Record<string, string>;
  /** A file whose deletion the server can be shown (the bridge watches its files), else null. */
  readonly deleted: string | null;
  /** The files with introduced findings: the importer, never opened, and the created file. */
  readonly breaks: readonly string[];
  readonly importer: string;
}

const KINDS: Kind[] = [
  {
    name: "TypeScript 7 (project path)",
    profile: "typescript",
    needs: () => {},
    files: {
      "tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
      "lib.ts": "export function scale(a: number): number {\n  return a * 2;\n}\n",
      "use.ts": 'import { scale } from "./lib";\n\nexport const twice = scale(3);\n',
      "old.ts": 'export const count: number = "three";\n',
      "gone.ts": 'export const gone: number = "x";\n',
    },
    change: {
      "lib.ts": "export function scale(a: string): number {\n  return a.length * 2;\n}\n",
      "new.ts": 'export const fresh: number = "no";\n',
    },
    deleted: "gone.ts",
    breaks: ["new.ts", "use.ts"],
    importer: "use.ts",
  },
  {
    name: "pyright (push)",
    profile: "pyright",
    needs: () => {},
    files: {
      "pyrightconfig.json": '{ "typeCheckingMode": "strict" }\n',
      "lib.py": "def scale(a: int) -> int:\n    return a * 2\n",
      "use.py": "from lib import scale\n\ntwice = scale(3)\n",
      "old.py": 'count: int = "three"\n',
    },
    change: {
      "lib.py": "def scale(a: str) -> int:\n    return len(a) * 2\n",
      "new.py": 'fresh: int = "no"\n',
    },
    deleted: null,
    breaks: ["new.py", "use.py"],
    importer: "use.py",
  },
  {
    name: "gopls (pull)",
    profile: "gopls",
    needs: () => {
      requireBinary("go");
      requireCachedTool("go/bin/gopls");
    },
    files: {
      "go.mod": "module example.com/m\n\ngo 1.22\n",
      "lib/lib.go": "package lib\n\nfunc Scale(a int) int {\n\treturn a * 2\n}\n",
      "use/use.go": 'package use\n\nimport "example.com/m/lib"\n\nvar Twice = lib.Scale(3)\n',
      "old/old.go": 'package old\n\nvar Count int = "three"\n',
    },
    change: {
      "lib/lib.go": "package lib\n\nfunc Scale(a string) int {\n\treturn len(a) * 2\n}\n",
      "lib/new.go": 'package lib\n\nvar Fresh int = "no"\n',
    },
    deleted: null,
    breaks: ["lib/new.go", "use/use.go"],
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
  return {
    introduced: plain(introduced.items),
    resolved: plain(resolved.items),
    counts: [introduced.introduced, introduced.resolved, introduced.unchanged],
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

/** Writes the change (and the deletion) into the work tree. */
function write(repo: TempRepo, kind: Kind): void {
  for (const [path, text] of Object.entries(kind.change)) writeFileSync(join(repo.root, path), text);
  if (kind.deleted) rmSync(join(repo.root, kind.deleted));
}

/** Takes the change back: the tree as committed, created files gone. */
function restore(repo: TempRepo): void {
  execFileSync("git", ["checkout", "--", "."], { cwd: repo.root });
  execFileSync("git", ["clean", "-fdq"], { cwd: repo.root });
  expect(repo.status()).toBe("");
}

function changesOf(kind: Kind): { path: string; text: string | null }[] {
  return [...Object.entries(kind.change).map(([path, text]) => ({ path, text })), ...(kind.deleted ? [{ path: kind.deleted, text: null }] : [])];
}

describe.each(KINDS)("changes on $name", (kind) => {
  test.each([
    { mode: "standalone", shared: false },
    { mode: "shared", shared: true },
  ])(
    "a preview equals writing the change + since HEAD, finding for finding, and leaves nothing behind ($mode)",
    async ({ shared }) => {
      const { repo, config } = setUp(kind);
      const bridge = await bridgeOf(config, shared);
      const untouched = plain((await diagnostics(bridge, {})).items);
      expect(untouched.length).toBeGreaterThan(0);
      if (shared) await expectAttached({ config }, [bridge]);
      const importer = plain((await diagnostics(bridge, { path: kind.importer })).items);

      const preview = await compared(bridge, { changes: changesOf(kind) });
      expect(repo.status()).toBe("");
      // Nothing left behind: a plain call answers as before the preview.
      // The importer alone first: its server would still hold the library's new text, or an answer made from it.
      expect(plain((await diagnostics(bridge, { path: kind.importer })).items)).toEqual(importer);
      expect(plain((await diagnostics(bridge, {})).items)).toEqual(untouched);

      write(repo, kind);
      const truth = await compared(bridge, { since: "HEAD" });
      restore(repo);
      expect(plain((await diagnostics(bridge, {})).items)).toEqual(untouched);

      // The importer (never opened) breaks, the created file's error is new, the old error unchanged.
      expect([...new Set(truth.introduced.map((item) => item.path))].sort()).toEqual(kind.breaks);
      expect(preview.introduced).toEqual(truth.introduced);
      expect(preview.resolved).toEqual(truth.resolved);
      expect(preview.counts).toEqual(truth.counts);
      expect(preview.files).toBe(truth.files);
    },
    300_000,
  );
});
