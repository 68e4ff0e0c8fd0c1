import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeWorkspace } from "../helpers/fake-config.js";
import { FAKE_SERVER, REPO } from "../helpers/paths.js";
import { runCheckCli } from "./helpers/cli.js";

/** A config whose one server "fake" runs `args` under node, on a workspace with two `.fake` files. */
function fakeCheckWorkspace(args: string[], timeoutMs = 60000, startTimeoutMs = 120000): { config: string; root: string } {
  const server = { name: "fake", extension: ".fake", command: process.execPath, args };
  const bridge = `request_timeout_ms = ${timeoutMs}\nstart_timeout_ms = ${startTimeoutMs}`;
  return fakeWorkspace([server], bridge, { "a.fake": "one\n", "b.fake": "two\n" });
}

describe("check exits 3 with the reason, and prints no report, when a server fails", () => {
  it("a server whose version is not its pin", async () => {
    const { config, root } = fakeCheckWorkspace([FAKE_SERVER, "--no-daemon", "--no-child", "--version", "2.0.0"]);
    const result = await runCheckCli(["--config", config, "--format", "json"], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^lspmcp check: no report: .*2\.0\.0.* \(ServerVersionMismatch\)$/m);
  });

  it("a server that never settles (no diagnostics before the deadline): the reason names the file", async () => {
    // A server that has shown no work yet may still be loading: its files get the request deadline
    // again once start_timeout_ms has passed since its start, so that is kept short too.
    const { config, root } = fakeCheckWorkspace([FAKE_SERVER, "--no-daemon", "--no-child"], 1500, 1500);
    const result = await runCheckCli(["--config", config], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    // Both files are in flight and neither settles: the reason names whichever timed out first,
    // and names the same file as the request that did not finish.
    const reason =
      /^lspmcp check: no report: ([ab])\.fake \(ws\/fake\) did not settle: diagnostics for .*\/ws\/([ab])\.fake version 1 did not finish within 1500 ms \(Timeout\)$/m.exec(
        result.stderr,
      );
    expect(reason, result.stderr).not.toBeNull();
    expect(reason![1]).toBe(reason![2]);
  });

  it("a server that dies during the run", async () => {
    const { config, root } = fakeCheckWorkspace([join(REPO, "tests/fixtures/check/servers/dies-on-open.mjs"), "--stdio"]);
    const result = await runCheckCli(["--config", config, "--format", "sarif"], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^lspmcp check: no report: .* \((ServerCrashed|SessionDead)\)$/m);
  });
});
