import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";

// Issue 36: a limit must never make a configuration unusable. Three real servers on one workspace
// with max_sessions = 2: a call that needs them one after another (a folder, a workspace-wide
// search, a revision's snapshot) gets them, the idle ones giving way least recently used first;
// SessionLimit is left for a start when every live session is in use by a call.

const fixture = (path: string) => readFileSync(join(REPO, "tests/fixtures/workspaces/poly", path), "utf8");
const config = (root: string, maxSessions: number) => `
[bridge]
max_sessions = ${maxSessions}
request_timeout_ms = 120000

[[server]]
name = "typescript"
profile = "typescript"

[[server]]
name = "pyright"
profile = "pyright"

[[server]]
name = "bash"
profile = "bash"

[[workspace]]
name = "poly"
root = ${JSON.stringify(root)}
servers = ["typescript", "pyright", "bash"]
`;

let repo: TempRepo;
let bridge: Bridge;

beforeAll(async () => {
  repo = tempRepo({
    "tsconfig.json": fixture("tsconfig.json"),
    "src/shapes.ts": fixture("src/shapes.ts"),
    "src/inventory.py": `${fixture("src/inventory.py")}\n\nclass ShapeShelf:\n    pass\n`,
    "src/run.sh": "shape_count() {\n  echo 3\n}\nshape_count\n",
  });
  bridge = await startBridge(writeConfig(config(repo.root, 2)));
});
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
});

type Status = { server: string; state: string; last_exit: { reason: string | null } | null };
const sessions = async () =>
  ((await bridge.ok("session_status")).sessions as Status[]).map((s) => ({ server: s.server, state: s.state, reason: s.last_exit?.reason ?? null }));
const live = async () => (await sessions()).filter((s) => s.state === "ready" || s.state === "starting");

/** Runs `call` while session_status is asked again and again: the most sessions seen live during it, and how many looks it took. */
async function livePeak<T>(call: () => Promise<T>): Promise<{ result: T; peak: number; looks: number }> {
  let calling = true;
  let peak = 0;
  let looks = 0;
  const sampler = (async () => {
    while (calling) {
      const count = (await live()).length;
      // Only a look answered while the call was still running counts.
      if (!calling) break;
      peak = Math.max(peak, count);
      looks++;
    }
  })();
  try {
    return { result: await call(), peak, looks };
  } finally {
    calling = false;
    await sampler;
  }
}

describe("idle sessions give way to the sessions a call needs (max_sessions 2, three servers)", () => {
  test('diagnostics "." checks the files of all three servers, never more than two live', async () => {
    const { result: answer, peak, looks } = await livePeak(() => bridge.ok("diagnostics", { path: "." }));
    expect(answer.files).toBe(3);
    expect(new Set(answer.items.map((item: { path: string }) => item.path))).toEqual(new Set(["src/shapes.ts", "src/inventory.py"]));
    // Looked at while the sessions gave way to each other, not only once the call had ended.
    expect(looks).toBeGreaterThan(2);
    expect(peak).toBeLessThanOrEqual(2);
    expect((await live()).length).toBeLessThanOrEqual(2);
    // The one that made room was stopped in order, as an idle stop does: not dead.
    expect(await sessions()).toContainEqual(expect.objectContaining({ state: "idle", reason: "idle" }));
  });

  test("workspace_symbols without server asks all three", async () => {
    const answer = await bridge.ok("workspace_symbols", { query: "shape" });
    const paths = new Set(answer.items.map((item: { path: string }) => item.path));
    expect(paths).toEqual(new Set(["src/shapes.ts", "src/inventory.py", "src/run.sh"]));
    // Two starts that each found room after one stop must not both take it.
    expect((await live()).length).toBeLessThanOrEqual(2);
  });

  test("one call after another: the least recently used gives way, and the next call starts it again", async () => {
    await bridge.ok("document_symbols", { path: "src/shapes.ts" });
    await bridge.ok("document_symbols", { path: "src/inventory.py" });
    await bridge.ok("document_symbols", { path: "src/run.sh" });
    expect((await sessions()).map((s) => [s.server, s.state])).toEqual([
      ["typescript", "idle"],
      ["pyright", "ready"],
      ["bash", "ready"],
    ]);
    await bridge.ok("document_symbols", { path: "src/shapes.ts" });
    expect((await sessions()).map((s) => s.state)).toEqual(["ready", "idle", "ready"]);
  });

  test("since HEAD checks the snapshot with sessions of its own as well", async () => {
    writeFileSync(join(repo.root, "src/inventory.py"), `${readFileSync(join(repo.root, "src/inventory.py"), "utf8")}\ncount: int = "three"\n`);
    const answer = await bridge.ok("diagnostics", { path: ".", since: "HEAD" });
    expect(answer.introduced).toBe(1);
    expect(answer.items.map((item: { path: string; message: string }) => item.path)).toEqual(["src/inventory.py"]);
    expect(answer.unchanged).toBeGreaterThan(0);
    expect((await live()).length).toBeLessThanOrEqual(2);
  });
});

describe("SessionLimit is left for a start when every live session is in use", () => {
  test("max_sessions 1: of two calls in flight on two servers, one answers and the other is SessionLimit", async () => {
    const one = await startBridge(writeConfig(config(repo.root, 1)));
    try {
      const results = await Promise.all([one.call("diagnostics", { path: "src/shapes.ts" }), one.call("document_symbols", { path: "src/run.sh" })]);
      const failed = results.filter((result) => result.isError).map((result) => JSON.parse(result.content[0]!.text).error);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({
        code: "SessionLimit",
        details: { live: 1, max_sessions: 1, sessions: [expect.stringMatching(/^poly\/(typescript|bash)$/)] },
      });
      expect(failed[0].message).toMatch(/in use by a call/);
    } finally {
      await one.close();
    }
  });
});
