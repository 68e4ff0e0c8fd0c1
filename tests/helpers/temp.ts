// Temp folders that go away with the test file that made them, whichever way its tests ended.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];
// Registered when a test file first imports this module (during collection), so it runs after
// that file's last test; vitest evaluates modules afresh for every test file.
// Removing an install test's folders (a virtualenv, a packed lspmcp and its servers) took over the
// default 120 s on a fresh machine building the servers beside the tests.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}, 600_000);

/** A fresh folder under the system temp folder, removed after the test file's last test. */
export function tempDir(prefix = "lspmcp-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
