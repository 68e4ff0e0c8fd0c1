// The tree gates once against real servers: typescript-language-server with its tsserver
// children (started once a file is open), pyright-langserver, and Biome for the gates about
// children that outlive their server. Decoys: the fake daemon's command line and a stand-alone
// tsserver started by the test, neither of which may be touched. The 5 s run from the event,
// without the time a loaded machine kept the processes from a CPU (tests/helpers/gate-clock.ts);
// the double-kill gate runs as a uid of its own, so that its sweep, and no other bridge's, is the
// one that reaps.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { scrubbedEnv } from "../../src/supervision/server-env.js";
import { spawnSupervised } from "../../src/supervision/spawn-supervised.js";
import { startDecoy, type Decoy } from "./helpers/decoy.js";
import { startDyingBridge } from "./helpers/dying-bridge.js";
import { connect, initialize } from "./helpers/lsp.js";
import { giveTo, sweepAs, sweepUser } from "./helpers/sweep-user.js";
import { expectGoneWithin, GateClock, goneWithin } from "../helpers/gate-clock.js";
import { REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { alive, killLeftovers, proc, type Proc, treeByEnv, waitAllGone } from "../helpers/proc.js";
import { biomeCase, pyrightCase, typescriptCase, type RealServerCase } from "./helpers/real-servers.js";

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
  tsserverDecoy = spawn(process.execPath, [join(REPO, "node_modules/typescript/lib/tsserver.js"), "--serverMode", "semantic"], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  tsserverDecoyProc = proc(tsserverDecoy.pid!)!;
});
afterAll(() => {
  expect(alive(decoy.proc)).toBe(true);
  expect(alive(tsserverDecoyProc)).toBe(true);
  decoy.kill();
  tsserverDecoy.kill("SIGKILL");
});

// A gate that fails must not leave its tree (frozen orphans included) to the next run.
let leftovers: Proc[] = [];
afterEach(() => {
  killLeftovers(leftovers);
  leftovers = [];
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
    const clock = new GateClock([server.supervisorPid, server.serverPid]);
    await server.stop();
    expect(clock.chargedMs()).toBeLessThanOrEqual(LIMIT_MS);
    expect(await waitAllGone(tree, 0)).toEqual([]);
    connection.dispose();
    expectDecoysAlive();
  });

  test("bridge SIGKILL: the supervisor reaps the tree", async () => {
    const c = makeCase();
    const mark = crypto.randomUUID();
    const bridge = await startDyingBridge({
      command: c.command,
      args: c.args,
      env: scrubbedEnv({ [MARK_VAR]: mark }),
      cwd: "/tmp",
      rootUri: c.rootUri,
      open: c.open,
      minLive: c.minLive,
    });
    const tree = [...treeByEnv(MARK_VAR, mark, [bridge.serverPid]), proc(bridge.supervisorPid)!];
    expect(tree.length).toBeGreaterThanOrEqual(c.minLive + 1);
    const clock = new GateClock([bridge.supervisorPid]);
    bridge.child.kill("SIGKILL");
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
    expectDecoysAlive();
  });
});

// The gates about what a server started: only children that outlive their server can fail them.
// pyright's tree is the server alone, and tsserver follows typescript-language-server out on its
// own; Biome's daemon (and its proxy, while the bridge's pipe is open) stays when the wrapper
// script that started them is killed outright. Each gate first shows there is something to reap.
describe("tree gates over a server's children: real Biome", () => {
  test("server crash (SIGKILL of the server) reaps its children", async () => {
    const { server, connection, tree } = await startInProcess(biomeCase(), crypto.randomUUID());
    leftovers = tree;
    expect(tree.filter((p) => p.pid !== server.serverPid).length).toBeGreaterThan(0);
    const clock = new GateClock([server.supervisorPid]);
    process.kill(server.serverPid, "SIGKILL");
    expect((await server.exited).signal).toBe("SIGKILL");
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
    await server.stop();
    connection.dispose();
    expectDecoysAlive();
  });

  test("bridge and supervisor killed together: sweepOrphans reaps what is left", async () => {
    const c = biomeCase();
    const user = sweepUser(3);
    giveTo(fileURLToPath(c.rootUri), user);
    const mark = crypto.randomUUID();
    const bridge = await startDyingBridge(
      { command: c.command, args: c.args, env: scrubbedEnv({ [MARK_VAR]: mark }), cwd: "/tmp", rootUri: c.rootUri, open: c.open, minLive: c.minLive },
      user,
    );
    const tree = treeByEnv(MARK_VAR, mark, [bridge.serverPid]);
    leftovers = tree;
    const supervisor = proc(bridge.supervisorPid)!;
    const bridgeProc = proc(bridge.pid)!;
    // What the server started is frozen first, so that it stays left (a child that sees its
    // parent go may leave by itself, and a loaded machine gives it the time to), as the leftovers
    // the sweep exists for do.
    for (const p of tree.filter((p) => p.pid !== bridge.serverPid && alive(p))) process.kill(p.pid, "SIGSTOP");
    process.kill(bridge.pid, "SIGSTOP");
    process.kill(bridge.supervisorPid, "SIGKILL");
    bridge.child.kill("SIGKILL");
    expect(await waitAllGone([supervisor, bridgeProc], LIMIT_MS)).toEqual([]);
    // The server dies with its supervisor (pdeathsig); what it started outlives it.
    expect(await pollUntil(() => !tree.some((p) => p.pid === bridge.serverPid && alive(p)), LIMIT_MS)).toBe(true);
    const orphans = tree.filter(alive);
    expect(orphans.length).toBeGreaterThan(0);
    const clock = new GateClock();
    const sweep = await sweepAs(user, (pid) => clock.add(pid));
    expectGoneWithin(await goneWithin(tree, clock, LIMIT_MS), LIMIT_MS);
    // This uid has no other orphans: the sweep reaped exactly these, and logged their pids.
    expect(sweep.reaped, JSON.stringify({ sweep, orphans })).toBe(orphans.length);
    expect(sweep.logged.flatMap((entry) => entry.pids ?? []).sort()).toEqual(orphans.map((p) => p.pid).sort());
    expectDecoysAlive();
  });
});
