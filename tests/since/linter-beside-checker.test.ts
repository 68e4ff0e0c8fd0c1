import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startBridge, writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { tempDir } from "../helpers/temp.js";
import { vendoredRepo } from "../helpers/vendored-repo.js";

// A type checker and a linter on one file (CONTRACT §4, "Several servers for one file"), with
// max_sessions = 2: the two trees cannot run side by side, so the revision runs first and its
// sessions are stopped before the working tree's start (tests/since/since-modes.test.ts covers
// the side-by-side case in both modes and every way a bridge ends).
const SHARED = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"];
const LINT = readFileSync(join(REPO, "tests/fixtures/workspaces/langs/lint.ts"), "utf8");

describe("since with typescript and Biome on the same files, and no free slots for both trees at once", () => {
  test("each server's new finding is introduced, each old one unchanged; SIGTERM removes the snapshot", async () => {
    // In a folder of its own: Biome's start reads the root's parent, and /tmp's entries come and go.
    const project = tempDir();
    mkdirSync(join(project, "app"));
    writeFileSync(join(project, "app", "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n');
    writeFileSync(join(project, "app", "lint.ts"), LINT);
    const repo = vendoredRepo(join(project, "app"), "app");
    const runtime = tempDir("lspmcp-since-runtime-");
    const routing = `default_server = { ${SHARED.map((extension) => `"${extension}" = "typescript"`).join(", ")} }`;
    const bridge = await startBridge(
      writeConfig(
        `[bridge]\nmax_sessions = 2\n\n[shared]\nlease_dir = ${JSON.stringify(runtime)}\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[server]]\nname = "biome"\nprofile = "biome"\n\n[[workspace]]\nname = "w"\nroot = ${JSON.stringify(repo.root)}\nservers = ["typescript", "biome"]\n${routing}\n`,
      ),
    );
    try {
      writeFileSync(join(repo.root, "lint.ts"), `${LINT}export function pour(): string {\n  debugger;\n  return 4;\n}\n`);
      const answer = await bridge.ok("diagnostics", { path: ".", since: "HEAD", min_severity: "error" });
      expect(answer.items.map((item: any) => `${item.source} ${item.code} ${item.range.start.line}`)).toEqual([
        "biome lint/suspicious/noDebugger 7",
        "ts 2322 8",
      ]);
      expect(answer).toMatchObject({ introduced: 2, unchanged: 2, resolved: 0 });
      // Answered from the kept snapshot, with the working tree's sessions still running.
      expect((await bridge.ok("diagnostics", { path: ".", since: "HEAD", min_severity: "error" })).introduced).toBe(2);
      expect(readdirSync(runtime).filter((name) => name.startsWith("since-"))).toHaveLength(1);
    } finally {
      process.kill(bridge.pid, "SIGTERM");
      await bridge.close().catch(() => {});
    }
    expect(await pollUntil(() => readdirSync(runtime).every((name) => !name.startsWith("since-")), 30_000, 50)).toBe(true);
    expect(repo.git("status", "--porcelain", "--ignored")).toBe(" M app/lint.ts\n");
  }, 300_000);
});
