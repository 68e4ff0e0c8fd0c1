import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { HoverRequest } from "vscode-languageserver-protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import type { ResolvedConfig } from "../../src/config/types.js";
import { Deadline } from "../../src/contract/deadline.js";
import type { Logger, LogLevel } from "../../src/contract/logger.js";
import { SessionRegistry } from "../../src/sessions/session-registry.js";
import { writeConfig } from "../helpers/bridge.js";
import { tempRepo, type TempRepo } from "../helpers/temp-repo.js";
import { profilesConfig } from "../helpers/workspace.js";

// TypeScript 7 logs a line per request it handles. Below debug nobody reads them, so its adapter
// asks the real server for warnings and errors only: the lines never cross the pipe. At debug
// they are asked for and arrive.
describe("TypeScript 7's own log, by the bridge's log level", () => {
  let repo: TempRepo;
  let config: ResolvedConfig;
  const registries: SessionRegistry[] = [];

  const loggerAt = (floor: LogLevel): Logger => {
    const rank = { debug: 0, info: 1, warn: 2, error: 3 };
    return { enabled: (level) => rank[level] >= rank[floor], debug() {}, info() {}, warn() {}, error() {} };
  };

  /** The server's log lines naming a handled pull, heard while three files are pulled. */
  const pullLinesAt = async (floor: LogLevel): Promise<{ pulls: number; errors: number }> => {
    const sessions = new SessionRegistry(config, loggerAt(floor));
    registries.push(sessions);
    const client = await sessions.readyClient(config.workspaces[0]!, config.servers[0]!, Deadline.in(60_000));
    const lines: string[] = [];
    const stop = client.onLog((line) => lines.push(line));
    let errors = 0;
    for (const name of ["a.ts", "b.ts", "c.ts"]) {
      const uri = pathToFileURL(join(repo.root, "src", name)).href;
      errors += (await client.adapter.projectModel!.documentDiagnostics(uri, { deadline: Deadline.in(60_000) })).length;
    }
    // A request the server fails: its error line is a problem, kept at every level.
    const nowhere = { textDocument: { uri: "file:///nowhere/x.ts" }, position: { line: 0, character: 0 } };
    await client.request(HoverRequest.type, nowhere, { deadline: Deadline.in(60_000) }).catch(() => {});
    // A request's line follows its answer: one more pull, after which the lines of the three are heard.
    await client.adapter.projectModel!.documentDiagnostics(pathToFileURL(join(repo.root, "src/a.ts")).href, { deadline: Deadline.in(60_000) });
    stop();
    expect(errors).toBe(1);
    return {
      pulls: lines.filter((line) => line.includes("handled method 'textDocument/diagnostic'")).length,
      errors: lines.filter((line) => line.includes("no project found")).length,
    };
  };

  beforeAll(async () => {
    repo = tempRepo({
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
      "src/a.ts": "export const a: number = 1;\n",
      "src/b.ts": 'import { a } from "./a";\nexport const b: string = a;\n',
      "src/c.ts": 'import { b } from "./b";\nexport const c = b.length;\n',
    });
    config = await loadConfig(writeConfig(profilesConfig(repo.root, ["typescript"])));
  });
  afterAll(async () => {
    await Promise.all(registries.map((sessions) => sessions.closeAll()));
    repo?.remove();
  });

  test("below debug: no line per request, and a failed request is still said", async () => {
    expect(await pullLinesAt("info")).toEqual({ pulls: 0, errors: 1 });
  });

  test("at debug: a line for each pull", async () => {
    const heard = await pullLinesAt("debug");
    expect(heard.pulls).toBeGreaterThanOrEqual(3);
    expect(heard.errors).toBe(1);
  });
});
