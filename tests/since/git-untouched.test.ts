import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { pollUntil } from "../helpers/poll.js";
import { expectAttached } from "../helpers/shared-attachment.js";
import { tempDir } from "../helpers/temp.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { snapshotFiles } from "../helpers/workspace.js";
import { sharedServers } from "../sharing/helpers/shared.js";

// Issue 36: `diagnostics` with `since` left a loose object (the empty blob) in .git/objects of a
// checkout with an untracked file, a deleted one and code moved without `git mv`: git marks an
// untracked file intent-to-add by writing the empty blob. The object store is in the checkout, and
// nothing may be written there: every file under .git is the same, byte for byte and mtime, after.

const FILES = {
  "tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
  "shapes.ts": 'export function area(r: number): number {\n  return r * r * 3;\n}\nexport const bad: number = "x";\n',
  "gone.ts": 'export const gone: number = "y";\n',
  "keep.ts": 'import { area } from "./shapes";\n\nexport const one = area(1);\n',
};

const configs: string[] = [];
const started: Bridge[] = [];
afterAll(async () => {
  await Promise.all(started.map((bridge) => bridge.close().catch(() => {})));
  // A shared server started here ends once its last peer has gone (linger_ms 200).
  expect(await pollUntil(() => configs.every((config) => sharedServers({ config }).length === 0), 60_000, 50)).toBe(true);
}, 120_000);

describe.each([
  { mode: "standalone", shared: false },
  { mode: "shared (the default)", shared: true },
])("since writes nothing under .git, $mode", ({ shared }) => {
  test("an untracked file, a deleted one and a file moved without git mv", async () => {
    const repo = tempRepo(FILES);
    const config = writeConfig(`
[bridge]
request_timeout_ms = 120000

[shared]
enabled = ${shared}
lease_dir = ${JSON.stringify(tempDir("lspmcp-git-untouched-"))}
linger_ms = 200

[[server]]
name = "typescript"
profile = "typescript"

[[workspace]]
name = "app"
root = ${JSON.stringify(repo.root)}
servers = ["typescript"]
`);
    configs.push(config);
    renameSync(join(repo.root, "shapes.ts"), join(repo.root, "geometry.ts"));
    writeFileSync(join(repo.root, "keep.ts"), 'import { area } from "./geometry";\n\nexport const one = area(1);\n');
    rmSync(join(repo.root, "gone.ts"));
    writeFileSync(join(repo.root, "fresh.ts"), 'export const fresh: number = "z";\n');
    const before = snapshotFiles(join(repo.root, ".git"));

    const bridge = await startBridge(config, {}, { shared });
    started.push(bridge);
    const answer = await bridge.ok("diagnostics", { path: ".", since: "HEAD" });
    // The move was followed (its finding unchanged), so the untracked files were marked for git.
    expect([answer.introduced, answer.resolved, answer.unchanged]).toEqual([1, 1, 1]);
    expect(answer.items.map((item: { path: string }) => item.path)).toEqual(["fresh.ts"]);
    if (shared) await expectAttached({ config }, [bridge]);

    const after = snapshotFiles(join(repo.root, ".git"));
    expect([...after.keys()].filter((path) => !before.has(path))).toEqual([]);
    expect(after).toEqual(before);
  }, 300_000);
});
