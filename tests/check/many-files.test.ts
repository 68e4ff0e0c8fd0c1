import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/bridge.js";
import { logLines, runCheckCli } from "./helpers/cli.js";

const FILES = 500;
const BATCH = 16;

describe("check on 500 generated TypeScript files", () => {
  it("finds every planted error with at most --batch-size documents open, all closed at the end", async () => {
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
    expect(done!.peak_open_documents).toBeGreaterThan(0);
    expect(done!.peak_open_documents).toBeLessThanOrEqual(BATCH);
  });
});
