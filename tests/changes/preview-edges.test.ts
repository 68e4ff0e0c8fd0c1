import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { cliTruth, previewAgainstCli, TSC } from "../helpers/preview-oracle.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { profilesConfig } from "../helpers/workspace.js";
import { type PreviewAnswer, startedInFile } from "./helpers/preview-answer.js";

// `changes` beyond tests/changes/preview.test.ts: the patch form (held to tsc on the written
// copy), a call racing a preview (same peer and another peer of a shared bridge), a deletion a
// server cannot be shown, and bad input (typed errors, nothing changed in any server's view).

/** Many importers, so that a preview's run with the changes lasts long enough for a call to race it. */
const IMPORTERS = 600;
const TS_FILES: Record<string, string> = {
  "tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
  "lib.ts": "export function scale(a: number): number {\n  return a * 2;\n}\n",
  "use.ts": 'import { scale } from "./lib";\n\nexport const twice = scale(3);\n',
};
for (let i = 0; i < IMPORTERS; i++) TS_FILES[`more/use${i}.ts`] = `import { scale } from "../lib";\n\nexport const twice${i} = scale(${i});\n`;
const BREAKING = "export function scale(a: string): number {\n  return a.length * 2;\n}\n";
const PY_FILES: Record<string, string> = {
  "lib.py": "def scale(a: int) -> int:\n    return a * 2\n",
  "use.py": "from lib import scale\n\ntwice = scale(3)\n",
};
for (let i = 0; i < IMPORTERS; i++) PY_FILES[`use${i}.py`] = `from lib import scale\n\ntwice${i} = scale(${i})\n`;
const PY_BREAKING = "def scale(a: str) -> int:\n    return len(a) * 2\n";

type Answer = PreviewAnswer;

const { started, repos, configs } = startedInFile();

function setUp(files: Record<string, string>, profile: string, bridgeLines = ""): { repo: TempRepo; config: string } {
  const repo = tempRepo(files);
  repos.push(repo);
  const extra = `[shared]\nlease_dir = ${JSON.stringify(tempDir("lspmcp-changes-runtime-"))}\nlinger_ms = 200\n`;
  const config = writeConfig(profilesConfig(repo.root, [profile], { extra }).replace("[bridge]\n", `[bridge]\nmax_result_bytes = 1048576\n${bridgeLines}`));
  configs.push(config);
  return { repo, config };
}

async function bridgeOf(config: string, shared: boolean): Promise<Bridge> {
  const bridge = await startBridge(config, {}, { shared });
  started.push(bridge);
  return bridge;
}

const plain = (answer: Answer) => answer.items.map(({ channels: _channels, ...item }) => item);
const diagnostics = (bridge: Bridge, args: Record<string, unknown>): Promise<Answer> => bridge.ok("diagnostics", { path: ".", limit: 1000, ...args });

describe("the patch form", () => {
  test("a git diff (a change, a created file, a rename) previews as the same texts given whole, and as tsc says of them written", async () => {
    const { repo, config } = setUp({ ...TS_FILES }, "typescript");
    const changes = [
      { path: "lib.ts", text: BREAKING },
      { path: "fresh.ts", text: 'export const fresh: number = "no";\n' },
      { path: "more/use0.ts", text: null },
      { path: "more/moved0.ts", text: TS_FILES["more/use0.ts"]! },
    ];
    const truth = cliTruth(TSC, repo.root, changes);
    const bridge = await bridgeOf(config, false);
    writeFileSync(join(repo.root, "lib.ts"), BREAKING);
    writeFileSync(join(repo.root, "fresh.ts"), 'export const fresh: number = "no";\n');
    execFileSync("git", ["mv", "more/use0.ts", "more/moved0.ts"], { cwd: repo.root });
    execFileSync("git", ["add", "-A"], { cwd: repo.root });
    const patch = execFileSync("git", ["diff", "--cached"], { cwd: repo.root, encoding: "utf8" });
    execFileSync("git", ["reset", "-q", "--hard"], { cwd: repo.root });
    execFileSync("git", ["clean", "-fdq"], { cwd: repo.root });
    expect(repo.status()).toBe("");
    expect(patch).toMatch(/^rename from more\/use0\.ts$/m);

    const before = await diagnostics(bridge, {});
    const whole = await diagnostics(bridge, { changes });
    const patched = await diagnostics(bridge, { changes: { patch } });
    expect(whole.introduced).toBe(IMPORTERS + 2);
    expect(plain(patched)).toEqual(plain(whole));
    expect([patched.introduced, patched.resolved, patched.unchanged]).toEqual([whole.introduced, whole.resolved, whole.unchanged]);
    // The tree on disk is clean, so nothing can be resolved: the resolved list is the empty one its count must then be.
    const counts = [whole.introduced, whole.resolved, whole.unchanged] as const;
    const { actual, expected } = previewAgainstCli(TSC, { plain: before.items, introduced: whole.items, resolved: [], counts }, await truth);
    expect(actual).toEqual(expected);
  }, 300_000);
});

describe.each([
  { mode: "standalone, the same client", shared: false, profile: "pyright" },
  { mode: "shared, another peer", shared: true, profile: "pyright" },
  { mode: "standalone, the same client", shared: false, profile: "typescript" },
  { mode: "shared, another peer", shared: true, profile: "typescript" },
])("a call racing a preview on $profile ($mode)", ({ shared, profile }) => {
  test("waits, and answers as if the preview never happened", async () => {
    const py = profile === "pyright";
    const { config } = setUp(py ? { ...PY_FILES } : { ...TS_FILES }, profile);
    const bridge = await bridgeOf(config, shared);
    const racer = shared ? await bridgeOf(config, true) : bridge;
    // The racer asks about the changed file too: read from disk, it would be synced back over the
    // preview's text in the middle of the preview, were the racer not made to wait.
    const asked = py ? ["lib.py", "use.py"] : ["lib.ts", "use.ts"];
    const untouched = plain(await diagnostics(racer, { path: undefined, paths: asked }));
    expect(untouched).toEqual([]);
    // Two peers of one shared server: between two bridges of their own there would be no race.
    if (shared) {
      await diagnostics(bridge, { path: undefined, paths: asked });
      await expectAttached({ config }, [bridge, racer]);
    }

    // The racing call goes out once the preview has checked the scope on disk (half its files):
    // its servers then see the changes.
    let raced: Promise<Answer> | null = null;
    let racedAnswered = false;
    const preview = bridge.client.callTool(
      {
        name: "diagnostics",
        arguments: { path: ".", limit: 1000, changes: [py ? { path: "lib.py", text: PY_BREAKING } : { path: "lib.ts", text: BREAKING }] },
      },
      undefined,
      {
        timeout: 300_000,
        onprogress: ({ progress, total }) => {
          if (raced !== null || total === undefined || progress <= total / 2) return;
          raced = diagnostics(racer, { path: undefined, paths: asked });
          raced.then(
            () => (racedAnswered = true),
            () => (racedAnswered = true),
          );
        },
      },
    );
    // Read as the preview's answer arrives: the racing call, sent during the preview, is still waiting for it.
    const { result, answeredBefore } = await preview.then((result) => ({ result, answeredBefore: racedAnswered }));
    // On one client both answers come down one pipe, in the order the bridge sent them. Another
    // peer's answer comes down a pipe of its own: right after the preview ends it may be read
    // first, so there the racer's answer (read from disk, below) is what shows that it waited.
    if (!shared) expect(answeredBefore).toBe(false);
    expect((result.structuredContent as unknown as Answer).introduced).toBe(IMPORTERS + 1);
    expect(raced).not.toBeNull();
    expect(plain(await raced!)).toEqual(untouched);
  }, 300_000);
});

describe("what a server cannot be shown", () => {
  test("a deletion pyright cannot be told of: pyright is not previewed, and none of its findings counted", async () => {
    const { config } = setUp({ "a.py": 'count: int = "three"\n', "b.py": "from a import count\n\nx = count\n" }, "pyright");
    const bridge = await bridgeOf(config, false);
    const before = plain(await diagnostics(bridge, {}));
    const answer = await diagnostics(bridge, { changes: [{ path: "a.py", text: null }] });
    expect(answer.not_previewed).toEqual([{ server: "pyright", source: null }]);
    expect([answer.introduced, answer.resolved, answer.unchanged, answer.items.length]).toEqual([0, 0, 0, 0]);
    expect(plain(await diagnostics(bridge, {}))).toEqual(before);
  }, 300_000);
});

describe("bad input", () => {
  test("typed errors, and nothing changed in any server's view", async () => {
    const { repo, config } = setUp({ ...TS_FILES }, "typescript", "max_preview_files = 2\n");
    const bridge = await bridgeOf(config, false);
    const before = plain(await diagnostics(bridge, {}));
    const call = (args: Record<string, unknown>) => bridge.fail("diagnostics", { path: ".", ...args });

    const stale = [
      "--- a/lib.ts",
      "+++ b/lib.ts",
      "@@ -1,3 +1,3 @@",
      "-export function scale(a: bigint): number {",
      "+export function scale(a: string): number {",
      "   return a * 2;",
      " }",
      "",
    ].join("\n");
    const notApplying = await call({ changes: { patch: stale } });
    expect(notApplying.code).toBe("InvalidArguments");
    expect(notApplying.details.patch).toEqual({ file: "lib.ts", hunk: 1, header: "@@ -1,3 +1,3 @@" });

    expect((await call({ changes: [{ path: "../outside.ts", text: "x" }] })).code).toBe("PathOutsideWorkspace");
    const many = await call({
      changes: [
        { path: "a.ts", text: "" },
        { path: "b.ts", text: "" },
        { path: "c.ts", text: "" },
      ],
    });
    expect([many.code, many.details.limit]).toEqual(["InvalidArguments", 2]);
    const both = await call({ since: "HEAD", changes: [{ path: "lib.ts", text: BREAKING }] });
    expect([both.code, both.details.fields]).toEqual(["InvalidArguments", ["changes", "since"]]);
    expect((await call({ changes: [{ path: "missing.ts", text: null }] })).code).toBe("FileNotFound");
    // The first good change after them: a patch that applies, given only when the bad ones changed nothing.
    expect(plain(await diagnostics(bridge, {}))).toEqual(before);
    expect(repo.status()).toBe("");
  }, 300_000);
});
