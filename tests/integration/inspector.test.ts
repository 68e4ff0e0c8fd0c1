// A real client no one here wrote: the official MCP Inspector's CLI (pinned devDependency) drives
// `lspmcp` exactly as a user registers it (README: `{ "command": "lspmcp" }`) — the bin found on
// PATH and run as a program (its #! line), no arguments, no config — in a temp repo.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BRIDGE_MAIN, REPO } from "../helpers/paths.js";
import { BROKEN_TS, tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { pollUntil } from "../helpers/poll.js";

const INSPECTOR = join(REPO, "node_modules/.bin/mcp-inspector");

let repo: TempRepo;
let temp: string;
let binDir: string;

beforeAll(() => {
  repo = tempRepo({ "src/app.ts": BROKEN_TS });
  temp = mkdtempSync(join(tmpdir(), "lspmcp-inspector-"));
  // What `npm install -g` puts on PATH: a link named after package.json's bin to the bundle's entry.
  binDir = join(temp, "bin");
  mkdirSync(binDir);
  symlinkSync(BRIDGE_MAIN, join(binDir, "lspmcp"));
});
afterAll(() => {
  repo?.remove();
  rmSync(temp, { recursive: true, force: true });
});

/** Runs the Inspector CLI against `lspmcp` (no arguments) in the repo; resolves with its exit and output. */
function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The runtime folder goes to a private temp folder: TMPDIR reaches the server through -e.
    // A busy machine can take longer than the Inspector's 15 s default to launch the shared server
    // that `serve` attaches to before it answers `initialize`.
    const child = spawn(INSPECTOR, ["--cli", ...args, "--connect-timeout", "120000", "-e", `TMPDIR=${temp}`, "--cwd", repo.root, "--", "lspmcp"], {
      cwd: repo.root,
      env: { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The shared server the run elected ends once its last peer is gone, and removes its lease. */
async function sharedServerGone(): Promise<boolean> {
  const runtime = join(temp, `lspmcp-${process.getuid!()}`);
  return pollUntil(() => !readdirSync(runtime).some((name) => name.endsWith(".lease")), 30_000, 50);
}

describe("the official MCP Inspector CLI against lspmcp with no config", () => {
  test("tools/list passes its --strict portability check with no error and no warning", async () => {
    const result = await inspect(["--method", "tools/list", "--strict"]);
    // --strict exits 6 on any error-severity problem and prints each problem as "Error: tool …"
    // or "Warning: tool …" (with a count line); a clean list prints none of them.
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/^(Error|Warning): tool/m);
    expect(result.stderr).not.toMatch(/\d+ errors?, \d+ warnings?/);
    const { tools } = JSON.parse(result.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toContain("diagnostics");
    expect(result.stderr).toContain(`config: embedded default for ${repo.root}`);
    expect(await sharedServerGone()).toBe(true);
  });

  test("tools/call answers with structured content from the embedded default's servers", async () => {
    // A cold tsserver's first answer: its start and load do not count against the call's 30 s.
    const result = await inspect(["--method", "tools/call", "--tool-name", "document_symbols", "--tool-arg", "path=src/app.ts"]);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { isError?: boolean; structuredContent: { items: { name: string; kind: string }[] } };
    expect(answer.isError ?? false).toBe(false);
    expect(answer.structuredContent.items.map((item) => `${item.kind} ${item.name}`)).toEqual(["variable count"]);
    expect(await sharedServerGone()).toBe(true);
    expect(repo.status()).toBe("");
  });
});
