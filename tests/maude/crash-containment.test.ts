/**
 * A crashing interpreter costs one check, never the server: a stand-in maude (configured as
 * maudePath) kills itself with SIGSEGV, that check is one maude/crashed error, and the next check
 * of the same server, done by the real binary, is correct.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, expect, test } from "vitest";
import { FIXTURES, fixtureText, requireMaude, ServerProcess } from "./helpers/server-process.js";

let server: ServerProcess | undefined;
const temps: string[] = [];
afterEach(async () => {
  await server?.stop();
  server = undefined;
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

test("SIGSEGV → maude/crashed on line 1; the next check with the real binary is correct", async () => {
  requireMaude();
  const dir = mkdtempSync(join(tmpdir(), "maude-segv-test-"));
  temps.push(dir);
  server = new ServerProcess({ SEGV_ONCE_FLAG: join(dir, "crashed-once") });
  await server.initialize({ maudePath: resolve(FIXTURES, "fake-maude/segv-maude") });
  const uri = await server.open("recoverable.maude");
  const crashed = (await server.waitForPublish(uri, 1)).diagnostics;
  expect(crashed).toHaveLength(1);
  expect(crashed[0]).toMatchObject({ severity: 1, code: "maude/crashed", range: { start: { line: 0, character: 0 } } });
  expect(crashed[0]!.message).toContain("SIGSEGV");
  // Same server, next check: the stand-in now execs the real maude.
  await server.change(uri, fixtureText("recoverable.maude"), 2);
  const next = (await server.waitForPublish(uri, 2)).diagnostics;
  expect(next.map((d) => [d.range.start.line + 1, d.message])).toEqual([[6, "missing is keyword."]]);
});

test("an always-crashing maude: every check is maude/crashed and the server keeps answering", async () => {
  requireMaude();
  server = new ServerProcess();
  await server.initialize({ maudePath: resolve(FIXTURES, "fake-maude/segv-maude") });
  const a = await server.open("clean.maude");
  const b = await server.open("no-module.maude");
  expect((await server.waitForPublish(a, 1)).diagnostics[0]?.code).toBe("maude/crashed");
  expect((await server.waitForPublish(b, 1)).diagnostics[0]?.code).toBe("maude/crashed");
  expect((await server.symbols(a)).map((s) => s.name)).toEqual(["GREETING", "COUNTER"]);
});

test("a non-zero exit is maude/failed; warnings before it are kept, other stderr goes to the log", async () => {
  requireMaude();
  server = new ServerProcess();
  await server.initialize({ maudePath: resolve(FIXTURES, "fake-maude/stderr-then-exit-maude") });
  const uri = await server.open("recoverable.maude");
  const diags = (await server.waitForPublish(uri, 1)).diagnostics;
  expect(diags.map((d) => [d.range.start.line + 1, d.code ?? null, d.message])).toEqual([
    [6, null, "missing is keyword."],
    [1, "maude/failed", "maude exited with code 3: Maude internal error: out of cheese"],
  ]);
  expect(server.stderr.join("")).toContain("Maude internal error: out of cheese");
});
