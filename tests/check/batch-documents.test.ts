import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { describe, expect, test } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { requireCachedTool } from "../helpers/tool-cache.js";
import { vendoredRepo } from "../helpers/vendored-repo.js";
import { logLines, runCheckCli } from "./helpers/cli.js";

// ty starts over whatever it is computing when its open documents change: a `didOpen` or
// `didClose` cancels every pull in flight ("cancelled by salsa" in its log), and the bridge asks
// again. `check` therefore opens a batch, reads all of it, and only then closes it: on Flask's 24
// modules ty cancels nothing, in one batch or in several. Closing each document as soon as its
// own file was read cost ty 60 to 180 cancelled pulls here, and a fifth of the run.

const TY = requireCachedTool("ty/bin/ty");
const repo = vendoredRepo(join(REPO, "tests/fixtures/differential/python-flask"), ".");
/** ty's own log, at the level that names each request and each cancellation. */
const logOptions = (logFile: string) => ({ logLevel: "debug", logFile });
/** A pull's lines in ty's log: its request id and the file it checks. */
const PULL = /request\{id=(\d+) method=textDocument\/diagnostic\}:check_file\{file=File\(System\("([^"]+)"\)\)\}/g;

/** Each file ty checked for a pull, with the ids of the pulls that checked it, by ty's log. */
function pullsPerFile(tyLog: string): Map<string, Set<string>> {
  const files = new Map<string, Set<string>>();
  for (const [, id, file] of tyLog.matchAll(PULL)) {
    if (!files.has(file!)) files.set(file!, new Set());
    files.get(file!)!.add(id!);
  }
  return files;
}

describe("ty's log at that level names a cancelled pull", () => {
  // The control: without it, a log with no "cancelled by salsa" would prove only that the words
  // are not logged. ty driven directly (a plain JSON-RPC client): every Flask module opened and
  // pulled, then each closed and opened again while the pulls are in flight, as a check that
  // closed each document as soon as its own file was read did.
  test("documents closed and opened while pulls are in flight: ty cancels them, and logs it", async () => {
    const log = join(tempDir("lspmcp-ty-log-"), "ty.log");
    const files = readdirSync(join(repo.root, "src/flask"))
      .filter((name) => name.endsWith(".py"))
      .map((name) => join(repo.root, "src/flask", name));
    const ty = spawn(TY, ["server"], { cwd: repo.root, stdio: ["pipe", "pipe", "ignore"] });
    const connection = createMessageConnection(new StreamMessageReader(ty.stdout), new StreamMessageWriter(ty.stdin));
    connection.onRequest(() => null);
    connection.listen();
    try {
      const root = pathToFileURL(repo.root).href;
      await connection.sendRequest("initialize", {
        processId: process.pid,
        rootUri: root,
        workspaceFolders: [{ uri: root, name: "flask" }],
        capabilities: { textDocument: { diagnostic: {} } },
        initializationOptions: logOptions(log),
      });
      await connection.sendNotification("initialized", {});
      const document = (file: string) => ({ uri: pathToFileURL(file).href, languageId: "python", version: 1, text: readFileSync(file, "utf8") });
      for (const file of files) await connection.sendNotification("textDocument/didOpen", { textDocument: document(file) });
      const pulls = files.map((file) =>
        connection.sendRequest("textDocument/diagnostic", { textDocument: { uri: pathToFileURL(file).href } }).then(
          () => "answered",
          (error: { code?: number }) => error.code,
        ),
      );
      for (const file of files) {
        await connection.sendNotification("textDocument/didClose", { textDocument: { uri: pathToFileURL(file).href } });
        await connection.sendNotification("textDocument/didOpen", { textDocument: document(file) });
      }
      // ContentModified (-32801) or ServerCancelled (-32802): the pull was cancelled.
      const outcomes = await Promise.all(pulls);
      expect(outcomes.filter((outcome) => outcome !== "answered").length).toBeGreaterThan(0);
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
    } finally {
      connection.dispose();
      ty.kill();
    }
    expect(readFileSync(log, "utf8")).toMatch(/request id=\d+ was cancelled by salsa/);
  });
});

describe("check with ty: a batch's documents stay open until the whole batch is read", () => {
  for (const batch of [32, 8, 5]) {
    test(`--batch-size ${batch}: no pull cancelled, every file answered, all closed at the end`, async () => {
      const log = join(tempDir("lspmcp-ty-log-"), "ty.log");
      const config = writeConfig(
        `[[server]]\nname = "ty"\nprofile = "ty"\n` +
          // ty's own log, at the level that names each request and each cancellation.
          `initialization_options = { logLevel = "${logOptions(log).logLevel}", logFile = ${JSON.stringify(log)} }\n\n` +
          `[[workspace]]\nname = "flask"\nroot = ${JSON.stringify(repo.root)}\nservers = ["ty"]\n`,
      );
      const result = await runCheckCli(["--config", config, "--trust-config", "--format", "json", "--batch-size", String(batch)], {
        cwd: repo.root,
        env: { LSPMCP_LOG: "json", LSPMCP_LOG_LEVEL: "info" },
      });
      expect(result.code, result.stderr).toBe(1);
      const report = JSON.parse(result.stdout);
      expect(report.summary.files).toBe(24);
      const [done] = logLines(result.stderr, "check session done");
      expect(done).toMatchObject({ session: "flask/ty", files: 24, open_documents_at_end: 0, batch_size: batch });
      expect(done!.peak_open_documents).toBe(Math.min(batch, 24));
      const tyLog = readFileSync(log, "utf8");
      // One pull per file: none cancelled and asked again, none asked twice.
      const pulls = pullsPerFile(tyLog);
      expect(pulls.size).toBe(24);
      expect([...pulls].filter(([, ids]) => ids.size !== 1).map(([file, ids]) => `${file}: ${ids.size} pulls`)).toEqual([]);
      // At the level that logs a cancellation (the control above), none.
      expect(tyLog.match(/cancelled by salsa/g) ?? []).toEqual([]);
    });
  }
});
