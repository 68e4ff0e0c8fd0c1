// The tree gates once against real servers: typescript-language-server with its tsserver
// children (started once a file is open) and pyright-langserver. Decoys: the fake daemon's command
// line and a stand-alone tsserver started by the test, neither of which may be touched.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sweepOrphans } from "../../src/supervision/orphan-sweep.js";
import { scrubbedEnv } from "../../src/supervision/server-env.js";
import { spawnSupervised } from "../../src/supervision/spawn-supervised.js";
import { startDecoy, type Decoy } from "./helpers/decoy.js";
import { startDyingBridge } from "./helpers/dying-bridge.js";
import { connect, initialize } from "./helpers/lsp.js";
import { REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { alive, proc, type Proc, treeByEnv, waitAllGone } from "../helpers/proc.js";
import { pyrightCase, typescriptCase, type RealServerCase } from "./helpers/real-servers.js";

const LIMIT_MS = 5000;
const MARK_VAR = "LSPMCP_TEST_MARK";
const cases: Array<[string, () => RealServerCase]> = [
  ["typescript-language-server", typescriptCase],
  ["pyright-langserver", pyrightCase],
];

let decoy: Decoy;
let tsserverDecoy: ChildProcess;
let tsserverDecoyProc: Proc;
beforeAll(async () => {
  decoy = await startDecoy();
  tsserverDecoy = spawn(process.execPath, [join(REPO, "node_modules/typescript/lib/tsserver.js"), "--serverMode", "semantic"], { stdio: ["pipe", "ignore", "ignore"] });
  tsserverDecoyProc = proc(tsserverDecoy.pid!)!;
});
afterAll(() => {
  expect(alive(decoy.proc)).toBe(true);
  expect(alive(tsserverDecoyProc)).toBe(true);
  decoy.kill();
  tsserverDecoy.kill("SIGKILL");
});

function expectDecoysAlive(): void {
  expect(alive(decoy.proc)).toBe(true);
  expect(alive(tsserverDecoyProc)).toBe(true);
}

async function startInProcess(c: RealServerCase, mark: string) {
  const server = await spawnSupervised({ command: c.command, args: c.args, env: scrubbedEnv({ [MARK_VAR]: mark }), cwd: "/tmp", label: `test/${c.name}` });
  const connection = connect(server);
  connection.onRequest(() => null); // workspace/configuration and friends
  await initialize(connection, c.rootUri);
  await connection.sendNotification("textDocument/didOpen", { textDocument: { ...c.open, version: 1 } });
  // Deadline poll: tsserver starts its children some time after didOpen.
  expect(await pollUntil(() => server.liveProcessCount() >= c.minLive, 20_000, 20)).toBe(true);
  const tree = treeByEnv(MARK_VAR, mark, [server.serverPid]);
  expect(tree.length).toBeGreaterThanOrEqual(c.minLive);
  return { server, connection, tree };
}

describe.each(cases)("tree gates: real %s", (_name, makeCase) => {
  test("stop() reaps the server and all its children", async () => {
    const { server, connection, tree } = await startInProcess(makeCase(), crypto.randomUUID());
    const started = Date.now();
    await server.stop();
    expect(Date.now() - started).toBeLessThan(LIMIT_MS);
    expect(await waitAllGone(tree, 0)).toEqual([]);
    connection.dispose();
    expectDecoysAlive();
  });

  test("server crash (SIGKILL of the server) reaps its children", async () => {
    const { server, connection, tree } = await startInProcess(makeCase(), crypto.randomUUID());
    const started = Date.now();
    process.kill(server.serverPid, "SIGKILL");
    expect((await server.exited).signal).toBe("SIGKILL");
    expect(await waitAllGone(tree, LIMIT_MS - (Date.now() - started))).toEqual([]);
    await server.stop();
    connection.dispose();
    expectDecoysAlive();
  });

  test("bridge SIGKILL: the supervisor reaps the tree", async () => {
    const c = makeCase();
    const mark = crypto.randomUUID();
    const bridge = await startDyingBridge({ command: c.command, args: c.args, env: scrubbedEnv({ [MARK_VAR]: mark }), cwd: "/tmp", rootUri: c.rootUri, open: c.open, minLive: c.minLive });
    const tree = [...treeByEnv(MARK_VAR, mark, [bridge.serverPid]), proc(bridge.supervisorPid)!];
    expect(tree.length).toBeGreaterThanOrEqual(c.minLive + 1);
    const started = Date.now();
    bridge.child.kill("SIGKILL");
    expect(await waitAllGone(tree, LIMIT_MS)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(LIMIT_MS);
    expectDecoysAlive();
  });

  test("bridge and supervisor killed together: sweepOrphans reaps what is left", async () => {
    const c = makeCase();
    const mark = crypto.randomUUID();
    const bridge = await startDyingBridge({ command: c.command, args: c.args, env: scrubbedEnv({ [MARK_VAR]: mark }), cwd: "/tmp", rootUri: c.rootUri, open: c.open, minLive: c.minLive });
    const tree = treeByEnv(MARK_VAR, mark, [bridge.serverPid]);
    const supervisor = proc(bridge.supervisorPid)!;
    const bridgeProc = proc(bridge.pid)!;
    process.kill(bridge.pid, "SIGSTOP");
    process.kill(bridge.supervisorPid, "SIGKILL");
    bridge.child.kill("SIGKILL");
    expect(await waitAllGone([supervisor, bridgeProc], LIMIT_MS)).toEqual([]);
    const started = Date.now();
    await sweepOrphans();
    expect(await waitAllGone(tree, LIMIT_MS - (Date.now() - started))).toEqual([]);
    expectDecoysAlive();
  });
});
