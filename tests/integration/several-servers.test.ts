import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { positionOf, startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { childrenOf, waitForExit } from "../helpers/proc.js";
import { copyFixtureWorkspace, profilesConfig } from "../helpers/workspace.js";

// A type checker and a linter on one file (CONTRACT §4, "Several servers for one file").
const SHARED = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"];

let bridge: Bridge;
let root: string;
const source = (path: string) => readFileSync(join(root, path), "utf8");

beforeAll(async () => {
  root = copyFixtureWorkspace("langs");
  const routing = `default_server = { ${SHARED.map((extension) => `"${extension}" = "typescript"`).join(", ")} }`;
  bridge = await startBridge(writeConfig(profilesConfig(root, ["typescript", "biome"], { extra: routing })));
});
afterAll(async () => bridge?.close());

describe("TypeScript and Biome on one .ts file", () => {
  const typeError = () => {
    const start = positionOf(source("lint.ts"), "cafe");
    return {
      path: "lint.ts",
      range: { start, end: { line: start.line, column: start.column + "cafe".length } },
      severity: "error",
      code: "2322",
      source: "ts",
      message: "Type 'string' is not assignable to type 'number'.",
      channels: ["pull"],
    };
  };
  const lint = () => {
    // Biome negotiates UTF-8: the column after the astral character is converted from bytes.
    const start = positionOf(source("lint.ts"), "debugger;");
    return {
      path: "lint.ts",
      range: { start, end: { line: start.line, column: start.column + "debugger;".length } },
      severity: "error",
      code: "lint/suspicious/noDebugger",
      source: "biome",
      message: "This is an unexpected use of the debugger statement.",
      channels: ["push"],
    };
  };

  test("diagnostics without server merges both, each settled by its own rule, in canonical order", async () => {
    // The first call starts Biome, whose first publish during its project scan is empty.
    const result = await bridge.ok("diagnostics", { path: "lint.ts" });
    expect(result).toEqual({ items: [typeError(), lint()], total: 2, returned: 2, offset: 0, files: 1 });
  });

  test("the same call twice gives the same bytes", async () => {
    const first = await bridge.call("diagnostics", { path: "lint.ts" });
    const second = await bridge.call("diagnostics", { path: "lint.ts" });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  test("with server, only that server answers", async () => {
    expect((await bridge.ok("diagnostics", { path: "lint.ts", server: "biome" })).items).toEqual([lint()]);
    expect((await bridge.ok("diagnostics", { path: "lint.ts", server: "typescript" })).items).toEqual([typeError()]);
  });

  test("default_server answers hover; Biome itself has none (NotSupported)", async () => {
    const at = positionOf(source("lint.ts"), "cafe");
    expect((await bridge.ok("hover", { path: "lint.ts", ...at })).contents).toContain("const cafe: number");
    const error = await bridge.fail("hover", { path: "lint.ts", server: "biome", ...at });
    expect(error.code).toBe("NotSupported");
  });

  test("one of the two servers dead gives SessionDead for the call, never a half answer", async () => {
    const status = await bridge.ok("session_status");
    const biome = status.sessions.find((s: any) => s.server === "biome");
    // The proxy dies; its wrapper (the session's server process) exits with it, as in a crash.
    const [proxy] = childrenOf(biome.pid);
    process.kill(proxy!, "SIGKILL");
    expect(await waitForExit(biome.pid)).toBe(true);
    await waitForState(bridge, "biome", "dead");
    const error = await bridge.fail("diagnostics", { path: "lint.ts" });
    expect(error.code).toBe("SessionDead");
    expect(error.details.server ?? error.message).toContain("biome");
    expect((await bridge.ok("diagnostics", { path: "lint.ts", server: "typescript" })).items).toEqual([typeError()]);
  });
});

/** Asks session_status until the server's session is in `state`; the bridge notices an exit on its own. */
async function waitForState(bridge: Bridge, server: string, state: string, timeoutMs = 10000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const status = await bridge.ok("session_status");
    if (status.sessions.find((s: any) => s.server === server)?.state === state) return;
    if (Date.now() > until) throw new Error(`${server} did not become ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
