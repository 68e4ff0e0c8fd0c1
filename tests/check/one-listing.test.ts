import { appendFileSync, chmodSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics } from "../helpers/differential.js";
import { BROKEN_TS, tempRepo } from "../helpers/temp-repo.js";
import { tempDir } from "../helpers/temp.js";

// One `diagnostics` call on a workspace whose files the bridge watches lists that workspace once:
// discovery's listing is the one the project run's look at the disk takes (it used to list the
// workspace again). The count comes from git itself: a `git` first on PATH that records each
// `ls-files` and runs the real one. (A session's start reads a listing of its own, for its
// project roots; the calls below are made on a started session.)
describe("one listing per call", () => {
  const repo = tempRepo({
    "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true, "types": [] } }\n',
    "src/a.ts": BROKEN_TS,
    "src/b.ts": 'import { count } from "./a";\nexport const twice: number = count * 2;\n',
    "src/c.ts": "export const c = 1;\n",
  });
  const shim = tempDir("lspmcp-git-shim-");
  const log = join(shim, "ls-files.log");
  let bridge: Bridge;

  beforeAll(async () => {
    const realGit = process.env
      .PATH!.split(delimiter)
      .map((dir) => join(dir, "git"))
      .find((path) => {
        try {
          return readFileSync(path).length > 0;
        } catch {
          return false;
        }
      })!;
    // lspmcp runs git from "/" as `git -C DIR [-c KEY=VALUE...] ls-files ...`: the folder listed is -C's.
    writeFileSync(
      join(shim, "git"),
      `#!/bin/sh\ndir="$PWD"; prev=""\nfor a in "$@"; do\n  [ "$prev" = "-C" ] && dir="$a"\n  if [ "$a" = ls-files ]; then echo "$dir" >> "${log}"; break; fi\n  prev="$a"\ndone\nexec "${realGit}" "$@"\n`,
    );
    chmodSync(join(shim, "git"), 0o755);
    const config = writeConfig(
      `[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "repo"\nroot = ${JSON.stringify(repo.root)}\nservers = ["typescript"]\n`,
    );
    bridge = await startBridge(config, { PATH: `${shim}${delimiter}${process.env.PATH}` });
    // The session's start, with its own listing for the project roots.
    await diagnostics(bridge, { path: "src/c.ts" });
  }, 180_000);
  afterAll(async () => {
    await bridge?.close();
    repo.remove();
  });

  const listings = (): string[] => readFileSync(log, "utf8").split("\n").filter(Boolean);

  test('"." lists the workspace once, after a change as well, and still answers from the disk', async () => {
    writeFileSync(log, "");
    const first = await diagnostics(bridge, { path: "." });
    expect(first.items.map((item) => item.code)).toEqual(["2322"]);
    expect(listings()).toEqual([repo.root]);
    appendFileSync(join(repo.root, "src/c.ts"), 'export const d: number = "no";\n');
    writeFileSync(log, "");
    const second = await diagnostics(bridge, { path: "src" });
    expect(second.items.map((item) => `${item.path}:${item.code}`)).toEqual(["src/a.ts:2322", "src/c.ts:2322"]);
    expect(listings()).toEqual([repo.root]);
  }, 180_000);
});
