// A user's first call on a project that a cold TypeScript server takes longer to load than the
// call's request_timeout_ms (CONTRACT §4.2 "Startup", docs/contributors/contract-notes.md): the time the server
// spends starting and loading (its work-done progress, TypeScript 7's "Loading") does not count
// against the call, so the first call answers, and answers as a later
// one does. A real TypeScript server on a generated 13 MB project, whose load takes seconds, held
// still (SIGSTOP) past the call's deadline while it loads, so that the load outlasts the deadline
// however fast the machine.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { pollUntil } from "../helpers/poll.js";
import { pidsWithEnv, proc } from "../helpers/proc.js";
import { tempDir } from "../helpers/temp.js";

// Long enough that what follows the load (a check of one small file) fits in it on a machine
// that a full parallel suite keeps busy; the hold below still outlasts it.
const REQUEST_TIMEOUT_MS = 6000;
// Marks the session's processes, so that the test finds them.
const MARK = "LSPMCP_TEST_LOAD_MARK";
const mark = randomUUID();
let root: string;
let bridge: Bridge;

/** 800 files of 100 interfaces and functions each; `src/app.ts` imports and calls `f0_0`. */
function largeProject(): string {
  const dir = tempDir("lspmcp-large-ts-");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noEmit": true }, "include": ["src"] }\n');
  for (let file = 0; file < 800; file++) {
    let text = "";
    for (let item = 0; item < 100; item++) {
      const name = `${file}_${item}`;
      text += `export interface I${name} { a: number; b: string; c: I${name}[]; }\n`;
      text += `export function f${name}(x: I${name}): number { return x.a + ${item}; }\n`;
    }
    writeFileSync(join(dir, "src", `m${file}.ts`), text);
  }
  writeFileSync(join(dir, "src/app.ts"), 'import { f0_0 } from "./m0";\n\nexport const total: number = f0_0({ a: 1, b: "", c: [] });\n');
  return dir;
}

beforeAll(async () => {
  root = largeProject();
  bridge = await startBridge(
    writeConfig(
      `[bridge]\nrequest_timeout_ms = ${REQUEST_TIMEOUT_MS}\n\n[[server]]\nname = "typescript"\nprofile = "typescript"\nenv = { ${MARK} = "${mark}" }\n\n[[workspace]]\nname = "large"\nroot = ${JSON.stringify(root)}\nservers = ["typescript"]\n`,
    ),
  );
});
afterAll(async () => bridge?.close());

describe("a first call on a project that takes longer to load than request_timeout_ms", () => {
  test("answers once the server has loaded, exactly as a later call does", async () => {
    let settled = false;
    const call = bridge.call("definition", { path: "src/app.ts", symbol: "f0_0" }).finally(() => (settled = true));
    // Once the server has initialized, it loads the project: the session's processes (whichever
    // server the profile runs; not the supervisor) are held still past the call's own deadline.
    const initialized = async () => ((await bridge.ok("session_status")).sessions[0]?.state ?? null) === "ready";
    expect(await pollUntil(initialized, 60_000, 10)).toBe(true);
    const server = pidsWithEnv(MARK, mark).filter((pid) => !proc(pid)?.cmdline.includes("--supervise"));
    expect(server.length).toBeGreaterThan(0);
    for (const pid of server) process.kill(pid, "SIGSTOP");
    try {
      // A call that counted the load would end meanwhile, with Timeout.
      expect(await pollUntil(() => settled, REQUEST_TIMEOUT_MS + 1000)).toBe(false);
    } finally {
      for (const pid of server) process.kill(pid, "SIGCONT");
    }
    const first = await call;
    expect(first.isError ?? false, first.content[0]?.text).toBe(false);
    const items = (first.structuredContent as { items: { path: string; text: string }[] }).items;
    expect(items.map((item) => `${item.path}: ${item.text}`)).toEqual(["src/m0.ts: export function f0_0(x: I0_0): number { return x.a + 0; }"]);

    const again = await bridge.call("definition", { path: "src/app.ts", symbol: "f0_0" });
    expect(again.structuredContent).toEqual(first.structuredContent);
    const { sessions } = await bridge.ok("session_status");
    expect(sessions[0]).toMatchObject({ state: "ready", restarts: 0 });
  });
});
