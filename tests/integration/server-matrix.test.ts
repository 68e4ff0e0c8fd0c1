import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { requireEveryCachedServer } from "../helpers/every-cached-server.js";
import { REPO } from "../helpers/paths.js";

const run = promisify(execFile);

test("docs/servers.md shows what every pinned server's initialize says today", async () => {
  requireEveryCachedServer();
  // --check starts every shipped profile, renders the matrix and exits 1 when the file differs.
  const result = await run(process.execPath, [join(REPO, "dist/scripts/generate-server-matrix.js"), "--check"], {
    cwd: REPO,
    maxBuffer: 1 << 22,
  }).catch((error: { code: number; stderr: string }) => error);
  expect("code" in result ? `exit ${result.code}: ${result.stderr}` : "fresh").toBe("fresh");
});
