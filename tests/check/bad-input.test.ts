import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { runCheckCli } from "./helpers/cli.js";

/** A workspace of its own, so odd files never enter the shared fixture. */
function scratchWorkspace(files: Record<string, string | Buffer>): { config: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-check-bad-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(root, name), content);
  const config = writeConfig(
    `[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "scratch"\nroot = ${JSON.stringify(root)}\nservers = ["typescript"]\n`,
    mkdtempSync(join(tmpdir(), "lspmcp-check-config-")),
  );
  return { config, root };
}

describe("check refuses bad input with a clear message and exit 2", () => {
  it("an unknown path", async () => {
    const result = await runCheckCli(["--config", "../bridge.toml", "src/missing.ts"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("lspmcp check: no such file or directory: src/missing.ts (FileNotFound)\n");
  });

  it("a path outside every workspace", async () => {
    const outside = mkdtempSync(join(tmpdir(), "lspmcp-outside-"));
    writeFileSync(join(outside, "a.ts"), "export {};\n");
    const result = await runCheckCli(["--config", "../bridge.toml", join(outside, "a.ts")]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`lspmcp check: ${join(outside, "a.ts")} is outside every workspace (PathOutsideWorkspace)\n`);
  });

  it("an unreadable file (binary bytes), before any server starts", async () => {
    const { config, root } = scratchWorkspace({ "blob.ts": Buffer.from([0x65, 0x00, 0xff, 0x00]) });
    const result = await runCheckCli(["--config", config, "blob.ts"], { cwd: root, env: { LSPMCP_LOG: "json", LSPMCP_LOG_LEVEL: "info" } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("lspmcp check: cannot read blob.ts: it is binary (contains NUL bytes) (FileUnreadable)\n");
    expect(result.stderr).not.toContain("session ready");
  });

  it("a file that no server claims", async () => {
    const result = await runCheckCli(["--config", "../bridge.toml", "notes.txt"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("lspmcp check: no server of workspace fixture handles notes.txt (NoServerForFile)\n");
  });

  it("an invalid config, listing every problem", async () => {
    const config = writeConfig(`[bridge]\nmax_sessions = "four"\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\nbogus = 1\n`);
    const result = await runCheckCli(["--config", config]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^lspmcp: .*invalid/);
    expect(result.stderr).toContain("bridge.max_sessions");
    expect(result.stderr).toContain("server[0].bogus");
  });

  it("a bad option value or a missing baseline file", async () => {
    const badBatch = await runCheckCli(["--config", "../bridge.toml", "--batch-size", "0"]);
    expect(badBatch.code).toBe(2);
    expect(badBatch.stderr).toContain("--batch-size must be a whole number from 1 to 10000");
    const noBaseline = await runCheckCli(["--config", "../bridge.toml", "--baseline", "/nonexistent/baseline.json", "src/clean.ts"]);
    expect(noBaseline.code).toBe(2);
    expect(noBaseline.stderr).toBe("lspmcp check: cannot read baseline /nonexistent/baseline.json: ENOENT (InvalidArguments)\n");
  });
});
