// CONTRACT §2 "The checkout's own code": a project's own compiler runs only from inside the
// checkout (at or below the git top-level) and never from a file or folder another user owns or
// may write. Each planted `typescript` package here is a fake whose every entry point writes a
// marker file: the marker proves whether lspmcp ran it.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { tempDir } from "../helpers/temp.js";

/** A TypeScript 5.9.3 package whose tsserver, tsc and API write `marker` when anything runs them. */
function plantedTypescript(dir: string, marker: string): void {
  const script = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran\\n");\n`;
  for (const path of ["lib/tsserver.js", "lib/_tsserver.js", "lib/typescript.js", "bin/tsc"]) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), path.startsWith("bin/") ? `#!/usr/bin/env node\n${script}` : script);
  }
  chmodSync(join(dir, "bin/tsc"), 0o755);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "typescript", version: "5.9.3", main: "./lib/typescript.js", bin: { tsc: "./bin/tsc" } }));
}

/** A git checkout of one TypeScript project whose implicit any the pinned TypeScript 7 reports (TS7006). */
function checkoutAt(root: string): string {
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "module": "nodenext", "noEmit": true }, "include": ["src"] }\n');
  writeFileSync(join(root, "src/main.ts"), "export function double(a) {\n  return a * 2;\n}\n");
  writeFileSync(join(root, ".gitignore"), "node_modules\n");
  execFileSync("git", ["init", "-q"], { cwd: root });
  return root;
}

interface Report {
  items: { path: string; code: string | null }[];
  summary: { not_checked?: { path: string; reason: string }[]; runs: { server: string; compiler: { source: string } | null }[] };
}

const bridges: Bridge[] = [];
afterAll(async () => {
  for (const bridge of bridges) await bridge.close();
});

describe("a node_modules/typescript above the git top-level", () => {
  // A shared folder above someone's checkout, where another user could have put a package.
  const above = realpathSync(tempDir("lspmcp-above-"));
  chmodSync(above, 0o755);
  const marker = join(above, "MARKER");
  plantedTypescript(join(above, "node_modules/typescript"), marker);
  const root = checkoutAt(join(above, "repo"));

  test("is never run: zero-config check answers with the pinned compiler", async () => {
    const run = await runCheckCli(["--format", "json"], { cwd: root });
    expect(run.stderr).toContain("typescript answers with TypeScript 7.0.2 (pinned)");
    const report = JSON.parse(run.stdout) as Report;
    expect(report.items.map((item) => `${item.path} ${item.code}`)).toEqual(["src/main.ts 7006"]);
    expect(report.summary.runs.find((one) => one.server === "typescript")?.compiler).toMatchObject({ source: "pinned" });
    expect(existsSync(marker)).toBe(false);
  }, 120_000);
});

// Giving a file to another user takes root, as CI runs the tests.
describe.runIf(process.getuid?.() === 0)("a node_modules/typescript inside the checkout that another user owns", () => {
  const user = `lspmcp-other-${process.pid}`;
  const root = checkoutAt(realpathSync(tempDir("lspmcp-owned-")));
  const marker = join(root, "MARKER");
  const pkg = join(root, "node_modules/typescript");
  plantedTypescript(pkg, marker);
  execFileSync("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", user]);
  afterAll(() => {
    execFileSync("userdel", [user]);
  });
  execFileSync("chown", ["-R", `${user}:${user}`, pkg]);

  test("is never run, and no other compiler answers in its place: check lists the files as not checked, with why", async () => {
    const run = await runCheckCli(["--format", "json"], { cwd: root });
    expect(run.stderr).toContain(`typescript checks nothing: lspmcp runs only a compiler the checkout holds, and ${pkg}`);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.items).toEqual([]);
    expect(report.summary.not_checked).toEqual([
      {
        workspace: expect.any(String),
        server: "typescript",
        path: "src/main.ts",
        reason: expect.stringMatching(new RegExp(`^lspmcp runs only a compiler the checkout holds, and ${pkg}/\\S+ is owned by ${user} \\(uid \\d+\\)`)),
      },
    ]);
    const text = await runCheckCli(["--quiet"], { cwd: root });
    expect(text.stdout).toMatch(/^src\/main\.ts: not checked by typescript: lspmcp runs only a compiler the checkout holds/m);
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  test("over MCP: diagnostics lists the file as not checked, hover is refused naming the package, session_status says why", async () => {
    const bridge = await startBridge(null, {}, { cwd: root });
    bridges.push(bridge);
    const answer = (await bridge.ok("diagnostics", { path: "src/main.ts" })) as { items: unknown[]; not_checked?: string[] };
    expect(answer.items).toEqual([]);
    expect(answer.not_checked).toEqual([expect.stringContaining(`is owned by ${user}`)]);
    const hover = await bridge.fail("hover", { path: "src/main.ts", line: 1, column: 17 });
    expect(hover.code).toBe("ServerStartFailed");
    expect(hover.message).toContain(`TypeScript at ${pkg} is not run`);
    const status = (await bridge.ok("session_status", {})) as { sessions: Record<string, unknown>[] };
    expect(status.sessions).toEqual(
      expect.arrayContaining([expect.objectContaining({ server: "typescript", refused: expect.stringContaining(`is owned by ${user}`) })]),
    );
    expect(existsSync(marker)).toBe(false);
    await bridge.close();
  }, 120_000);
});
