import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge, type ToolResult } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { type CliTruth, cliTruth, PYRIGHT, previewAgainstCli } from "../helpers/preview-oracle.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { vendoredRepo } from "../helpers/vendored-repo.js";
import { sharedServers } from "../sharing/helpers/shared.js";
import type { PreviewAnswer, PreviewItem } from "./helpers/preview-answer.js";

// A preview on real code nobody here wrote: Flask 3.1.3's src (tests/fixtures/differential) with
// the pyright profile. An everyday edit — an exported function's signature changed in
// flask/helpers.py, which three other modules call, and a body-only edit in flask/cli.py that fixes
// one pre-existing error and moves the findings below it — previewed with `changes`, in both forms
// (whole texts, and `git diff`'s patch of the same edit), equals pyright's own CLI run on a copy of
// the project and on a copy with the edit written, finding for finding. A plain call after the
// previews answers byte for byte as the one before them.

const repo = vendoredRepo(join(REPO, "tests/fixtures/differential/python-flask"), ".");
const HELPERS = "src/flask/helpers.py";
const CLI = "src/flask/cli.py";
/** A module calling get_debug_flag, never opened by the edit. */
const IMPORTER = "src/flask/app.py";

/** The edit: both files' new texts, each made from the committed one by a replacement that must apply. */
function edited(path: string, from: string, to: string): { path: string; text: string } {
  const text = repo.read(path);
  expect(text).toContain(from);
  return { path, text: text.replace(from, to) };
}
const EDIT = [
  edited(
    HELPERS,
    'def get_debug_flag() -> bool:\n    """Get whether debug mode should be enabled for the app, indicated by the\n    :envvar:`FLASK_DEBUG` environment variable. The default is ``False``.\n    """\n    val = os.environ.get("FLASK_DEBUG")',
    'def get_debug_flag(prefix: str) -> bool:\n    """Get whether debug mode should be enabled for the app, indicated by the\n    :envvar:`{prefix}_DEBUG` environment variable. The default is ``False``.\n    """\n    val = os.environ.get(f"{prefix}_DEBUG")',
  ),
  edited(
    CLI,
    "            value = click.STRING(value, param, ctx).lower()\n",
    '            # click.STRING answers None for None.\n            value = (click.STRING(value, param, ctx) or "").lower()\n',
  ),
];

/** The same edit as `git diff` prints it: written, diffed, taken back. */
function patchOf(): string {
  for (const { path, text } of EDIT) repo.write(path, text);
  const patch = repo.git("diff");
  restore();
  return patch;
}

function restore(): void {
  repo.git("checkout", "--", ".");
  expect(repo.git("status", "--porcelain")).toBe("");
}

const PATCH = patchOf();

const CONFIG = writeConfig(`
[bridge]
max_result_bytes = 4194304
request_timeout_ms = 600000

[shared]
lease_dir = ${JSON.stringify(tempDir("lspmcp-changes-runtime-"))}
linger_ms = 200

[[server]]
name = "pyright"
profile = "pyright"

[[workspace]]
name = "flask"
root = ${JSON.stringify(repo.root)}
servers = ["pyright"]
`);

type Item = PreviewItem;
type Answer = PreviewAnswer;

const started: Bridge[] = [];
afterAll(async () => {
  await Promise.all(started.map((bridge) => bridge.close().catch(() => {})));
  expect(await pollUntil(() => sharedServers({ config: CONFIG }).length === 0, 60_000, 50)).toBe(true);
}, 120_000);

/** The findings as the contract matches them, channels left out (which channel answered first is timing). */
const plain = (items: readonly Item[]) => items.map(({ path, range, severity, code, source, message }) => ({ path, range, severity, code, source, message }));

/** A whole plain call, as the client receives it: its text and its structured content. */
async function whole(bridge: Bridge, path: string): Promise<string> {
  const result: ToolResult = await bridge.call("diagnostics", { path, limit: 1000 });
  expect(result.isError).toBeFalsy();
  return JSON.stringify(result);
}

/** introduced, resolved and the counts of one preview, both lists asked for. */
async function compared(bridge: Bridge, args: Record<string, unknown>) {
  const introduced = await bridge.ok<Answer>("diagnostics", { path: ".", limit: 1000, ...args });
  const resolved = await bridge.ok<Answer>("diagnostics", { path: ".", limit: 1000, ...args, show: "resolved" });
  expect(introduced.not_previewed).toBeUndefined();
  return {
    introduced: plain(introduced.items),
    resolved: plain(resolved.items),
    counts: [introduced.introduced, introduced.resolved, introduced.unchanged] as const,
  };
}

// pyright's CLI on the two copies, once for both modes (about 20 s each on a quiet machine).
let cli: CliTruth;
beforeAll(async () => {
  cli = await cliTruth(PYRIGHT, repo.root, EDIT);
}, 300_000);

describe("a preview on Flask (pyright) equals pyright's CLI on the edited copy", () => {
  test("the CLI's split: the callers of get_debug_flag break, cli.py's `.lower()` on None is resolved", () => {
    // None of the callers is opened by the edit: flask/app.py, flask/cli.py twice, flask/sansio/app.py.
    expect(cli.introduced.map((item) => `${item.path}:${item.range.start.line}`).sort()).toEqual([
      "src/flask/app.py:628",
      "src/flask/cli.py:369",
      "src/flask/cli.py:982",
      "src/flask/sansio/app.py:495",
    ]);
    expect(cli.resolved.map((item) => `${item.path}:${item.range.start.line}`)).toEqual(["src/flask/cli.py:814"]);
    expect(cli.unchanged).toBeGreaterThan(5);
  });

  test.each([
    { mode: "shared", shared: true },
    { mode: "standalone", shared: false },
  ])(
    "both forms, finding for finding; a plain call after them byte-equal to the one before ($mode)",
    async ({ shared }) => {
      const bridge = await startBridge(CONFIG, {}, { shared });
      started.push(bridge);
      const importer = await whole(bridge, IMPORTER);
      if (shared) await expectAttached({ config: CONFIG }, [bridge]);
      const before = await whole(bridge, ".");
      const untouched = (JSON.parse(before) as { structuredContent: Answer }).structuredContent.items;

      const texts = await compared(bridge, { changes: EDIT });
      const patched = await compared(bridge, { changes: { patch: PATCH } });
      expect(repo.git("status", "--porcelain")).toBe("");
      // Nothing left behind: plain calls answer as before the previews, byte for byte. The
      // importer alone first: its server would still hold helpers.py's new text, which a call on
      // "." syncs back from the disk before it asks.
      expect(await whole(bridge, IMPORTER)).toBe(importer);
      expect(await whole(bridge, ".")).toBe(before);

      for (const preview of [texts, patched]) {
        const { actual, expected } = previewAgainstCli(PYRIGHT, { plain: untouched, ...preview }, cli);
        expect(actual).toEqual(expected);
      }
    },
    300_000,
  );
});
