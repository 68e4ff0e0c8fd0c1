import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { prepareCheckInput } from "../../servers/maude/src/check-input.js";
import type { CheckReport } from "../../servers/maude/src/checker.js";
import { DiagnosticsStore } from "../../servers/maude/src/diagnostics-store.js";
import { collectLoadedFiles, resolveLoadTarget } from "../../servers/maude/src/load-graph.js";
import { parseOptions } from "../../servers/maude/src/options.js";
import { attributeWarnings, classifyRun } from "../../servers/maude/src/outcome.js";
import type { MaudeRun } from "../../servers/maude/src/run-maude.js";
import { parseMaudeStderr } from "../../servers/maude/src/stderr-parser.js";

const work = mkdtempSync(join(tmpdir(), "maude-units-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("parseOptions", () => {
  const env = { PATH: "/usr/bin:/bin" };
  test("defaults", () => {
    expect(parseOptions(undefined, env, "/")).toEqual({ ok: true, options: { maudePath: "/usr/bin/maude", timeoutMs: 60_000, maxConcurrentChecks: 1 } });
    expect(parseOptions(null, env, "/").ok).toBe(true);
  });
  test("values, and a relative maudePath resolved against cwd", () => {
    const r = parseOptions({ maudePath: "./maude", timeoutMs: 5, maxConcurrentChecks: 3 }, env, "/usr/bin");
    expect(r).toEqual({ ok: true, options: { maudePath: "/usr/bin/maude", timeoutMs: 5, maxConcurrentChecks: 3 } });
  });
  test("every problem is listed", () => {
    const r = parseOptions({ maudePath: 3, timeoutMs: 1.5, maxConcurrentChecks: 0, extra: true }, env, "/");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems).toHaveLength(4);
    expect(parseOptions([], env, "/").ok).toBe(false);
  });
});

describe("classifyRun", () => {
  const run = (over: Partial<MaudeRun>): MaudeRun => ({
    exitCode: 0,
    signal: null,
    timedOut: false,
    spawnError: null,
    stderr: "",
    stderrTruncated: false,
    durationMs: 1,
    ...over,
  });
  const parsed = parseMaudeStderr("");
  test.each([
    [run({}), null],
    [run({ signal: "SIGSEGV", exitCode: null }), "maude/crashed"],
    [run({ timedOut: true, signal: "SIGKILL", exitCode: null }), "maude/timeout"],
    [run({ exitCode: 2 }), "maude/failed"],
    [run({ spawnError: new Error("ENOENT"), exitCode: null }), "maude/spawn-failed"],
  ])("%#", (r, code) => {
    expect(classifyRun(r, parsed, 10)?.code ?? null).toBe(code);
  });
  test("a <command line> warning is maude/unreadable", () => {
    expect(classifyRun(run({}), parseMaudeStderr("Warning: <command line>: unable to locate file: x\n"), 10)?.code).toBe("maude/unreadable");
  });
});

describe("attributeWarnings", () => {
  test("by base name; <standard input> and unknown files go to the main file", () => {
    const w = parseMaudeStderr(
      ['Warning: "a.maude", line 2: x.', 'Warning: "b.maude", line 3: y.', "Warning: <standard input>, line 4: z.", 'Warning: "c.maude", line 5: w.'].join(
        "\n",
      ),
    ).warnings;
    const out = attributeWarnings(
      w,
      "/p/a.maude",
      new Map([
        ["a.maude", "/p/a.maude"],
        ["b.maude", "/p/lib/b.maude"],
      ]),
    );
    expect(Object.fromEntries(out)).toEqual({
      "/p/a.maude": [
        { line: 2, message: "x." },
        { line: 4, message: "z." },
        { line: 1, message: '"c.maude", line 5: w.' },
      ],
      "/p/lib/b.maude": [{ line: 3, message: "y." }],
    });
  });
});

describe("load graph and check input", () => {
  mkdirSync(join(work, "lib/deeper"), { recursive: true });
  writeFileSync(join(work, "main.maude"), "load lib/a\nin lib/b.fm\n");
  writeFileSync(join(work, "lib/a.maude"), "load deeper/c\n");
  writeFileSync(join(work, "lib/b.fm"), "fmod B is endfm\n");
  writeFileSync(join(work, "lib/deeper/c.maude"), "fmod C is endfm\n");

  test("resolution tries the name, then .maude, then .fm, relative to the loading file", () => {
    expect(resolveLoadTarget(work, "lib/a")).toBe(join(work, "lib/a.maude"));
    expect(resolveLoadTarget(work, "lib/b")).toBe(join(work, "lib/b.fm"));
    expect(resolveLoadTarget(work, "nope")).toBeNull();
  });

  test("collects transitively, by base name", () => {
    const main = join(work, "main.maude");
    const files = collectLoadedFiles(main, readFileSync(main, "utf8"), (p) => readFileSync(p, "utf8"));
    expect(Object.fromEntries(files)).toEqual({
      "main.maude": main,
      "a.maude": join(work, "lib/a.maude"),
      "b.fm": join(work, "lib/b.fm"),
      "c.maude": join(work, "lib/deeper/c.maude"),
    });
  });

  test("same bytes on disk: maude reads the file itself", () => {
    const main = join(work, "main.maude");
    const input = prepareCheckInput(main, readFileSync(main, "utf8"));
    expect([input.file, input.cwd, input.tempDir]).toEqual([main, work, null]);
  });

  test("a changed buffer: a private copy with the same base name and absolute loads, removed by cleanup", () => {
    const main = join(work, "main.maude");
    const input = prepareCheckInput(main, "load lib/a\nload missing\nfmod X is endfm\n");
    expect(input.tempDir).not.toBeNull();
    expect(input.file).toBe(join(input.tempDir!, "main.maude"));
    expect(input.cwd).toBe(work);
    expect(readFileSync(input.file, "utf8")).toBe(`load ${join(work, "lib/a.maude")}\nload missing\nfmod X is endfm\n`);
    input.cleanup();
    expect(readdirSync(tmpdir())).not.toContain(input.tempDir!.split("/").at(-1));
  });
});

describe("DiagnosticsStore", () => {
  const d = (message: string) => ({ message, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } });
  const rep = (uri: string, entries: Record<string, string[]>): CheckReport => ({
    uri,
    version: 1,
    diagnostics: new Map(Object.entries(entries).map(([k, v]) => [k, v.map(d)])),
    failure: null,
    otherStderr: [],
    durationMs: 0,
  });
  test("own checks win; otherwise the latest loader; closing an owner falls back", () => {
    const s = new DiagnosticsStore();
    expect(s.apply(rep("a", { a: [], n: ["from a"] })).sort()).toEqual(["a", "n"]);
    s.apply(rep("b", { b: [], n: ["from b"] }));
    expect(s.view("n").map((x) => x.message)).toEqual(["from b"]);
    expect(s.removeOwner("b")).toEqual(["b", "n"]);
    expect(s.view("n").map((x) => x.message)).toEqual(["from a"]);
    s.apply(rep("n", { n: ["own"] }));
    s.apply(rep("a", { a: [], n: ["from a again"] }));
    expect(s.view("n").map((x) => x.message)).toEqual(["own"]);
    expect(s.apply(rep("a", { a: [] })).sort()).toEqual(["a", "n"]);
    s.removeOwner("n");
    expect(s.view("n")).toEqual([]);
  });
});
