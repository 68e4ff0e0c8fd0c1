// After an edit that keeps a module's exports, a warm `diagnostics "."` asks the server again of
// that file alone, however often the same file is edited: every other kept answer is one the
// server would give again (docs/contributors/performance.md, "Edits after a run"). TypeScript 7's
// own log of each request it handled counts the pulls.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { pollUntil } from "../helpers/poll.js";
import { tempDir } from "../helpers/temp.js";

const FILES = 12;
let root: string;
let bridge: Bridge;

const module = (i: number, body: string) =>
  `${i > 0 ? `import { value${i - 1} } from "./m${i - 1}";\n` : ""}export function value${i}(): number {\n  return ${i > 0 ? `value${i - 1}() + ` : ""}${body};\n}\n`;

/** How often TypeScript 7 handled `method` since the bridge started, by its own log. */
const handled = (method: string) => bridge.stderr().split(`handled method '${method}'`).length - 1;

/** A warm `diagnostics "."`, and then, once the server's log shows at least `least` pulls in all, that count. */
async function pullsAfterCall(least: number): Promise<number> {
  const result = await bridge.ok("diagnostics", { path: "." });
  expect(result.total).toBe(0);
  expect(await pollUntil(() => handled("textDocument/diagnostic") >= least, 30_000)).toBe(true);
  return handled("textDocument/diagnostic");
}

/**
 * Waits until the server's log holds every request it answered before now: it logs each request
 * after its answer, and a hover (which pulls nothing) asked now is logged after them all. Counts
 * read before it may miss a pull logged late.
 */
async function logCaughtUp(): Promise<void> {
  const hovers = handled("textDocument/hover");
  await bridge.ok("hover", { path: "src/m0.ts", line: 1, column: 17 });
  expect(await pollUntil(() => handled("textDocument/hover") > hovers, 30_000)).toBe(true);
}

beforeAll(async () => {
  root = tempDir("lspmcp-edits-");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  for (let i = 0; i < FILES; i++) writeFileSync(join(root, "src", `m${i}.ts`), module(i, "1"));
  execFileSync("git", ["init", "-q"], { cwd: root });
  const config = writeConfig(
    `[[server]]\nname = "typescript"\nprofile = "typescript"\n\n[[workspace]]\nname = "chain"\nroot = ${JSON.stringify(root)}\nservers = ["typescript"]\n`,
  );
  bridge = await startBridge(config, { LSPMCP_LOG_LEVEL: "debug" });
});
afterAll(async () => bridge?.close());

describe("edits that keep a module's exports", () => {
  test("a cold call asks every file (its anchor pulled, the rest in the project's whole answer); the same call again, none; each edit of one file asks again of that file alone", async () => {
    expect(await pullsAfterCall(1)).toBe(1);
    expect(bridge.stderr()).toContain(`answered a whole project {"project":${JSON.stringify(join(root, "tsconfig.json"))},"files":${FILES - 1}`);
    expect(await pullsAfterCall(1)).toBe(1);
    let pulled = 1;
    for (const body of ["2", "3", "4 + 0"]) {
      writeFileSync(join(root, "src", "m5.ts"), module(5, body));
      pulled++;
      expect(await pullsAfterCall(pulled), `after the body ${body}`).toBe(pulled);
    }
    // The cold run's anchor (the document that keeps the project loaded) is still open: the runs
    // after an edit hold it rather than opening the edited file, so nothing is opened again.
    expect(handled("textDocument/didOpen")).toBe(1);
    await logCaughtUp();
    expect(handled("textDocument/diagnostic")).toBe(pulled);
  });

  test("an export added to a module nothing imports: one question for its importers (none), and that file alone pulled", async () => {
    const questions = handled("workspace/willRenameFiles");
    const pulls = handled("textDocument/diagnostic");
    const last = FILES - 1;
    writeFileSync(join(root, "src", `m${last}.ts`), `${module(last, "1")}export const extra = 1;\n`);
    await pullsAfterCall(pulls + 1);
    await logCaughtUp();
    expect(handled("textDocument/diagnostic")).toBe(pulls + 1);
    // The move the question is asked as also edits the file itself and the tsconfig: neither is
    // its importer, and neither is asked about in turn.
    expect(handled("workspace/willRenameFiles")).toBe(questions + 1);
  });
});
