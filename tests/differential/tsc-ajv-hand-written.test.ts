import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { BRIDGE_MAIN, REPO, TSLS } from "../helpers/paths.js";
import { runCheckCli } from "../check/helpers/cli.js";
import { diagnostics, startKeys, TSC, tscFindings, type Finding } from "../helpers/differential.js";

// A typescript-language-server entry written by hand, as a user who knows the server writes it
// (no profile, no adapter key), on real code nobody here wrote: ajv 8.20.0's sources (see the
// fixture's README). The folder has no TypeScript of its own, so the server drives the
// `typescript` it depends on, 5.9.3, and the truth is that package's `tsc --noEmit -p .`, run now.
// Under the standard rule such an entry answered a third to a half of tsc's findings on hono.
const ROOT = join(REPO, "tests/fixtures/differential/typescript-ajv");
const FILES = (readdirSync(join(ROOT, "lib"), { recursive: true }) as string[])
  .filter((name) => name.endsWith(".ts"))
  .map((name) => relative(ROOT, join(ROOT, "lib", name)));

const CONFIG = writeConfig(`
[bridge]
max_result_bytes = 1048576
request_timeout_ms = 600000

[[server]]
name = "typescript"
command = ${JSON.stringify(TSLS)}
args = ["--stdio"]
version = "5.3.0"
version_command = [${JSON.stringify(TSLS)}, "--version"]
languages = [ { id = "typescript", extensions = [".ts"] } ]

[[workspace]]
name = "ajv"
root = ${JSON.stringify(ROOT)}
servers = ["typescript"]
`);

/** The server's suggestion diagnostics (severity hint), which tsc never reports. */
const withoutSuggestions = (findings: readonly Finding[]) => findings.filter((finding) => finding.severity !== "hint");

let cli: string[];
beforeAll(async () => {
  cli = startKeys(await tscFindings(ROOT, TSC["5.9.3"]));
}, 300_000);

describe("a hand-written typescript-language-server entry answers as the TypeScript adapter, equal to tsc", () => {
  test("validate names the rule and why it was chosen", () => {
    const run = spawnSync(process.execPath, [BRIDGE_MAIN, "validate", "--config", CONFIG], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      `rule of typescript: tsserver: tsserver's own diagnostics requests, answered for the synced text (recognised as typescript-language-server: its command is that npm package's; as profile "typescript")\n`,
    );
  });

  test("tsc 5.9.3 finds errors in many files, so a partial answer cannot pass", () => {
    expect(cli.length).toBeGreaterThan(30);
    expect(new Set(cli.map((key) => key.split(":")[0])).size).toBeGreaterThan(5);
  });

  test.each([1, 2, 3])(
    "check, cold run %i: every finding of tsc, exit 1",
    async () => {
      const run = await runCheckCli(["--config", CONFIG, "--format", "json", "--quiet"], { cwd: ROOT });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as { items: Finding[] };
      expect(startKeys(withoutSuggestions(report.items))).toEqual(cli);
    },
    600_000,
  );

  describe("the diagnostics tool", () => {
    let bridge: Bridge;
    beforeAll(async () => {
      bridge = await startBridge(CONFIG);
    });
    afterAll(async () => bridge?.close());

    test("every file at once, on a cold server: every finding of tsc", async () => {
      const answer = await diagnostics(bridge, { paths: FILES, limit: 1000 });
      expect(startKeys(withoutSuggestions(answer.items))).toEqual(cli);
    }, 600_000);
  });
});
