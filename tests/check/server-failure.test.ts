import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, writeConfig } from "../helpers/bridge.js";
import { runCheckCli } from "./helpers/cli.js";

/** A workspace with two `.fake` files and a config whose one server is `serverToml`. */
function fakeWorkspace(serverToml: string, timeoutMs = 60000): { config: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-check-fail-"));
  writeFileSync(join(root, "a.fake"), "one\n");
  writeFileSync(join(root, "b.fake"), "two\n");
  const config = writeConfig(
    `[bridge]\nrequest_timeout_ms = ${timeoutMs}\n\n[[server]]\nname = "fake"\n${serverToml}\nlanguages = [{ id = "fake", extensions = [".fake"] }]\n\n` +
      `[[workspace]]\nname = "w"\nroot = ${JSON.stringify(root)}\nservers = ["fake"]\n`,
    mkdtempSync(join(tmpdir(), "lspmcp-check-config-")),
  );
  return { config, root };
}

const node = JSON.stringify(process.execPath);
const fixture = (path: string) => JSON.stringify(join(REPO, path));

describe("check exits 3 with the reason, and prints no report, when a server fails", () => {
  it("a server whose version is not its pin", async () => {
    const { config, root } = fakeWorkspace(`command = ${node}\nargs = [${fixture("tests/fixtures/servers/fake-server.mjs")}, "--no-daemon", "--no-child", "--version", "2.0.0"]\nversion = "1.0.0"`);
    const result = await runCheckCli(["--config", config, "--format", "json"], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^lspmcp check: no report: .*2\.0\.0.* \(ServerVersionMismatch\)$/m);
  });

  it("a server that never settles (no diagnostics before the deadline): the reason names the file", async () => {
    const { config, root } = fakeWorkspace(`command = ${node}\nargs = [${fixture("tests/fixtures/servers/fake-server.mjs")}, "--no-daemon", "--no-child"]\nversion = "1.0.0"`, 1500);
    const result = await runCheckCli(["--config", config], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^lspmcp check: no report: a\.fake \(w\/fake\) did not settle: diagnostics for .*\.fake version 1 did not finish within 1500 ms \(Timeout\)$/m,
    );
  });

  it("a server that dies during the run", async () => {
    const { config, root } = fakeWorkspace(`command = ${node}\nargs = [${fixture("tests/fixtures/check/servers/dies-on-open.mjs")}, "--stdio"]\nversion = "1.0.0"`);
    const result = await runCheckCli(["--config", config, "--format", "sarif"], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^lspmcp check: no report: .* \((ServerCrashed|SessionDead)\)$/m);
  });
});
