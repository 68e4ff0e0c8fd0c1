/**
 * Parity: for every fixture, the server's diagnostics (line, message) are exactly what running
 * maude directly on the file and reading its stderr gives, byte for byte on the message text.
 * "Directly" is the tests' own run and reading (helpers/maude-oracle.ts), not the server's.
 */
import { basename, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAUDE_FLAGS } from "../../servers/maude/src/run-maude.js";
import { CONTRACT_FLAGS, maudeWarnings, type OracleWarning } from "./helpers/maude-oracle.js";
import { FIXTURES, fixtureUri, requireMaude, ServerProcess } from "./helpers/server-process.js";

const direct = (file: string): OracleWarning[] => maudeWarnings(resolve(FIXTURES, file));

let server: ServerProcess;
beforeAll(async () => {
  requireMaude();
  server = new ServerProcess();
  await server.initialize();
});
afterAll(async () => {
  await server?.stop();
});

describe("parity with maude run directly", () => {
  test("the flags include every flag of CONTRACT §7", () => {
    for (const f of CONTRACT_FLAGS) expect(MAUDE_FLAGS).toContain(f);
  });

  test.each(["clean.maude", "no-module.maude", "recoverable.maude", "many-warnings.maude", "non-ascii.maude", "loads-neighbour.maude", "lib/neighbour.maude"])(
    "%s",
    async (file) => {
      const expected = direct(file)
        .filter((w) => w.file === basename(file) || w.file === null)
        .map((w) => [w.line, w.message]);
      const uri = fixtureUri(file);
      await server.open(file);
      const pushed = (await server.waitForPublish(uri, 1)).diagnostics.map((d) => [d.range.start.line + 1, d.message]);
      const pulled = (await server.pull(uri)).map((d) => [d.range.start.line + 1, d.message]);
      expect(pushed).toEqual(expected);
      expect(pulled).toEqual(expected);
    },
  );

  test("the neighbour's warnings, as attributed by a check of the file that loads it", () => {
    const expected = direct("loads-neighbour.maude")
      .filter((w) => w.file === "neighbour.maude")
      .map((w) => [w.line, w.message]);
    expect(expected.length).toBeGreaterThan(0);
    const first = server.publicationsFor(fixtureUri("lib/neighbour.maude"))[0];
    expect(first?.diagnostics.map((d) => [d.range.start.line + 1, d.message])).toEqual(expected);
  });

  test("binary.maude: maude itself only produces per-byte noise, the server one maude/binary error", async () => {
    const noise = direct("binary.maude");
    expect(noise.length).toBeGreaterThan(3);
    expect(noise.every((w) => w.file === null)).toBe(true); // maude even loses the file name
    const uri = await server.open("binary.maude");
    const diags = (await server.waitForPublish(uri, 1)).diagnostics;
    expect(diags.map((d) => [d.range.start.line + 1, d.code])).toEqual([[1, "maude/binary"]]);
  });
});
