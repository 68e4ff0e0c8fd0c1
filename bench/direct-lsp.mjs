// The baseline of the benches: a direct vscode-jsonrpc client of a language server, with no
// bridge in between, and the position arithmetic both sides share.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

/**
 * Starts `command args` in `root` and initializes it with `capabilities` for one workspace folder
 * named `name`. Server requests are answered with null (workspace/configuration: a null per item). `stop()` shuts it down and waits for its exit.
 */
export async function startDirectClient({ command, args, root, name, capabilities }) {
  const child = spawn(command, args, { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest(() => null);
  // One (empty) setting per item asked for: a null in place of the list leaves ty waiting for its settings.
  connection.onRequest("workspace/configuration", (params) => params.items.map(() => null));
  connection.listen();
  const rootUri = pathToFileURL(root).href;
  await connection.sendRequest("initialize", { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name }], capabilities });
  await connection.sendNotification("initialized", {});
  const stop = async () => {
    const exited = new Promise((done) => child.once("exit", done));
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    await exited;
    connection.dispose();
  };
  return { connection, stop };
}

/** Pulls every file's diagnostics from `connection`, `inFlight` at a time; the count of errors. */
export async function pullEvery(connection, files, inFlight) {
  let errors = 0;
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const report = await connection.sendRequest("textDocument/diagnostic", { textDocument: { uri: pathToFileURL(file).href } });
      errors += report.items.filter((item) => item.severity === 1).length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return errors;
}

/**
 * Where `needle` first occurs (after the first occurrence of `after`, when given): 1-based line,
 * 1-based column in code points (as lspmcp counts), and the 0-based UTF-16 character (as LSP does).
 */
export function positionOf(text, needle, after = "") {
  const index = text.indexOf(needle, after ? text.indexOf(after) + after.length : 0);
  if (index < 0) throw new Error(`${JSON.stringify(needle)} not found`);
  const before = text.slice(0, index);
  const lineText = before.slice(before.lastIndexOf("\n") + 1);
  return { line: before.split("\n").length, column: [...lineText].length + 1, character: lineText.length };
}
