import { readdirSync } from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { tempDir } from "../helpers/temp.js";
import { fixtureText, fixtureUri, requireMaude, ServerProcess } from "./helpers/server-process.js";

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function started(options: Record<string, unknown> = {}): Promise<ServerProcess> {
  requireMaude();
  server = new ServerProcess();
  await server.initialize(options);
  return server;
}

/** (line, message) pairs with one-based lines, as people read them. */
function lines(diags: readonly { range: { start: { line: number } }; message: string | { value: string } }[]): Array<[number, string]> {
  return diags.map((d) => [d.range.start.line + 1, typeof d.message === "string" ? d.message : d.message.value]);
}

describe("diagnostics of the fixtures", () => {
  test("initialize answers serverInfo, utf-16 and the capabilities", async () => {
    requireMaude();
    server = new ServerProcess();
    const init = await server.initialize();
    expect(init.serverInfo).toEqual({ name: "lspmcp-maude-server", version: "0.1.0" });
    expect(init.capabilities.positionEncoding).toBe("utf-16");
    expect(init.capabilities.diagnosticProvider).toMatchObject({ interFileDependencies: true, workspaceDiagnostics: false });
    expect(init.capabilities.documentSymbolProvider).toBe(true);
  });

  test("a clean module publishes an empty list for its version; pull agrees", async () => {
    const s = await started();
    const uri = await s.open("clean.maude", undefined, 7);
    expect((await s.waitForPublish(uri, 7)).diagnostics).toEqual([]);
    expect(await s.pull(uri)).toEqual([]);
  });

  test("a file with no module is clean", async () => {
    const s = await started();
    const uri = await s.open("no-module.maude");
    expect((await s.waitForPublish(uri, 1)).diagnostics).toEqual([]);
  });

  test("a recoverable warning: missing is keyword. on line 6", async () => {
    const s = await started();
    const uri = await s.open("recoverable.maude");
    const pub = await s.waitForPublish(uri, 1);
    expect(lines(pub.diagnostics)).toEqual([[6, "missing is keyword."]]);
    expect(pub.diagnostics[0]).toMatchObject({ severity: 2, source: "maude" });
  });

  test("many warnings, multi-line ones included, with narrowed ranges", async () => {
    const s = await started();
    const uri = await s.open("many-warnings.maude");
    const diags = (await s.waitForPublish(uri, 1)).diagnostics;
    expect(diags.length).toBe(14);
    expect(diags.every((d) => d.severity === 2)).toBe(true);
    const text = fixtureText("many-warnings.maude").split("\n");
    const covered = (i: number): string => {
      const r = diags[i]!.range;
      return text[r.start.line]!.slice(r.start.character, r.end.character);
    };
    expect(lines(diags).slice(0, 6)).toEqual([
      [12, "missing space between Foo and period."],
      [5, "undeclared sort Bar."],
      [11, "assoc operator k has 0 rather than 2 domain sorts."],
      [8, "bad token h."],
      [8, "no parse for statement\neq g (N) = h (N) ."],
      [9, "didn't expect token N:\neq g ( N ) = N N <---*HERE*"],
    ]);
    expect([covered(0), covered(1), covered(3), covered(5)]).toEqual(["Foo", "Bar", "h", "N"]);
    expect(diags[5]!.range.start.character).toBe(14); // the third N of the statement, not the first
  });

  test("non-ASCII comments: the range is in UTF-16 code units", async () => {
    const s = await started();
    const uri = await s.open("non-ascii.maude");
    const diags = (await s.waitForPublish(uri, 1)).diagnostics;
    expect(lines(diags)).toEqual([
      [6, "bad token h."],
      [6, "no parse for statement\neq g (N) = h (N) ."],
    ]);
    const line6 = fixtureText("non-ascii.maude").split("\n")[5]!;
    expect(diags[0]!.range.start.character).toBe(line6.indexOf("h("));
  });

  test("a binary file is one error maude/binary on line 1", async () => {
    const s = await started();
    const uri = await s.open("binary.maude");
    const diags = (await s.waitForPublish(uri, 1)).diagnostics;
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ severity: 1, code: "maude/binary", range: { start: { line: 0, character: 0 } } });
  });

  test("a loaded neighbour's warning is published for the neighbour", async () => {
    const s = await started();
    const uri = await s.open("loads-neighbour.maude");
    expect(lines((await s.waitForPublish(uri, 1)).diagnostics)).toEqual([[6, "undeclared sort Nowhere."]]);
    const neighbour = await s.waitForPublish(fixtureUri("lib/neighbour.maude"), undefined);
    expect(lines(neighbour.diagnostics)).toEqual([[4, "undeclared sort Missing."]]);
  });

  test("an unsaved buffer is checked from a private copy that still loads its neighbours", async () => {
    requireMaude();
    // A temp folder of this server's own: the system one is shared with every other test (and
    // suite) running meanwhile, whose servers make and remove copies of their own.
    const privateTemp = tempDir();
    server = new ServerProcess({ TMPDIR: privateTemp });
    await server.initialize();
    const s = server;
    const text = fixtureText("loads-neighbour.maude").replace("op u : -> N .", "op u : -> N .\n  op w : -> Elsewhere .");
    const uri = await s.open("loads-neighbour.maude", text, 3);
    expect(lines((await s.waitForPublish(uri, 3)).diagnostics)).toEqual([
      [6, "undeclared sort Elsewhere."],
      [7, "undeclared sort Nowhere."],
    ]);
    // The copy is gone once the check is done.
    expect(readdirSync(privateTemp)).toEqual([]);
  });

  test("didChange re-checks the new version; pull answers for the current text", async () => {
    const s = await started();
    const uri = await s.open("clean.maude");
    await s.waitForPublish(uri, 1);
    await s.change(uri, "fmod X\n  sort S .\nendfm\n", 2);
    expect(lines((await s.waitForPublish(uri, 2)).diagnostics)).toEqual([[2, "missing is keyword."]]);
    expect(lines(await s.pull(uri))).toEqual([[2, "missing is keyword."]]);
  });

  test("a red that never terminates is killed at the timeout: maude/timeout", async () => {
    const s = await started({ timeoutMs: 1000 });
    const uri = await s.open("nonterminating.maude");
    const diags = (await s.waitForPublish(uri, 1, 20_000)).diagnostics;
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ severity: 1, code: "maude/timeout" });
    expect(diags[0]!.message).toContain("1000 ms");
    // The server is still up and the next check works.
    const clean = await s.open("clean.maude");
    expect((await s.waitForPublish(clean, 1)).diagnostics).toEqual([]);
  });

  test("didSave re-checks even the same version (loaded files may have changed)", async () => {
    const s = await started();
    const uri = await s.open("recoverable.maude");
    await s.waitForPublish(uri, 1);
    await s.conn.sendNotification("textDocument/didSave", { textDocument: { uri } });
    expect(lines((await s.waitForPublish(uri, 1, 30_000, 2)).diagnostics)).toEqual([[6, "missing is keyword."]]);
  });

  test("didClose clears the document's diagnostics", async () => {
    const s = await started();
    const uri = await s.open("recoverable.maude");
    await s.waitForPublish(uri, 1);
    await s.conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
    const cleared = await s.waitForPublish(uri, undefined, 10_000, 2);
    expect(cleared.diagnostics).toEqual([]);
  });

  test("a document with no file (untitled:) is checked from a private copy", async () => {
    const s = await started();
    const uri = await s.open("x", "fmod U\n  sort S .\nendfm\n", 1, "untitled:Untitled-1");
    expect(lines((await s.waitForPublish(uri, 1)).diagnostics)).toEqual([[2, "missing is keyword."]]);
  });

  test("a pull for a file that does not exist is one maude/unreadable error", async () => {
    const s = await started();
    const diags = await s.pull(fixtureUri("no-such-file.maude"));
    expect(diags.map((d) => [d.range.start.line + 1, d.severity, d.code])).toEqual([[1, 1, "maude/unreadable"]]);
  });

  test("a pull for a file that is not open checks it from disk", async () => {
    const s = await started();
    expect(lines(await s.pull(fixtureUri("recoverable.maude")))).toEqual([[6, "missing is keyword."]]);
  });
});

describe("document symbols", () => {
  test("modules named by the module name, with their declarations inside", async () => {
    const s = await started();
    const uri = await s.open("clean.maude");
    const symbols = await s.symbols(uri);
    expect(symbols.map((m) => [m.name, m.kind])).toEqual([
      ["GREETING", 2],
      ["COUNTER", 2],
    ]);
    expect(symbols[0]!.children!.map((c) => c.name)).toEqual([
      "Greeting",
      "Name",
      "Name < Greeting",
      "hello",
      "greet",
      "_and_",
      "N",
      "G",
      "H",
      "greet-name",
      "idem",
    ]);
    expect(symbols[1]!.children!.find((c) => c.name === "tick")).toMatchObject({ kind: 24, detail: "rl" });
  });
});
