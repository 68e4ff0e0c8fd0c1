import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { generateNoisyTsWorkspace, profileConfig, type GeneratedTsWorkspace } from "../helpers/generated-workspace.js";
import { runThroughSlowReader, runToFile, runWithEarlyClose } from "../helpers/slow-reader.js";
import { tempDir } from "../helpers/temp.js";

// CONTRACT §2, "Every report reaches its reader whole": what a command prints through a pipe to a
// slow reader is byte for byte what it writes to a file. The big outputs are over 1 MB, far past
// what a pipe or socket buffer holds, so a process that exits before its output drained is caught.
const MB = 1024 * 1024;
const STACK_TRACE = /\n\s+at /;

let noisy: GeneratedTsWorkspace;
let checkConfig: string;

beforeAll(() => {
  // 24 files × 500 type errors: 12,000 findings, over 1 MB in every format.
  noisy = generateNoisyTsWorkspace(24, 500);
  checkConfig = writeConfig(profileConfig(noisy.root, "typescript"));
});
afterAll(() => rmSync(noisy.root, { recursive: true, force: true }));

describe("check's report through a slow pipe reader", () => {
  test.each(["text", "json", "sarif"])("--format %s arrives whole", async (format) => {
    const args = ["check", "--config", checkConfig, "--format", format, "--quiet"];
    const toFile = await runToFile(args, { cwd: noisy.root });
    expect(toFile.code, toFile.other).toBe(1);
    expect(toFile.bytes.length).toBeGreaterThan(MB);
    const piped = await runThroughSlowReader(args, { cwd: noisy.root });
    expect(piped.code, piped.other).toBe(1);
    expect(piped.bytes.length).toBe(toFile.bytes.length);
    expect(piped.bytes.equals(toFile.bytes)).toBe(true);
  });

  test("a reader that closes early ends check quietly with its exit code", async () => {
    const result = await runWithEarlyClose(["check", "--config", checkConfig, "--format", "json", "--quiet"], { cwd: noisy.root, deadlineMs: 60_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});

describe("the other commands through a slow pipe reader", () => {
  test("validate: a valid config's summary (stdout) and an invalid one's problems (stderr), over 1 MB each", async () => {
    const dir = tempDir();
    const long = "w".repeat(200);
    const valid = ['[[server]]\nname = "c"\nprofile = "clangd"\n'];
    const invalid: string[] = [];
    for (let i = 0; i < 5_500; i++) valid.push(`[[workspace]]\nname = "${long}-${i}"\nroot = "."\nservers = ["c"]\n`);
    for (let i = 0; i < 10_000; i++) invalid.push(`[[workspace]]\nname = "w${i}"\nroot = "/nonexistent/${i}"\nservers = ["ghost${i}"]\n`);
    writeFileSync(join(dir, "valid.toml"), valid.join(""));
    writeFileSync(join(dir, "invalid.toml"), invalid.join(""));
    for (const [file, stream, code] of [
      ["valid.toml", "stdout", 0],
      ["invalid.toml", "stderr", 2],
    ] as const) {
      const args = ["validate", "--config", join(dir, file)];
      const toFile = await runToFile(args, { cwd: dir, stream });
      expect(toFile.code).toBe(code);
      expect(toFile.bytes.length).toBeGreaterThan(MB);
      const piped = await runThroughSlowReader(args, { cwd: dir, stream });
      expect(piped.code).toBe(code);
      expect(piped.bytes.equals(toFile.bytes)).toBe(true);
    }
  });

  test.each([[["--help"]], [["--version"]], [["status", "--config", "CONFIG"]], [["status", "--config", "CONFIG", "--format", "json"]]])(
    "%j",
    async (template) => {
      const dir = tempDir();
      const config = writeConfig('[[server]]\nname = "c"\nprofile = "clangd"\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["c"]\n', dir);
      const args = template.map((arg) => (arg === "CONFIG" ? config : arg));
      const toFile = await runToFile(args, { cwd: dir });
      expect(toFile.bytes.length).toBeGreaterThan(0);
      const piped = await runThroughSlowReader(args, { cwd: dir });
      expect(piped.code).toBe(toFile.code);
      expect(piped.bytes.equals(toFile.bytes)).toBe(true);
    },
  );

  test("init: its account (stderr) arrives whole and the file is written", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "main.ts"), "export const x = 1;\n");
    const piped = await runThroughSlowReader(["init"], { cwd: dir, stream: "stderr" });
    expect(piped.code).toBe(0);
    expect(piped.bytes.toString()).toMatch(/^lspmcp init: wrote .*bridge\.toml.*\n/);
    expect(existsSync(join(dir, "bridge.toml"))).toBe(true);
    const again = await runToFile(["init"], { cwd: dir, stream: "stderr" });
    expect(again.code).toBe(2);
    expect(again.bytes.toString()).toContain("exists; left untouched");
  });

  test("a reader that closes early ends validate quietly with its exit code", async () => {
    const dir = tempDir();
    const long = "w".repeat(200);
    const lines = ['[[server]]\nname = "c"\nprofile = "clangd"\n'];
    for (let i = 0; i < 2_000; i++) lines.push(`[[workspace]]\nname = "${long}-${i}"\nroot = "."\nservers = ["c"]\n`);
    writeFileSync(join(dir, "valid.toml"), lines.join(""));
    const result = await runWithEarlyClose(["validate", "--config", join(dir, "valid.toml")], { cwd: dir, deadlineMs: 30_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});

describe("status of a running shared server through a pipe", () => {
  // 1,000 sessions with 200-character workspace names: over 200 KiB of text, several pipe buffers.
  const SESSIONS = 1_000;
  let dir: string;
  let config: string;
  let bridge: Bridge;

  beforeAll(async () => {
    dir = tempDir();
    const long = "s".repeat(200);
    const toml = ['[shared]\nlease_dir = "leases"\nlinger_ms = 200\n\n[[server]]\nname = "c"\nprofile = "clangd"\n'];
    for (let i = 0; i < SESSIONS; i++) toml.push(`[[workspace]]\nname = "${long}-${i}"\nroot = "."\nservers = ["c"]\n`);
    config = writeConfig(toml.join(""), dir);
    bridge = await startBridge(config, {}, { shared: true });
    // Answered by the shared server itself (ResultTooLarge: 1,000 sessions do not fit one answer),
    // so its lease is in place once this returns.
    expect(JSON.parse((await bridge.call("session_status")).content[0]!.text).error.code).toBe("ResultTooLarge");
  });
  afterAll(async () => bridge?.close());

  test.each(["text", "json"])("--format %s: a slow reader gets every session", async (format) => {
    const piped = await runThroughSlowReader(["status", "--config", config, "--format", format], { cwd: dir });
    expect(piped.code, piped.other).toBe(0);
    expect(piped.bytes.length).toBeGreaterThan(200 * 1024);
    const text = piped.bytes.toString("utf8");
    if (format === "json") {
      const report = JSON.parse(text) as { shared: boolean; sessions: { workspace: string }[] };
      expect(report.shared).toBe(true);
      expect(report.sessions.map((session) => session.workspace)).toEqual(Array.from({ length: SESSIONS }, (_, i) => `${"s".repeat(200)}-${i}`));
    } else {
      expect(text).toMatch(new RegExp(`^sessions: ${SESSIONS}$`, "m"));
      expect(text.split("\n").filter((line) => /^ {2}s+-\d+\/c: idle, 0 processes$/.test(line))).toHaveLength(SESSIONS);
      // The last session, then the trust line that ends the report.
      expect(text).toMatch(new RegExp(`${"s".repeat(200)}-${SESSIONS - 1}/c: idle, 0 processes\ntrust: [^\n]+\n$`));
    }
  });

  test("a reader that closes early ends status quietly with its exit code", async () => {
    const result = await runWithEarlyClose(["status", "--config", config], { cwd: dir, deadlineMs: 30_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});
