// Starts the fake server under spawnSupervised and initializes it, returning the tree as the test
// sees it in /proc (by a marker variable of its own, not the bridge's token).
import { randomUUID } from "node:crypto";
import type { MessageConnection } from "vscode-jsonrpc/node";
import { scrubbedEnv } from "../../../src/supervision/server-env.js";
import { spawnSupervised } from "../../../src/supervision/spawn-supervised.js";
import type { SupervisedServer, SupervisionTimings } from "../../../src/supervision/types.js";
import { connect, initialize } from "./lsp.js";
import { FAKE_SERVER } from "../../helpers/paths.js";
import { type Proc, treeByEnv } from "../../helpers/proc.js";

export const MARK_VAR = "LSPMCP_TEST_MARK";

export interface FakeSession {
  readonly server: SupervisedServer;
  readonly connection: MessageConnection;
  readonly mark: string;
  /** The tree right after initialize: server, child, daemon (and more if asked). */
  readonly tree: Proc[];
  currentTree(): Proc[];
}

export async function startFakeSession(flags: string[] = [], timings: Partial<SupervisionTimings> = {}): Promise<FakeSession> {
  const mark = randomUUID();
  const server = await spawnSupervised(
    { command: process.execPath, args: [FAKE_SERVER, ...flags], env: scrubbedEnv({ [MARK_VAR]: mark }), cwd: "/tmp", label: "test/fake" },
    timings,
  );
  const connection = connect(server);
  await initialize(connection);
  const currentTree = (): Proc[] => treeByEnv(MARK_VAR, mark, [server.serverPid]);
  return { server, connection, mark, tree: currentTree(), currentTree };
}
