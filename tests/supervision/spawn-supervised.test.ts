// spawnSupervised's contract apart from the tree gates: start failures are ServerStartFailed and
// leave nothing behind; the server gets exactly the scrubbed environment plus the tree variables,
// its stdio is the returned streams, and it holds no copy of the control pipe.
import { chmodSync, readFileSync, readlinkSync, readdirSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { BridgeError } from "../../src/contract/errors.js";
import { scrubbedEnv } from "../../src/supervision/server-env.js";
import { spawnSupervised } from "../../src/supervision/spawn-supervised.js";
import type { SpawnSpec, SupervisedServer } from "../../src/supervision/types.js";
import { initialize, connect } from "./helpers/lsp.js";
import { FAKE_SERVER } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { allProcs } from "../helpers/proc.js";
import { tempDir } from "../helpers/temp.js";

const dir = tempDir("lspmcp-spawn-");
const spec = (over: Partial<SpawnSpec>): SpawnSpec => ({
  command: process.execPath,
  args: [FAKE_SERVER],
  env: scrubbedEnv({}),
  cwd: "/tmp",
  label: "test/spawn",
  ...over,
});
let running: SupervisedServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function expectStartFailed(s: SpawnSpec, errno?: string): Promise<void> {
  // A label of its own makes this attempt's supervisor recognisable by its argv (--label …).
  const label = `test/spawn-${randomUUID()}`;
  const error = await spawnSupervised({ ...s, label }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  expect((error as BridgeError).code).toBe("ServerStartFailed");
  if (errno) expect((error as BridgeError).details.errno).toBe(errno);
  // Nothing is left running: the supervisor of the failed start is gone too.
  expect(await pollUntil(() => !allProcs().some((p) => p.cmdline.includes(label)), 5000)).toBe(true);
}

describe("spawnSupervised start failures", () => {
  test("missing executable is ServerStartFailed (ENOENT)", () => expectStartFailed(spec({ command: join(dir, "nope") }), "ENOENT"));

  test("file without execute permission is ServerStartFailed (EACCES)", () => {
    const file = join(dir, "not-executable");
    writeFileSync(file, "#!/bin/sh\n");
    chmodSync(file, 0o644);
    return expectStartFailed(spec({ command: file }), "EACCES");
  });

  test("relative command is refused", () => expectStartFailed(spec({ command: "node" })));

  test("an exec that fails inside setpriv (bad interpreter) is ServerStartFailed", () => {
    const file = join(dir, "bad-interpreter");
    writeFileSync(file, "#!/nonexistent/interpreter\n");
    chmodSync(file, 0o755);
    return expectStartFailed(spec({ command: file }));
  });

  test("a missing cwd is ServerStartFailed", () => expectStartFailed(spec({ cwd: join(dir, "no-such-dir") })));

  test("a server that exits at once either fails to start or reports its exit", async () => {
    const outcome = await spawnSupervised(spec({ args: [FAKE_SERVER, "--exit-at-start"] })).then(
      async (s) => {
        running = s;
        return s.exited;
      },
      (e: unknown) => e,
    );
    if (outcome instanceof BridgeError) expect(outcome.code).toBe("ServerStartFailed");
    else expect(outcome).toEqual({ code: 1, signal: null });
  });
});

describe("spawnSupervised running server", () => {
  test("the server's environment is the scrubbed one plus the tree variables", async () => {
    running = await spawnSupervised(spec({ env: scrubbedEnv({ EXTRA: "yes" }) }));
    const environ = readFileSync(`/proc/${running.serverPid}/environ`, "utf8").split("\0").filter(Boolean);
    const names = environ.map((e) => e.slice(0, e.indexOf("="))).sort();
    const expected = [...Object.keys(scrubbedEnv({ EXTRA: "yes" })), "LSPMCP_OWNER", "LSPMCP_SESSION_TOKEN"].sort();
    expect(names).toEqual(expected);
  });

  test("the server holds no copy of the control pipe", async () => {
    running = await spawnSupervised(spec({}));
    // An inherited copy would keep the pipe open after the bridge dies and hide the EOF.
    const control = readlinkSync(`/proc/${running.supervisorPid}/fd/3`);
    expect(control).toMatch(/^socket:/);
    const serverFds = readdirSync(`/proc/${running.serverPid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${running!.serverPid}/fd/${fd}`);
      } catch {
        return "";
      }
    });
    expect(serverFds).not.toContain(control);
  });

  test("stdio is the server's: initialize round-trips over the returned streams", async () => {
    running = await spawnSupervised(spec({ args: [FAKE_SERVER, "--no-daemon", "--no-child", "--version", "9.9.9"] }));
    const connection = connect(running);
    const result = (await initialize(connection)) as { serverInfo: { name: string; version: string } };
    expect(result.serverInfo).toEqual({ name: "fake-server", version: "9.9.9" });
    connection.dispose();
  });

  test("concurrent stop() calls share one stop and never reject", async () => {
    running = await spawnSupervised(spec({}));
    const stops = [running.stop(), running.stop(), running.stop()];
    // One stop: every caller is handed the very same promise, and so is a caller after it ended.
    expect(stops[1]).toBe(stops[0]);
    expect(stops[2]).toBe(stops[0]);
    await expect(Promise.all(stops)).resolves.toEqual([undefined, undefined, undefined]);
    expect(running.stop()).toBe(stops[0]);
    expect(running.liveProcessCount()).toBe(0);
  });
});
