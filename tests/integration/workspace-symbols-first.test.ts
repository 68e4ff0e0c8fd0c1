/**
 * `workspace_symbols` as the very first call of a session. TypeScript's server searches
 * the project of a file it has open; with none open tsserver answers "No Project", which once
 * reached callers as `ServerCrashed` with tsserver's stack trace (a fresh session, and the first
 * call after a shared server's takeover).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { copyFixtureWorkspace, navConfig } from "../helpers/workspace.js";

let bridge: Bridge;
let root: string;

beforeAll(async () => {
  root = copyFixtureWorkspace("nav");
  bridge = await startBridge(writeConfig(navConfig(root, ["typescript"])));
});
afterAll(async () => bridge?.close());

describe("workspace_symbols before any file is open", () => {
  test("finds the symbol on a fresh session, and the same bytes after a restart", async () => {
    const first = await bridge.call("workspace_symbols", { query: "totalArea" });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    // TypeScript 7 gives the name's range.
    const { line, column } = positionOf(readFileSync(join(root, "ts/geometry.ts"), "utf8"), "totalArea");
    expect(first.structuredContent?.items).toEqual([
      expect.objectContaining({ name: "totalArea", kind: "function", path: "ts/geometry.ts", range: expect.objectContaining({ start: { line, column } }) }),
    ]);

    await bridge.ok("session_restart", { server: "typescript" });
    const again = await bridge.call("workspace_symbols", { query: "totalArea" });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  }, 180_000);

  test("a workspace with no file the server claims has no symbols (not an error)", async () => {
    const empty = copyFixtureWorkspace("nav");
    for (const file of ["ts/broken.ts", "ts/geometry.ts", "ts/report.ts", "ts/summary.ts"]) writeFileSync(join(empty, file), "");
    const other = await startBridge(
      writeConfig(
        navConfig(empty, ["typescript"]).replace(
          /\[\[workspace\]\][\s\S]*$/,
          `[[workspace]]\nname = "nav"\nroot = ${JSON.stringify(join(empty, "py"))}\nservers = ["typescript"]\n`,
        ),
      ),
    );
    try {
      const result = await other.ok("workspace_symbols", { query: "totalArea" });
      expect(result.items).toEqual([]);
    } finally {
      await other.close();
    }
  }, 180_000);
});
