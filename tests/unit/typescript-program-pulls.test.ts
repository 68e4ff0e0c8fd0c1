import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, ResponseError, SocketMessageReader, SocketMessageWriter } from "vscode-jsonrpc/node";
import { afterEach, describe, expect, test, vi } from "vitest";
import { Deadline } from "../../src/contract/deadline.js";
import { BridgeError } from "../../src/contract/errors.js";
import type { ProjectHost } from "../../src/lsp/project-model.js";
import type { ServerLink } from "../../src/lsp/server-adapter.js";
import type { OwnProjectPulls } from "../../src/languages/typescript/own-project-pulls.js";
import { ProgramPulls } from "../../src/languages/typescript/program-pulls.js";
import { tempDir } from "../helpers/temp.js";

// The API lane's way back: whatever goes wrong with TypeScript 7's API session (no such request,
// an error answer, no answer by the deadline), every file of the run is pulled on its own, and the
// run neither hangs nor answers a file from a failed question. Its server here is an in-process
// JSON-RPC peer on the socket the lane names, answering as the test tells it.

type Handler = (method: string, params: unknown) => unknown;

const servers: Server[] = [];
/** Each test's server connection, closed after it: its API session ends with it, and its socket's folder goes. */
const connections: (() => void)[] = [];
afterEach(() => {
  for (const close of connections.splice(0)) close();
  for (const server of servers.splice(0)) server.close();
});

/** A project of two files in a temp folder, its tsconfig, and a link whose server serves the API by `handle` (null: no API session). */
function setUp(handle: Handler | null) {
  const root = tempDir("lspmcp-program-pulls-");
  const config = join(root, "tsconfig.json");
  const files = ["a.ts", "b.ts", "c.ts"].map((name) => join(root, "src", name));
  mkdirSync(dirname(files[0]!), { recursive: true });
  writeFileSync(config, "{}\n");
  for (const file of files) writeFileSync(file, 'export const wrong: number = "x";\n');
  const closeListeners: (() => void)[] = [];
  let pipe = "";
  const link = {
    capabilities: {},
    isClosed: false,
    documents: { get: () => undefined },
    onClose: (listener: () => void) => {
      closeListeners.push(listener);
      return () => {};
    },
    request: async (type: { method: string }, params: { pipe: string }) => {
      // The round trip on the LSP connection before the API's questions.
      if (type.method === "custom/projectInfo") return { configFilePath: config };
      if (type.method !== "custom/initializeAPISession") throw new Error(`unexpected ${type.method}`);
      if (handle === null) throw new BridgeError("NotSupported", "the server does not implement custom/initializeAPISession");
      pipe = params.pipe;
      const server = createServer((socket) => {
        const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
        connection.onRequest((method, body) => (method === "initialize" ? { currentDirectory: root } : handle(method, body)));
        connection.listen();
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(params.pipe, resolve));
      return { sessionId: "api-session-1", pipe: params.pipe };
    },
  } as unknown as ServerLink;
  const pulled: string[] = [];
  const own = {
    place: async (paths: readonly string[]) => new Set(paths),
    ownConfig: () => config,
    holdsOwnProject: async () => true,
    pull: async (path: string) => {
      pulled.push(path);
      return { diagnostics: [], project: "pulled" };
    },
    end: async () => {},
  } as unknown as OwnProjectPulls;
  const debug = vi.fn();
  const host: ProjectHost = {
    root,
    fileDeadline: () => Deadline.in(400),
    logger: { debug, info() {}, warn() {}, error() {} },
    open: async () => {},
  };
  const pulls = new ProgramPulls(link, host, own);
  const pullAll = async () => {
    const placed = await pulls.place(files, { deadline: Deadline.in(5000) });
    expect([...placed]).toEqual(files);
    return Promise.all(files.map((file) => pulls.pull(file, pathToFileURL(file).href, { deadline: Deadline.in(5000) })));
  };
  const closeSession = () => {
    for (const listener of closeListeners.splice(0)) listener();
  };
  connections.push(closeSession);
  return { root, config, files, pulled, debug, pullAll, closeSession, pipe: () => pipe };
}

const snapshotOf = (config: string, files: readonly string[]) => ({
  snapshot: 1,
  projects: [{ id: config, configFileName: config, rootFiles: files, compilerOptions: {} }],
});

describe("ProgramPulls", () => {
  test("a whole project answers each of its root files, converted; the default library's findings are left out", async () => {
    const asked: string[] = [];
    const { config, files, pulled, pullAll, pipe } = setUp((method) => {
      asked.push(method);
      if (method === "updateSnapshot") return snapshotOf(config, files);
      if (method === "getSemanticDiagnostics")
        return [...files, "/lib/lib.es5.d.ts"].map((fileName) => ({
          fileName,
          pos: 13,
          end: 18,
          code: 2322,
          category: 1,
          text: "Type 'string' is not assignable to type 'number'.",
        }));
      if (method === "release") return true;
      return [];
    });
    const answers = await pullAll();
    expect(pulled).toEqual([]);
    expect(answers[0]).toEqual({
      diagnostics: [
        {
          range: { start: { line: 0, character: 13 }, end: { line: 0, character: 18 } },
          severity: 1,
          code: 2322,
          source: "ts",
          message: "Type 'string' is not assignable to type 'number'.",
        },
      ],
      project: config,
    });
    expect(asked).toEqual(expect.arrayContaining(["updateSnapshot", "getSyntacticDiagnostics", "getSemanticDiagnostics", "getSuggestionDiagnostics"]));
    expect(asked).not.toContain("getDeclarationDiagnostics");
    // The socket's private folder is gone once connected, while the session still answers: a
    // bridge killed mid-session leaves nothing behind.
    expect(existsSync(dirname(pipe()))).toBe(false);
  });

  test("a server without an API session: every file is pulled", async () => {
    const { files, pulled, pullAll } = setUp(null);
    await pullAll();
    expect(pulled.sort()).toEqual([...files].sort());
  });

  test("an error answer: every file is pulled, and the reason logged at debug", async () => {
    const { files, pulled, debug, pullAll } = setUp((method) => {
      if (method === "updateSnapshot") throw new ResponseError(-32603, "api: invalid request");
      return [];
    });
    await pullAll();
    expect(pulled.sort()).toEqual([...files].sort());
    expect(debug).toHaveBeenCalledWith(
      expect.stringContaining("every file is pulled"),
      expect.objectContaining({ reason: expect.stringContaining("invalid request") }),
    );
  });

  test("no answer: the lane gives up at its deadline and every file is pulled", async () => {
    const { config, files, pulled, pullAll } = setUp((method) => (method === "updateSnapshot" ? snapshotOf(config, files) : new Promise(() => {})));
    const started = Date.now();
    await pullAll();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(pulled.sort()).toEqual([...files].sort());
  });

  test("a file not among the project's root files is pulled; so is one with a style check as an error", async () => {
    const { config, files, pulled, pullAll } = setUp((method) => {
      if (method === "updateSnapshot") return snapshotOf(config, files.slice(0, 2));
      if (method === "getSemanticDiagnostics")
        return [{ fileName: files[1], pos: 13, end: 18, code: 6133, category: 1, text: "'wrong' is declared but its value is never read." }];
      return [];
    });
    const answers = await pullAll();
    expect(pulled.sort()).toEqual([files[1], files[2]].sort());
    expect(answers[0]!.project).toBe(config);
  });
});
