import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { requireBinary, requireBuild } from "../helpers/require-binary.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { requireCachedTool } from "../helpers/tool-cache.js";

// Issue 36, as a new user first met it: a repository with Go in gosvc/, Rust in rs/, Python with
// [tool.ruff] in py/pyproject.toml and TypeScript in web/, served with no config. The embedded
// default chooses six servers (typescript, pyright, gopls, json, rust-analyzer, ruff) and keeps
// max_sessions = 4; every call that needs them all still answers, the idle ones giving way.

let repo: TempRepo;
let bridge: Bridge;

beforeAll(async () => {
  requireBuild();
  requireBinary("cargo");
  requireCachedTool("go/bin/gopls");
  requireCachedTool("rust-analyzer/bin/rust-analyzer");
  requireCachedTool("ruff/bin/ruff");
  repo = tempRepo({
    "gosvc/go.mod": "module example.com/gosvc\n\ngo 1.25\n",
    "gosvc/main.go": 'package main\n\nfunc main() {\n\tvar n int = "x"\n\t_ = n\n}\n',
    "rs/Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
    "rs/src/lib.rs": 'pub fn price() -> u32 {\n    "free"\n}\n',
    "py/pyproject.toml": '[project]\nname = "svc"\nversion = "0"\n\n[tool.ruff.lint]\nselect = ["F"]\n',
    "py/app.py": 'import os\n\ncount: int = "three"\n',
    "web/tsconfig.json": '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }\n',
    "web/index.ts": 'export const answer: number = "no";\n',
  });
  // The crate's lock, committed as a user would (without one, cargo check writes it: docs/contributors/contract-notes.md).
  execFileSync("cargo", ["generate-lockfile", "--offline", "-q"], { cwd: `${repo.root}/rs` });
  execFileSync("git", ["add", "rs/Cargo.lock"], { cwd: repo.root });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "lock"], { cwd: repo.root });
  bridge = await startBridge(null, {}, { cwd: repo.root });
}, 300_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

const live = async () =>
  ((await bridge.ok("session_status")).sessions as { state: string }[]).filter((session) => session.state === "ready" || session.state === "starting").length;

describe("the embedded default of a polyglot repository, six servers and max_sessions 4", () => {
  let found: number;

  test('diagnostics "." answers for every language', async () => {
    const answer = await bridge.ok("diagnostics", { path: "." });
    expect(answer.files).toBe(6);
    const sources = new Set(answer.items.map((item: { path: string; source: string }) => `${item.path} ${item.source}`));
    // TypeScript answers with the pinned TypeScript 7 (the repository has no node_modules/typescript), whose source is "ts".
    for (const expected of ["gosvc/main.go compiler", "py/app.py Ruff", "py/app.py Pyright", "rs/src/lib.rs rustc", "web/index.ts ts"]) {
      expect(sources).toContain(expected);
    }
    found = answer.total;
    expect(await live()).toBeLessThanOrEqual(4);
  });

  test("workspace_symbols without server asks every server that searches", async () => {
    const answer = await bridge.ok("workspace_symbols", { query: "price" });
    expect(answer.items).toContainEqual(expect.objectContaining({ name: "price", kind: "function", path: "rs/src/lib.rs" }));
    expect(await live()).toBeLessThanOrEqual(4);
  });

  test("since HEAD, with the snapshot's six sessions as well", async () => {
    const answer = await bridge.ok("diagnostics", { path: ".", since: "HEAD" });
    expect([answer.introduced, answer.resolved, answer.unchanged]).toEqual([0, 0, found]);
    expect(await live()).toBeLessThanOrEqual(4);
    expect(repo.status()).toBe("");
  });
});
