import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { diagnostics, findingKeys } from "../helpers/differential.js";
import { REPO } from "../helpers/paths.js";

// The project-level path (tsserver answering closed files of the loaded project, issue 24)
// against the file-by-file path (every file opened, asked and kept open) on the same real tree:
// ajv 8.20.0's sources. Both run the pinned typescript-language-server with the same settings
// but for who watches the files, which is what chooses the path. Every finding is compared
// whole (range, severity, code, message), suggestions included.
const ROOT = join(REPO, "tests/fixtures/differential/typescript-ajv");

function config(watch: "bridge" | "server"): string {
  // "server" is the file-by-file path: tsserver keeps its own watchers (useClientFileWatcher off).
  const options =
    watch === "bridge"
      ? ""
      : `initialization_options = { disableAutomaticTypingAcquisition = true, tsserver = { useSyntaxServer = "never" } }\nwatch_files = "server"\n`;
  return writeConfig(`
[bridge]
max_result_bytes = 4194304
request_timeout_ms = 600000

[[server]]
name = "typescript"
profile = "typescript"
${options}
[[workspace]]
name = "ajv"
root = ${JSON.stringify(ROOT)}
servers = ["typescript"]
`);
}

describe("project-level diagnostics equal file-by-file diagnostics (ajv 8.20.0)", () => {
  let project: Bridge;
  let fileByFile: Bridge;
  beforeAll(async () => {
    [project, fileByFile] = await Promise.all([startBridge(config("bridge")), startBridge(config("server"))]);
  });
  afterAll(async () => {
    await Promise.all([project?.close(), fileByFile?.close()]);
  });

  test('"." answers the same set both ways, and only the project path leaves a single document open', async () => {
    const [fromProject, fromFiles] = await Promise.all([
      diagnostics(project, { path: ".", limit: 1000 }),
      diagnostics(fileByFile, { path: ".", limit: 1000 }),
    ]);
    expect(fromFiles.total).toBeGreaterThan(30);
    expect(findingKeys(fromProject.items)).toEqual(findingKeys(fromFiles.items));
    expect(fromProject.items).toEqual(fromFiles.items);
    // Which path answered: the project path opens one anchor per project, file by file opens
    // every file of the folder (and keeps it open for the next call).
    const open = async (bridge: Bridge) => ((await bridge.ok("session_status")) as { sessions: { open_documents: number }[] }).sessions[0]!.open_documents;
    expect(await open(project)).toBe(1);
    expect(await open(fileByFile)).toBeGreaterThan(50);
  }, 900_000);

  test("a second call, with nothing changed, gives the same bytes", async () => {
    const first = await project.call("diagnostics", { path: ".", limit: 1000 });
    const second = await project.call("diagnostics", { path: ".", limit: 1000 });
    expect(second).toEqual(first);
  }, 600_000);
});
