// scanTree on small trees the test builds itself: token, parent links, and the start-time guard.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, test } from "vitest";
import { identify } from "../../src/supervision/proc-table.js";
import { withParentDeathSignal } from "../../src/supervision/parent-death.js";
import { TOKEN_VAR, newSessionToken } from "../../src/supervision/server-env.js";
import { scanTree } from "../../src/supervision/tree-scan.js";
import { pollUntil } from "../helpers/poll.js";

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** A parent carrying `env`, which starts a child with an EMPTY environment; resolves both pids. */
async function parentWithCleanChild(env: Record<string, string>): Promise<{ parent: number; child: number }> {
  const script = `
    const { spawn } = require("node:child_process");
    const c = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)"], { env: {}, stdio: "ignore" });
    process.stdout.write(String(c.pid) + "\\n");
    setInterval(() => {}, 1e9);`;
  const parent = spawn(process.execPath, ["-e", script], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "ignore"] });
  const [chunk] = (await once(parent.stdout!, "data")) as [Buffer];
  const child = Number(chunk.toString().trim());
  started.push(child, parent.pid!);
  // The child is listed once it has exec'd node (its environ is then the empty one).
  await pollUntil(() => identify(child) !== undefined, 5000);
  return { parent: parent.pid!, child };
}

describe("scanTree", () => {
  test("finds token carriers and, by parent link, their children with a cleared environment", async () => {
    const token = newSessionToken();
    const { parent, child } = await parentWithCleanChild({ [TOKEN_VAR]: token });
    const pids = scanTree({ token })
      .map((id) => id.pid)
      .sort();
    expect(pids).toEqual([parent, child].sort());
  });

  test("another token finds nothing, and exclude leaves a pid out", async () => {
    const token = newSessionToken();
    const { parent, child } = await parentWithCleanChild({ [TOKEN_VAR]: token });
    expect(scanTree({ token: newSessionToken() })).toEqual([]);
    expect(scanTree({ token, exclude: [parent] }).map((id) => id.pid)).toEqual([child]);
  });

  test("a root is matched by pid and start time, not by pid alone", async () => {
    const { parent } = await parentWithCleanChild({});
    const id = identify(parent)!;
    expect(scanTree({ token: newSessionToken(), roots: [id] }).length).toBe(2);
    expect(scanTree({ token: newSessionToken(), roots: [{ pid: id.pid, startTime: id.startTime + 1 }] })).toEqual([]);
  });

  test("notBefore skips the environ of processes older than the tree", async () => {
    const token = newSessionToken();
    const { parent } = await parentWithCleanChild({ [TOKEN_VAR]: token });
    const later = identify(parent)!.startTime + 1_000_000;
    expect(scanTree({ token, notBefore: later })).toEqual([]);
  });

  test("with a token memo, later scans find the same tree without rereading every environ, and drop the gone", async () => {
    const token = newSessionToken();
    const { parent, child } = await parentWithCleanChild({ [TOKEN_VAR]: token });
    const tokenMemo = new Map<string, boolean>();
    const first = scanTree({ token, tokenMemo })
      .map((id) => id.pid)
      .sort();
    expect(first).toEqual([parent, child].sort());
    const parentKey = `${parent}:${identify(parent)!.startTime}`;
    expect(tokenMemo.get(parentKey)).toBe(true);
    expect(
      scanTree({ token, tokenMemo })
        .map((id) => id.pid)
        .sort(),
    ).toEqual(first);
    // Entries of processes that are gone leave the memo once it outgrows the process table.
    for (let i = 0; i < 5000; i++) tokenMemo.set(`${4_000_000 + i}:1`, false);
    scanTree({ token, tokenMemo });
    expect(tokenMemo.has("4000000:1")).toBe(false);
    expect(tokenMemo.get(parentKey)).toBe(true);
  });
});

describe("setpriv argv", () => {
  test("wraps the server in setpriv --pdeathsig SIGKILL, or starts it directly without setpriv", () => {
    expect(withParentDeathSignal("/usr/bin/setpriv", "/srv/ls", ["--stdio"])).toEqual({
      file: "/usr/bin/setpriv",
      argv: ["--pdeathsig", "SIGKILL", "--", "/srv/ls", "--stdio"],
    });
    expect(withParentDeathSignal(undefined, "/srv/ls", ["--stdio"])).toEqual({ file: "/srv/ls", argv: ["--stdio"] });
  });
});
