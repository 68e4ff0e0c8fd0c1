// ty's unreachable-code hints, from a plain LSP client with no bridge in between: each run starts
// a fresh `ty server` and does what `lspmcp check` did before it closed a batch only once all of
// it was read (every file opened, every file pulled at once, a pull ty cancels with
// retriggerRequest sent again, each file closed once answered), then asks the watched file again
// with nothing changed. Prints, per run, the unreachable-code lines of that file in the answer and
// in the second asking, and the count of errors and warnings.
// Usage: node bench/ty-hint-variation.mjs [--runs N] [--root DIR] [--file PATH] [--ty BINARY]
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startDirectClient } from "./direct-lsp.mjs";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "6" },
    root: { type: "string", default: "tests/fixtures/differential/python-httpx" },
    file: { type: "string", default: "httpx/_models.py" },
    ty: { type: "string", default: join(process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? "/root", ".cache"), "lspmcp/ty/bin/ty") },
  },
});
const root = join(process.cwd(), values.root);
const files = readdirSync(root, { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith(".py"))
  .sort();
const capabilities = {
  workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } },
  textDocument: { diagnostic: { dynamicRegistration: true }, publishDiagnostics: { versionSupport: true } },
};
const unreachable = (items) => items.filter((item) => item.message.startsWith("Code is unreachable")).map((item) => item.range.start.line + 1);

for (let run = 1; run <= Number(values.runs); run++) {
  const { connection, stop } = await startDirectClient({ command: values.ty, args: ["server"], root, name: "fixture", capabilities });
  const uri = (path) => pathToFileURL(join(root, path)).href;
  for (const path of files) {
    await connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: uri(path), languageId: "python", version: 1, text: readFileSync(join(root, path), "utf8") },
    });
  }
  const answers = new Map();
  const pull = async (path) => {
    for (;;) {
      try {
        return await connection.sendRequest("textDocument/diagnostic", { textDocument: { uri: uri(path) } });
      } catch (error) {
        // ServerCancelled with retriggerRequest: a close overtook the pull; ask again.
        if (error?.code !== -32802) throw error;
      }
    }
  };
  await Promise.all(
    files.map(async (path) => {
      answers.set(path, (await pull(path)).items);
      if (path !== values.file) await connection.sendNotification("textDocument/didClose", { textDocument: { uri: uri(path) } });
    }),
  );
  const again = (await pull(values.file)).items;
  const errorsAndWarnings = [...answers.values()].flat().filter((item) => (item.severity ?? 1) <= 2).length;
  console.log(
    `run ${run}: ${relative(root, join(root, values.file))} unreachable at ${JSON.stringify(unreachable(answers.get(values.file)))}, asked again ${JSON.stringify(unreachable(again))}; errors and warnings ${errorsAndWarnings}`,
  );
  await stop();
}
