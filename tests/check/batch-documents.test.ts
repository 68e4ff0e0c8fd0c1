import { readFileSync } from "node:fs";
import { join } from "node:path";
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

requireCachedTool("ty/bin/ty");
const repo = vendoredRepo(join(REPO, "tests/fixtures/differential/python-flask"), ".");

describe("check with ty: a batch's documents stay open until the whole batch is read", () => {
  for (const batch of [32, 8, 5]) {
    test(`--batch-size ${batch}: no pull cancelled, every file answered, all closed at the end`, async () => {
      const log = join(tempDir("lspmcp-ty-log-"), "ty.log");
      const config = writeConfig(
        `[[server]]\nname = "ty"\nprofile = "ty"\n` +
          // ty's own log, at the level that names each request and each cancellation.
          `initialization_options = { logLevel = "debug", logFile = ${JSON.stringify(log)} }\n\n` +
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
      // The log is read: it names the pulls ty answered.
      expect(tyLog).toContain("method=textDocument/diagnostic");
      expect(tyLog.match(/cancelled by salsa/g) ?? []).toEqual([]);
    });
  }
});
