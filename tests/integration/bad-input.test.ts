import { symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { copyFixtureWorkspace } from "../helpers/workspace.js";

let bridge: Bridge;
let root: string;

// Two workspaces, so that `workspace` is needed; typescript and bash in one, so that a call
// without `server` and without a file is ambiguous.
beforeAll(async () => {
  root = copyFixtureWorkspace("poly");
  const other = copyFixtureWorkspace("poly");
  symlinkSync("/etc/hostname", join(root, "src/escape.ts"));
  symlinkSync(join(root, "src/shapes.ts"), join(root, "src/alias.ts"));
  writeFileSync(join(root, "src/binary.ts"), Buffer.from([0x63, 0x6f, 0x00, 0x01, 0x02]));
  writeFileSync(join(root, "src/latin1.ts"), Buffer.from([0x63, 0xe9, 0x74, 0x65, 0x0a]));
  mkdirSync(join(root, "src/folder.ts"));
  bridge = await startBridge(
    writeConfig(`
[bridge]
max_sessions = 2

[[server]]
name = "typescript"
profile = "typescript"

[[server]]
name = "bash"
profile = "bash"

[[workspace]]
name = "poly"
root = ${JSON.stringify(root)}
servers = ["typescript", "bash"]

[[workspace]]
name = "other"
root = ${JSON.stringify(other)}
servers = ["typescript"]
`),
  );
});
afterAll(async () => bridge?.close());

const poly = { workspace: "poly" };

describe("bad input gets its error code and the session keeps working", () => {
  test.each([
    ["unknown workspace", "diagnostics", { workspace: "nope", path: "src/shapes.ts" }, "UnknownWorkspace"],
    ["workspace missing with two configured", "diagnostics", { path: "src/shapes.ts" }, "InvalidArguments"],
    ["unknown server", "diagnostics", { ...poly, server: "rust", path: "src/shapes.ts" }, "UnknownServer"],
    ["server that does not claim the file", "diagnostics", { ...poly, server: "bash", path: "src/shapes.ts" }, "NoServerForFile"],
    ["no server for the extension", "diagnostics", { ...poly, path: "src/notes.txt" }, "NoServerForFile"],
    ["unknown server for workspace symbols", "workspace_symbols", { ...poly, server: "rust", query: "x" }, "UnknownServer"],
    ["relative escape", "diagnostics", { ...poly, path: "../../etc/passwd.ts" }, "PathOutsideWorkspace"],
    ["absolute path outside", "diagnostics", { ...poly, path: "/etc/passwd" }, "PathOutsideWorkspace"],
    ["symlink escape", "diagnostics", { ...poly, path: "src/escape.ts" }, "PathOutsideWorkspace"],
    ["missing file", "diagnostics", { ...poly, path: "src/missing.ts" }, "FileNotFound"],
    ["binary file", "diagnostics", { ...poly, path: "src/binary.ts" }, "FileUnreadable"],
    ["invalid UTF-8", "diagnostics", { ...poly, path: "src/latin1.ts" }, "FileUnreadable"],
    ["a directory, for hover", "hover", { ...poly, path: "src/folder.ts", line: 1, column: 1 }, "FileUnreadable"],
    ["NUL in path", "diagnostics", { ...poly, path: "src/sha\u0000pes.ts" }, "InvalidArguments"],
    ["line past the end", "hover", { ...poly, path: "src/shapes.ts", line: 500, column: 1 }, "InvalidArguments"],
    ["column past the end", "hover", { ...poly, path: "src/shapes.ts", line: 1, column: 500 }, "InvalidArguments"],
    ["line zero", "hover", { ...poly, path: "src/shapes.ts", line: 0, column: 1 }, "InvalidArguments"],
    ["wrong type", "hover", { ...poly, path: "src/shapes.ts", line: "1", column: 1 }, "InvalidArguments"],
    ["unknown key", "document_symbols", { ...poly, path: "src/shapes.ts", verbose: true }, "InvalidArguments"],
    ["path and paths", "diagnostics", { ...poly, path: "src/shapes.ts", paths: ["src/shapes.ts"] }, "InvalidArguments"],
    ["negative offset", "document_symbols", { ...poly, path: "src/shapes.ts", offset: -1 }, "InvalidArguments"],
  ])("%s", async (_label, tool, args, code) => {
    const error = await bridge.fail(tool, args);
    expect(error.code).toBe(code);
    expect(typeof error.message).toBe("string");
    const still = await bridge.ok("document_symbols", { ...poly, path: "src/shapes.ts" });
    expect(still.total).toBeGreaterThan(0);
  });

  test("invalid arguments name the offending fields", async () => {
    const error = await bridge.fail("hover", { ...poly, path: "src/shapes.ts", line: "x", column: 1, extra: 1 });
    expect(error.details.fields).toEqual(expect.arrayContaining(["line", "extra"]));
  });

  test("a symlink inside the workspace is followed and reported by its real path", async () => {
    const result = await bridge.ok("document_symbols", { ...poly, path: "src/alias.ts" });
    expect(result.total).toBeGreaterThan(0);
    const diagnostics = await bridge.ok("diagnostics", { ...poly, path: "src/alias.ts" });
    expect(new Set(diagnostics.items.map((item: any) => item.path))).toEqual(new Set(["src/shapes.ts"]));
  });

  test("an absolute path inside the workspace works", async () => {
    const result = await bridge.ok("document_symbols", { ...poly, path: join(root, "src/shapes.ts") });
    expect(result.total).toBeGreaterThan(0);
  });

  test("max_bytes too small for one item is ResultTooLarge with what fits", async () => {
    const error = await bridge.fail("document_symbols", { ...poly, path: "src/shapes.ts", max_bytes: 200 });
    expect(error.code).toBe("ResultTooLarge");
    expect(error.details).toMatchObject({ limit_bytes: 200, fits: 0 });
    expect(error.details.total).toBeGreaterThan(0);
    expect(error.details.actual_bytes).toBeGreaterThan(200);
  });

  test("a page that does not fit says how many would, and that many fit", async () => {
    const error = await bridge.fail("document_symbols", { ...poly, path: "src/shapes.ts", max_bytes: 2000 });
    expect(error.code).toBe("ResultTooLarge");
    const fits = error.details.fits as number;
    expect(fits).toBeGreaterThan(0);
    const page = await bridge.call("document_symbols", { ...poly, path: "src/shapes.ts", max_bytes: 2000, limit: fits });
    expect(page.isError).toBeFalsy();
    expect(Buffer.byteLength(JSON.stringify(page), "utf8")).toBeLessThanOrEqual(2000 + 64);
  });

  test("max_sessions: the next start makes the least recently used idle session give way", async () => {
    await bridge.ok("document_symbols", { workspace: "other", path: "src/shapes.ts" });
    writeFileSync(join(root, "src/run.sh"), "echo hi\n");
    await bridge.ok("document_symbols", { ...poly, path: "src/run.sh" });
    const sessions = (await bridge.ok("session_status")).sessions as {
      workspace: string;
      server: string;
      state: string;
      last_exit: { reason: string } | null;
    }[];
    expect(sessions.map((s) => `${s.workspace}/${s.server}: ${s.state}, ${s.last_exit?.reason ?? null}`)).toEqual([
      "poly/typescript: idle, idle",
      "poly/bash: ready, null",
      "other/typescript: ready, null",
    ]);
  });

  test("an unknown tool is refused", async () => {
    await expect(bridge.client.callTool({ name: "write_file", arguments: {} })).rejects.toThrow(/unknown tool/);
  });
});
