import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCheckCli } from "../check/helpers/cli.js";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";

// bash-language-server 5.8.1 with ShellCheck (Debian's 0.9.0) on twelve scripts, held to
// ShellCheck's own command line run on the same files. The server takes documents only once the
// client has answered its workspace/configuration: of the documents opened before, it remembers
// only the last, so `check` of two or more scripts timed out on the first (the bash adapter's
// whenReady waits for that answer).
const ROOT = join(REPO, "tests/fixtures/workspaces/shellcheck-twelve");
const SCRIPTS = readdirSync(ROOT)
  .filter((name) => name.endsWith(".sh"))
  .sort();

const CONFIG = writeConfig(`
[bridge]
max_result_bytes = 1048576
request_timeout_ms = 60000

[[server]]
name = "bash"
profile = "bash"

[[workspace]]
name = "scripts"
root = ${JSON.stringify(ROOT)}
servers = ["bash"]
`);

interface Item {
  readonly path: string;
  readonly range: { readonly start: { line: number; column: number }; readonly end: { line: number; column: number } };
  readonly code: string | null;
  readonly message: string;
}

const key = (item: Item): string =>
  `${item.path}:${item.range.start.line}:${item.range.start.column}-${item.range.end.line}:${item.range.end.column} ${item.code} ${item.message}`;

/** ShellCheck's own findings, as the same keys (its columns are 1-based code points, tabs aside: the scripts have none). */
function shellcheckFindings(): string[] {
  let out: string;
  try {
    out = execFileSync("shellcheck", ["-f", "json1", ...SCRIPTS], { cwd: ROOT, encoding: "utf8" });
  } catch (error) {
    // Exit 1: it found something, which is the point.
    out = (error as { stdout: string }).stdout;
  }
  const { comments } = JSON.parse(out) as {
    comments: { file: string; line: number; column: number; endLine: number; endColumn: number; code: number; message: string }[];
  };
  return comments
    .map((c) =>
      key({
        path: c.file,
        range: { start: { line: c.line, column: c.column }, end: { line: c.endLine, column: c.endColumn } },
        code: `SC${c.code}`,
        message: c.message,
      }),
    )
    .sort();
}

let oracle: string[];
beforeAll(() => {
  requireBinary("shellcheck");
  oracle = shellcheckFindings();
});

describe("bash-language-server + ShellCheck on twelve scripts, against shellcheck itself", () => {
  test("ShellCheck finds something in every script, so a partial answer cannot pass", () => {
    expect(SCRIPTS).toHaveLength(12);
    expect(new Set(oracle.map((finding) => finding.split(":")[0])).size).toBe(12);
  });

  test("check, cold, three times: every finding ShellCheck gives, nothing else", async () => {
    for (let run = 0; run < 3; run++) {
      const result = await runCheckCli(["--config", CONFIG, "--format", "json", "--fail-on", "never"], { cwd: ROOT });
      expect(result.stderr).not.toContain("did not settle");
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as { items: Item[] };
      expect(report.items.map(key).sort()).toEqual(oracle);
    }
  }, 300_000);

  describe("the diagnostics tool", () => {
    let bridge: Bridge;
    beforeAll(async () => {
      bridge = await startBridge(CONFIG);
    });
    afterAll(async () => bridge?.close());

    test("all twelve at once, on a cold server: every finding", async () => {
      const answer = await bridge.ok("diagnostics", { paths: SCRIPTS, limit: 1000 });
      expect((answer.items as Item[]).map(key).sort()).toEqual(oracle);
    }, 120_000);
  });
});
