import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { startBridge, writeConfig } from "../helpers/bridge.js";
import { diagnostics, type Finding, startKeys, TSC, tscFindings } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

// typescript-language-server 5.3.0 written by hand (by `command`), held to the standard settle
// rule: it publishes each file's diagnostics once per kind (syntax, then semantic, then
// suggestions), debounced and without a version, and a later `geterr` pass may publish a file's
// semantic set long after its syntax set. The rule took the first publish after the sync as
// final, and `check` on ajv gave 11 to 27 of tsc's errors. Bisected to 8260217 ("TypeScript in
// one room"): before it, any server offering `typescript.tsserverRequest` was asked through
// tsserver's own diagnostics requests, whatever its adapter, so the hand-written entry never met
// the push rule (e03d556 and 89c6ab3 gave all of them, three runs each); from it on, only the
// tsserver adapter asks that way. Every run must equal tsc, or say that a file did not settle.
const LS = join(REPO, "node_modules/.bin/typescript-language-server");
const AJV = join(REPO, "tests/fixtures/differential/typescript-ajv");

function handWritten(root: string): string {
  return writeConfig(`
[bridge]
max_result_bytes = 4194304
request_timeout_ms = 180000

# The standard adapter named outright: this test holds the standard rule, whatever rule lspmcp
# would give a server it recognises.
[[server]]
name = "tls"
command = ${JSON.stringify(LS)}
args = ["--stdio"]
version = "5.3.0"
version_command = [${JSON.stringify(LS)}, "--version"]
languages = [{ id = "typescript", extensions = [".ts"] }]
adapter = "standard"

[[workspace]]
name = "w"
root = ${JSON.stringify(root)}
servers = ["tls"]
`);
}

/** tsc's errors (the server's hints and suggestions are its own, never tsc's). */
const errors = (findings: readonly Finding[]) => startKeys(findings.filter((finding) => finding.severity === "error"));

describe("a hand-written typescript-language-server entry under the standard rule, against tsc 5.9.3", () => {
  test("ajv's 106 files, two cold checks: each gives tsc's errors, or says which file did not settle", async () => {
    // typescript-language-server answers with the TypeScript it ships beside (lspmcp's 5.9.3):
    // ajv's folder has none of its own.
    const oracle = errors(await tscFindings(AJV, TSC["5.9.3"]));
    expect(oracle.length).toBeGreaterThan(30);
    const config = handWritten(AJV);
    let equal = 0;
    for (let run = 0; run < 2; run++) {
      const result = await runCheckCli(["--config", config, "--format", "json", "--fail-on", "error"], { cwd: AJV });
      if (result.code === 3) {
        expect(result.stderr).toMatch(/did not settle/);
        continue;
      }
      expect(result.code).toBe(1);
      expect(errors((JSON.parse(result.stdout) as { items: Finding[] }).items)).toEqual(oracle);
      equal++;
    }
    expect(equal).toBeGreaterThan(0);
  }, 900_000);

  test("one file, the first call of a fresh bridge, three times: never an empty answer", async () => {
    const root = tempDir("lspmcp-tls-one-");
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["src"] }));
    writeFileSync(join(root, "src/a.ts"), 'export const count: number = "three";\n');
    const config = handWritten(root);
    for (let run = 0; run < 3; run++) {
      const bridge = await startBridge(config);
      try {
        const answer = await diagnostics(bridge, { path: "src/a.ts" });
        expect(answer.items.map((item) => item.code)).toEqual(["2322"]);
      } finally {
        await bridge.close();
      }
    }
  }, 600_000);
});
