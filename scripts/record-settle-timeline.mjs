// Records what a real language server tells lspmcp's client while diagnostics settle, as the
// event list that src/lsp/settle-rule.ts folds, into tests/fixtures/settle-timelines/NAME.json.
//
//   node scripts/record-settle-timeline.mjs --name pyright-pull --workspace DIR --glob .py \
//        [--push] [--adapter NAME] [--language ID] [--until-quiet MS] -- node_modules/.bin/pyright-langserver --stdio
//
// Every file of DIR with the extension is opened at once (check's worst case: one batch), then
// each is settled through the bridge's own settleDiagnostics. With --push the client offers no
// pull diagnostics (the old capability), and the recording instead runs until the server's
// work-done progress has ended, to show the early-publish burst. --adapter names the server's
// adapter (src/languages/; "standard" when left out). With --until-quiet the recording runs
// until the server has said nothing for MS milliseconds, every publish kept, and each event
// carries `at` (milliseconds since the start): the timings the rule's quiet window is measured
// against. Run after `npm run build`.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "..");
const { LspClient } = await import(join(root, "dist/src/lsp/lsp-client.js"));
const { ADAPTERS } = await import(join(root, "dist/src/languages/index.js"));
const { CLIENT_CAPABILITIES } = await import(join(root, "dist/src/lsp/client-capabilities.js"));
const { settleDiagnostics } = await import(join(root, "dist/src/lsp/features/diagnostics-settle.js"));
const { Deadline } = await import(join(root, "dist/src/contract/deadline.js"));
const { DocumentDiagnosticRequest } = await import("vscode-languageserver-protocol");

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    workspace: { type: "string" },
    glob: { type: "string" },
    language: { type: "string" },
    push: { type: "boolean" },
    adapter: { type: "string", default: "standard" },
    "until-quiet": { type: "string" },
  },
});
if (!Object.hasOwn(ADAPTERS, values.adapter)) throw new Error(`unknown adapter "${values.adapter}" (known: ${Object.keys(ADAPTERS).join(", ")})`);
const workspace = resolve(values.workspace);
const files = walk(workspace)
  .filter((file) => file.endsWith(values.glob))
  .sort();
if (values.push) CLIENT_CAPABILITIES.textDocument.diagnostic.dynamicRegistration = false;

const child = spawn(positionals[0], positionals.slice(1), { cwd: workspace, stdio: ["pipe", "pipe", "ignore"] });
const rootUri = pathToFileURL(workspace).href;
const events = [];
const started = Date.now();
const timed = values["until-quiet"] !== undefined;
let lastHeard = Date.now();
const record = (event) => {
  lastHeard = Date.now();
  const plain = JSON.parse(JSON.stringify(event).replaceAll(rootUri, "file:///WORKSPACE"));
  events.push(timed ? { ...plain, at: lastHeard - started } : plain);
};
const client = LspClient.connect({
  input: child.stdout,
  output: child.stdin,
  rootPath: workspace,
  workspaceName: "recorded",
  initializationOptions: {},
  projects: [],
  settings: {},
  maxOpenDocuments: 10_000,
  adapter: ADAPTERS[values.adapter],
  log: () => {},
});
client.events.subscribe(record);
// The pulls the rule asks for, and their answers, as settle-rule.ts names them.
const request = client.request.bind(client);
client.request = async (type, params, options) => {
  if (type.method !== DocumentDiagnosticRequest.method) return request(type, params, options);
  record({ type: "pull-sent", uri: params.textDocument.uri });
  const report = await request(type, params, options);
  record({ type: "pull-answer", uri: params.textDocument.uri, report: report.kind === "full" ? { kind: "full", items: report.items } : { kind: "unchanged" } });
  return report;
};

try {
  await client.initialize(Deadline.in(60_000));
  const documents = [];
  for (const file of files) {
    const document = await client.documents.sync(pathToFileURL(file).href, values.language ?? "python", readFileSync(file, "utf8"));
    record({ type: "sync", uri: document.uri, version: document.version });
    documents.push(document);
  }
  if (timed) {
    const quiet = Number(values["until-quiet"]);
    while (Date.now() - lastHeard < quiet) await new Promise((done) => setTimeout(done, 100));
  } else if (values.push) {
    await new Promise((done) => {
      let began = false;
      client.events.subscribe((event) => {
        if (event.type === "progress" && event.kind === "begin") began = true;
        if (began && event.type === "progress" && event.kind === "end" && client.progress.isIdle()) done();
      });
    });
  } else {
    const deadline = Deadline.in(600_000);
    await Promise.all(documents.map((document) => settleDiagnostics(client, document, { deadline })));
  }
} finally {
  await client.shutdown(Deadline.in(10_000));
  child.kill("SIGKILL");
}

const out = join(root, "tests/fixtures/settle-timelines", `${values.name}.json`);
mkdirSync(join(root, "tests/fixtures/settle-timelines"), { recursive: true });
const meta = {
  server: positionals.map((p) => p.replace(root + "/", "")).join(" "),
  workspace: workspace.replace(root + "/", ""),
  pull_offered: !values.push,
  recorded_ms: Date.now() - started,
};
writeFileSync(out, JSON.stringify({ ...meta, events }, null, 0).replaceAll('},{"type"', '},\n{"type"') + "\n");
console.log(`${out}: ${events.length} events`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}
