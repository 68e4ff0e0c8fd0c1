// CONTRACT §3, "Which compiler answers": a workspace is checked by its own TypeScript when its
// node_modules holds one (7.x through the native server, 5.x and 6.x through
// typescript-language-server with that package's tsserver), and by the pinned 7.0.2 when it has
// none. Each answer must equal its own compiler's `tsc`, on a fixture where they disagree: the
// tsconfig leaves `strict` unset, which TypeScript 6 and 7 turn on and 5.9 does not.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { startKeys, TSC, tscFindings, type Finding } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const FILES: Record<string, string> = {
  "tsconfig.json": '{ "compilerOptions": { "target": "es2022", "module": "nodenext", "noEmit": true }, "include": ["src"] }\n',
  "src/implicit.ts": "export function double(a) {\n  return a * 2;\n}\n",
  "src/main.ts": [
    'import { double } from "./implicit.js";',
    "",
    'export const total: number = "four";',
    "export const twice = double(2);",
    "let maybe: string | undefined;",
    "export const length = maybe.length;",
    "",
  ].join("\n"),
};

/** A throwaway workspace with the fixture, and `node_modules/typescript` linked to `pkg` when given. */
function workspace(pkg: "typescript" | "typescript-6.0" | "typescript-7" | null): string {
  const root = tempDir("lspmcp-ts-compiler-");
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  if (pkg !== null) {
    mkdirSync(join(root, "node_modules"));
    symlinkSync(join(REPO, "node_modules", pkg), join(root, "node_modules", "typescript"));
    // An installed TypeScript 7 finds its native compiler beside it, as npm installs it.
    if (pkg === "typescript-7") symlinkSync(join(REPO, "node_modules", "@typescript"), join(root, "node_modules", "@typescript"));
  }
  return root;
}

function configFor(root: string): string {
  return writeConfig(`
[[server]]
name = "typescript"
profile = "typescript"

[[workspace]]
name = "app"
root = ${JSON.stringify(root)}
servers = ["typescript"]
`);
}

interface Report {
  items: Finding[];
  summary: { runs: { server: string; version: string; compiler: { version: string; source: string } | null }[] };
}

/** tsc grades errors only; the servers' suggestions (hints) are never in its output. */
const errorsOnly = (findings: readonly Finding[]) => findings.filter((finding) => finding.severity !== "hint");

const bridges: Bridge[] = [];
afterAll(async () => {
  for (const bridge of bridges) await bridge.close();
});

describe.each([
  { installed: "none (the pinned 7.0.2)", pkg: null, version: "7.0.2", source: "pinned", tsc: TSC["7.0.2"] },
  { installed: "typescript 7.0.2", pkg: "typescript-7", version: "7.0.2", source: "workspace", tsc: TSC["7.0.2"] },
  { installed: "typescript 6.0.3", pkg: "typescript-6.0", version: "6.0.3", source: "workspace", tsc: TSC["6.0.3"] },
  { installed: "typescript 5.9.3", pkg: "typescript", version: "5.9.3", source: "workspace", tsc: TSC["5.9.3"] },
] as const)("a workspace with $installed", ({ pkg, version, source, tsc }) => {
  const root = workspace(pkg);

  test("check's findings are its own tsc's, and its report names the compiler that answered", async () => {
    const truth = startKeys(await tscFindings(root, tsc));
    // The fixture is one where the compilers disagree: 5.9.3 finds one error, 6 and 7 three.
    expect(truth.length).toBe(version === "5.9.3" ? 1 : 3);
    const run = await runCheckCli(["--config", configFor(root), "--format", "json", "--quiet"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(startKeys(errorsOnly(report.items))).toEqual(truth);
    expect(report.summary.runs).toHaveLength(1);
    expect(report.summary.runs[0]).toMatchObject({ server: "typescript", version, compiler: { version, source } });
  }, 300_000);

  test("session_status reports the version that answered and whose compiler it is; hover answers", async () => {
    const bridge = await startBridge(configFor(root), {}, { cwd: root });
    bridges.push(bridge);
    const hover = await bridge.ok("hover", { path: "src/main.ts", symbol: "double" });
    expect(hover.contents).toContain("double(a: any): number");
    const status = (await bridge.ok("session_status", {})) as { sessions: Record<string, unknown>[] };
    expect(status.sessions[0]).toMatchObject({ state: "ready", pinned_version: "7.0.2", reported_version: version, compiler_source: source });
    await bridge.close();
  }, 300_000);
});

describe("a workspace TypeScript that cannot answer is ServerStartFailed naming it, never another compiler", () => {
  test.each([
    ["a 6.x package without its tsserver", "6.0.3", "no lib/tsserver.js"],
    ["a 7.x package without its native compiler", "7.0.2", "is not installed beside it"],
    ["a TypeScript lspmcp cannot drive", "4.9.5", "TypeScript 5, 6 or 7"],
  ])(
    "%s",
    async (_what, version, reason) => {
      const root = workspace(null);
      mkdirSync(join(root, "node_modules", "typescript", "lib"), { recursive: true });
      writeFileSync(join(root, "node_modules", "typescript", "package.json"), JSON.stringify({ name: "typescript", version }));
      const bridge = await startBridge(configFor(root), {}, { cwd: root });
      bridges.push(bridge);
      const error = await bridge.fail("diagnostics", { path: "src/main.ts" });
      expect(error.code).toBe("ServerStartFailed");
      expect(error.message).toContain(join(root, "node_modules", "typescript"));
      expect(error.message).toContain(reason);
      const status = (await bridge.ok("session_status", {})) as { sessions: Record<string, unknown>[] };
      expect(status.sessions[0]).toMatchObject({ state: "dead", pid: null });
      await bridge.close();
    },
    120_000,
  );
});
