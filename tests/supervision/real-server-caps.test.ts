// max_rss_mb and idle_stop_s on a real server (issue 36): typescript-language-server 5.3.0 and
// its tsserver, configured here in full (not through a profile, whose server may change), on a
// project generated in a temp folder.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { expectGoneWithin, GateClock, holdsWithin, markedGoneWithin } from "../helpers/gate-clock.js";
import { TSLS } from "../helpers/paths.js";
import { pidsWithEnv, treeByEnv, waitAllGone } from "../helpers/proc.js";
import { tempDir } from "../helpers/temp.js";

const MARK = "LSPMCP_TEST_CAPS_MARK";

let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

/** `count` modules under src/, each importing the one before it, with types for tsserver to check. */
function generateProject(count: number): string {
  const dir = tempDir("lspmcp-caps-");
  const root = join(dir, "ws");
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, lib: ["ES2022"], types: [], noEmit: true }, include: ["src"] }));
  for (let i = 0; i < count; i++) {
    const previous = i === 0 ? "" : `import { type Shape${i - 1}, make${i - 1} } from "./m${i - 1}";\n`;
    const fields = Array.from({ length: 20 }, (_, f) => `  f${f}: ${f % 2 === 0 ? "number" : `Array<Record<string, number | string>>`};`).join("\n");
    const uses = i === 0 ? "" : `export const from${i}: Shape${i - 1} = make${i - 1}(${i});\n`;
    writeFileSync(
      join(root, "src", `m${i}.ts`),
      `${previous}export interface Shape${i} {\n${fields}\n}\nexport function make${i}(n: number): Shape${i} {\n  return { ${Array.from({ length: 20 }, (_, f) => `f${f}: ${f % 2 === 0 ? "n" : "[]"}`).join(", ")} };\n}\nexport type Keys${i} = { [K in keyof Shape${i}]: Shape${i}[K] extends number ? K : never }[keyof Shape${i}];\n${uses}`,
    );
  }
  return dir;
}

/** The config of one session of typescript-language-server, in full, with `bridge` keys and `server` keys added. */
function tslsConfig(dir: string, mark: string, bridgeKeys: string, serverKeys: string): string {
  return writeConfig(
    `[bridge]
request_timeout_ms = 120000
${bridgeKeys}

[[server]]
name = "tsls"
command = ${JSON.stringify(TSLS)}
args = ["--stdio"]
version = "5.3.0"
version_command = [${JSON.stringify(TSLS)}, "--version"]
languages = [{ id = "typescript", extensions = [".ts"] }]
initialization_options = { disableAutomaticTypingAcquisition = true, tsserver = { useSyntaxServer = "never" } }
env = { ${MARK} = "${mark}" }
${serverKeys}

[[workspace]]
name = "ws"
root = "ws"
servers = ["tsls"]
`,
    dir,
  );
}

const statusOf = async (): Promise<Record<string, any>> => ((await bridge!.ok("session_status")).sessions as Record<string, any>[])[0]!;

describe("max_rss_mb on a real server", () => {
  // The tree measured on this project once loaded: typescript-language-server ~50 MiB and tsserver
  // ~160 MiB (~207 MiB in all); the server alone, before the project, is under the cap.
  const CAP_MB = 128;

  test("tsserver loading a 300-file project past the cap: SessionDead reason memory, the tree gone, no respawn", async () => {
    const mark = randomUUID();
    bridge = await startBridge(tslsConfig(generateProject(300), mark, "", `max_rss_mb = ${CAP_MB}`));
    // The supervisor measures the tree once a second: the answer may outrun the sample that finds
    // the tree past its cap (on a loaded machine it did). The next sample stops the tree all the
    // same, and the next call is refused with the verdict.
    const first = await bridge.call("diagnostics", { path: "src/m299.ts" });
    if (!first.isError) expect(await holdsWithin(async () => (await statusOf()).state === "dead", new GateClock([bridge.pid]), 5000, 100)).toBe(true);
    const dead = first.isError ? JSON.parse(first.content[0]!.text).error : await bridge.fail("diagnostics", { path: "src/m0.ts" });
    expect(dead).toMatchObject({ code: "SessionDead", details: { reason: "memory", max_rss_mb: CAP_MB } });
    expect(dead.details.rss_mb).toBeGreaterThan(CAP_MB);
    console.log(`[figure] tsserver cap_mb=${CAP_MB} rss_mb_seen=${dead.details.rss_mb}`);
    // Nothing of the tree is left (5 s from the verdict's answer, net of the machine's load).
    expectGoneWithin(await markedGoneWithin(MARK, mark, new GateClock([bridge.pid]), 5000), 5000);
    expect(await statusOf()).toMatchObject({ state: "dead", rss_mb: null, restarts: 0, last_exit: { reason: "memory", rss_mb: dead.details.rss_mb } });
    // Never a silent respawn.
    expect(await bridge.fail("diagnostics", { path: "src/m0.ts" })).toMatchObject({ code: "SessionDead", details: { reason: "memory" } });
    expect(pidsWithEnv(MARK, mark)).toEqual([]);
  });
});

describe("idle_stop_s on a real server", () => {
  test("typescript-language-server and its tsserver left idle: stopped (idle, reason idle, the tree gone); the next call starts it again", async () => {
    const mark = randomUUID();
    bridge = await startBridge(tslsConfig(generateProject(10), mark, "idle_stop_s = 2", ""));
    expect(await bridge.ok("diagnostics", { path: "src/m9.ts" })).toMatchObject({ files: 1 });
    // The idle time starts with the call's answer; the clock charges it net of what a loaded machine kept the bridge waiting.
    const idle = new GateClock([bridge.pid]);
    const first = await statusOf();
    expect(first).toMatchObject({ state: "ready", last_exit: null });
    const tree = treeByEnv(MARK, mark);
    // The server and the tsserver it started.
    expect(tree.length).toBeGreaterThanOrEqual(2);

    // Stopped once idle_stop_s (2 s) has passed: not before (a little less, for the answer's way
    // here), and within 3 s more as the clock charges it.
    expect(await holdsWithin(async () => (await statusOf()).state === "idle", idle, 5000, 100)).toBe(true);
    expect(idle.elapsedMs()).toBeGreaterThanOrEqual(1500);
    const clock = new GateClock([bridge.pid]);
    expect(await statusOf()).toMatchObject({ state: "idle", pid: null, rss_mb: null, restarts: 0, last_exit: { reason: "idle" } });
    expectGoneWithin(await markedGoneWithin(MARK, mark, clock, 5000), 5000);
    expect(await waitAllGone(tree, 0)).toEqual([]);

    expect(await bridge.ok("diagnostics", { path: "src/m9.ts" })).toMatchObject({ files: 1 });
    const again = await statusOf();
    expect(again).toMatchObject({ state: "ready", restarts: 0, last_exit: { reason: "idle" } });
    expect(again.pid).not.toBe(first.pid);
    expect(pidsWithEnv(MARK, mark).length).toBeGreaterThanOrEqual(1);
  });
});
