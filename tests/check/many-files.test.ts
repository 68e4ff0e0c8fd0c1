import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { logLines, runCheckCli } from "./helpers/cli.js";

const FILES = 500;
const BATCH = 16;

describe("check on 500 generated TypeScript files", () => {
  // The project path opens an anchor document or none and asks the server about the closed files,
  // so the batch bound is shown on a file-by-file server below.
  it("finds every planted error through the project, all documents closed at the end", async () => {
    const root = mkdtempSync(join(tmpdir(), "lspmcp-check-500-"));
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] }, "include": ["src"] }\n');
    for (let i = 0; i < FILES; i++) {
      // Every tenth file carries one type error.
      const body = i % 10 === 0 ? `export const v${i}: number = "x";\n` : `export const v${i}: number = ${i};\n`;
      writeFileSync(join(root, "src", `f${String(i).padStart(3, "0")}.ts`), body);
    }
    const config = writeConfig(
      `[bridge]\nrequest_timeout_ms = 120000\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "many"\nroot = ${JSON.stringify(root)}\nservers = ["typescript"]\n`,
    );
    const result = await runCheckCli(["--config", config, "--format", "json", "--batch-size", String(BATCH)], {
      cwd: root,
      env: { LSPMCP_LOG: "json", LSPMCP_LOG_LEVEL: "info" },
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.summary.files).toBe(FILES);
    expect(report.summary.errors).toBe(FILES / 10);
    // The bridge session's own document count, sampled after every sync.
    const [done] = logLines(result.stderr, "check session done");
    expect(done).toMatchObject({ session: "many/typescript", files: FILES, open_documents_at_end: 0, batch_size: BATCH });
  });
});

const JSON_FILES = 150;
const JSON_BATCH = 6;

describe("check on 150 generated JSON files, opened file by file", () => {
  it("finds every planted error with --batch-size documents open at once and no more, all closed at the end", async () => {
    const root = mkdtempSync(join(tmpdir(), "lspmcp-check-json-"));
    for (let i = 0; i < JSON_FILES; i++) {
      // Every tenth file is missing a comma: one syntax error.
      const body = i % 10 === 0 ? `{ "a": ${i} "b": 2 }\n` : `{ "a": ${i}, "b": 2 }\n`;
      writeFileSync(join(root, `f${String(i).padStart(3, "0")}.json`), body);
    }
    const config = writeConfig(
      `[bridge]\nrequest_timeout_ms = 120000\n\n[[server]]\nname = "json"\nprofile = "json"\n\n[[workspace]]\nname = "many"\nroot = ${JSON.stringify(root)}\nservers = ["json"]\n`,
    );
    const result = await runCheckCli(["--config", config, "--format", "json", "--batch-size", String(JSON_BATCH)], {
      cwd: root,
      env: { LSPMCP_LOG: "json", LSPMCP_LOG_LEVEL: "info" },
    });
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.summary.files).toBe(JSON_FILES);
    expect(report.summary.errors).toBe(JSON_FILES / 10);
    const [done] = logLines(result.stderr, "check session done");
    expect(done).toMatchObject({ session: "many/json", files: JSON_FILES, open_documents_at_end: 0, batch_size: JSON_BATCH });
    // A whole batch was open at once (the files overlap), and never more than that.
    expect(done!.peak_open_documents).toBe(JSON_BATCH);
  });
});
