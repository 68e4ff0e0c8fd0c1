#!/usr/bin/env node
// Can TypeScript 7's native server answer a whole project in a few messages? A probe of its API
// session (`custom/initializeAPISession` over the LSP connection, then JSON-RPC on the Unix socket
// it names), against `tsc --noEmit` of the same pinned binary and the per-file floor, on the
// generated projects of bench/bench-projects.mjs plus files of the shapes a conversion can get
// wrong (non-ASCII text, CRLF, U+2028 inside a string, a message chain, related information,
// unnecessary and deprecated tags, the style checks). Every run, in a rotating order:
//  (a) `tsc --noEmit -p tsconfig.json` (node_modules/typescript-7/bin/tsc);
//  (b) the floor: a plain LSP client pulling `textDocument/diagnostic` for every file, from the
//      server's spawn to its last answer;
//  (c) the API session: from the server's spawn to every file's diagnostics through three
//      all-files requests (syntactic, semantic, suggestion) of the tsconfig's project;
// then (c)'s findings, converted to LSP form as the server's own pull converts them, are compared
// with (b)'s file by file: every kind of difference is counted and shown once. First, the shape
// files alone (with a syntax error, which would stop `tsc` before checking in a timed project) are
// compared twice: as generated, and with noUnusedLocals and its kin on.
// The vendored ajv 8.20.0 (tests/fixtures/differential) is measured the same way (--no-real skips it).
// Usage: node bench/ts-api-diagnostics.mjs [--sizes 500,2000] [--runs 3] [--no-real]
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, SocketMessageReader, SocketMessageWriter, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { timed, tsWorkspace } from "./bench-projects.mjs";
import { stat } from "./proc.mjs";

const REPO = resolve(fileURLToPath(new URL("..", import.meta.url)));
const argv = process.argv.slice(2);
const SIZES = (argv.includes("--sizes") ? argv[argv.indexOf("--sizes") + 1] : "500,2000").split(",").map(Number);
const RUNS = argv.includes("--runs") ? Number(argv[argv.indexOf("--runs") + 1]) : 3;
const REAL = !argv.includes("--no-real");
const TSC7 = join(REPO, "node_modules/typescript-7/bin/tsc");
const NATIVE = join(REPO, `node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`);
const IN_FLIGHT = 32;
// Everything the pull can carry: related information and both tags, so every field is compared.
const CAPABILITIES = { textDocument: { diagnostic: { relatedInformation: true, tagSupport: { valueSet: [1, 2] } } } };

const SHAPES = {
  "shape-unicode.ts": 'const greeting = "héllo 😀 wörld"; export const wrongUnicode: number = "x";\n',
  "shape-crlf.ts": 'export const first = 1;\r\n// a comment\r\nexport const wrongCrlf: number = "x";\r\n',
  "shape-separator.ts": 'export const separated = "a\u2028b"; export const wrongSeparated: number = "x";\n',
  "shape-chain.ts":
    "export const handler: (x: string) => void = (x: number) => { void x; };\n" +
    'interface Nested { a: { b: number } }\nexport const nested: Nested = { a: { b: "no" } };\n',
  "shape-tags.ts": "/** @deprecated use fresh */\nexport function old(): void {}\nold();\nfunction unused() {}\n",
  "shape-style.ts":
    'import { first, wrongCrlf } from "./shape-crlf";\n' +
    "export function style(kind: number, unusedParameter: string) {\n" +
    "  const { a, b } = { a: 1, b: 2 };\n" +
    "  loop: for (let i = 0; i < 1; i++) {}\n" +
    "  switch (kind) {\n    case 0:\n      kind++;\n    case 1:\n      return 1;\n  }\n" +
    "  if (kind > 2) return 2;\n}\n" +
    "export function after(): number {\n  return 1;\n  void 0;\n}\n",
};
// Checked once, beside the shapes, in a project of its own: not in the timed projects.
const SYNTAX = { "shape-syntax.ts": "export const broken = ;\n" };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cpuOf = (child) => stat(child.pid)?.cpuMs ?? Number.NaN;
/** This process's CPU (user + system) since `from`, in ms: what the client itself spent. */
const clientCpu = (from) => {
  const { user, system } = process.cpuUsage(from);
  return Math.round((user + system) / 1000);
};

/** Spawns the native server in `root`, initialized with every diagnostic capability. */
async function startServer(root) {
  const child = spawn(NATIVE, ["--lsp", "--stdio"], { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
  const lsp = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  lsp.onRequest(() => null);
  lsp.onRequest("workspace/configuration", (params) => params.items.map(() => null));
  lsp.listen();
  const rootUri = pathToFileURL(root).href;
  await lsp.sendRequest("initialize", { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: "probe" }], capabilities: CAPABILITIES });
  await lsp.sendNotification("initialized", {});
  const stop = async () => {
    const exited = new Promise((done) => child.once("exit", done));
    await lsp.sendRequest("shutdown");
    await lsp.sendNotification("exit");
    await exited;
    lsp.dispose();
  };
  return { child, lsp, stop };
}

/** (b) Every file pulled, IN_FLIGHT at a time: wall from spawn to the last answer, the server's CPU then. */
async function floor(root, files) {
  const start = process.hrtime.bigint();
  const client = process.cpuUsage();
  const { child, lsp, stop } = await startServer(root);
  const items = new Map();
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      items.set(file, (await lsp.sendRequest("textDocument/diagnostic", { textDocument: { uri: pathToFileURL(file).href } })).items);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const run = { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: cpuOf(child), clientCpuMs: clientCpu(client), messages: 2 + files.length, items }; // initialize, initialized, a pull per file
  await stop();
  return run;
}

/**
 * (c) The API session: `custom/initializeAPISession` with a socket path of ours, the socket's
 * `initialize`, `updateSnapshot` opening the tsconfig's project, then the project's syntactic,
 * semantic and suggestion diagnostics of all files, asked together.
 */
async function apiSession(root) {
  const start = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - start) / 1e6;
  const client = process.cpuUsage();
  const { child, lsp, stop } = await startServer(root);
  const socketDir = mkdtempSync(join(tmpdir(), "lspmcp-api-"));
  const session = await lsp.sendRequest("custom/initializeAPISession", { pipe: join(socketDir, "api.sock") });
  const socket = createConnection(session.pipe);
  await new Promise((done, fail) => socket.once("connect", done).once("error", fail));
  const api = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  api.listen();
  await api.sendRequest("initialize", null);
  const snapshot = await api.sendRequest("updateSnapshot", { openProjects: [join(root, "tsconfig.json")] });
  const loaded = since();
  const loadedCpuMs = cpuOf(child);
  const project = snapshot.projects.find((p) => p.configFileName === join(root, "tsconfig.json"));
  const answeredMs = {};
  const ask = async (method) => {
    const answer = await api.sendRequest(method, { snapshot: snapshot.snapshot, project: project.id });
    answeredMs[method] = since();
    return answer;
  };
  const [syntactic, semantic, suggestion] = await Promise.all(["getSyntacticDiagnostics", "getSemanticDiagnostics", "getSuggestionDiagnostics"].map(ask));
  const run = {
    ms: since(),
    loadedMs: loaded,
    loadedCpuMs,
    answeredMs,
    cpuMs: cpuOf(child),
    clientCpuMs: clientCpu(client),
    // initialize, initialized, custom/initializeAPISession; the socket's initialize, updateSnapshot, three asks.
    messages: 8,
    session,
    syntactic,
    semantic,
    suggestion,
  };
  api.dispose();
  socket.destroy();
  await stop();
  rmSync(socketDir, { recursive: true, force: true });
  return run;
}

// The pull's fields, in one order, for comparing items as text.
const FIELDS = ["range", "start", "end", "line", "character", "severity", "code", "source", "message", "tags", "relatedInformation", "location", "uri"];
const canonical = (item) => JSON.stringify(item, FIELDS);
// The style checks the server's pull turns from errors into warnings (as VS Code's TypeScript
// extension does): declared but never used or read, unused imports, unreachable code, unused
// label, fallthrough, not all code paths return.
const STYLE_CHECKS = new Set([6133, 6196, 6138, 6192, 7027, 7028, 7029, 7030]);

/** Where each line of `text` starts, in UTF-16 units, at "\n", "\r\n" and "\r" only (as LSP counts lines). */
function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\r" && text[i + 1] === "\n") i++;
    if (text[i] === "\n" || text[i] === "\r") starts.push(i + 1);
  }
  return starts;
}

/** The API's diagnostics in the pull's form: offsets (UTF-16) to line/character, the chain flattened. */
function converter() {
  const texts = new Map();
  const startsOf = (file) => {
    if (!texts.has(file)) texts.set(file, lineStarts(readFileSync(file, "utf8")));
    return texts.get(file);
  };
  const position = (file, offset) => {
    const starts = startsOf(file);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - starts[low] };
  };
  const range = (d) => ({ start: position(d.fileName, d.pos), end: position(d.fileName, d.end) });
  const flatten = (d, level = 0) => (level ? `\n${"  ".repeat(level)}` : "") + d.text + (d.messageChain ?? []).map((c) => flatten(c, level + 1)).join("");
  // Category (warning 0, error 1, suggestion 2, message 3) to severity, as the server's pull maps it.
  const SEVERITY = { 0: 2, 1: 1, 2: 4, 3: 3 };
  return (d) => {
    const tags = [...(d.reportsUnnecessary ? [1] : []), ...(d.reportsDeprecated ? [2] : [])];
    const related = (d.relatedInformation ?? []).map((r) => ({ location: { uri: pathToFileURL(r.fileName).href, range: range(r) }, message: r.text }));
    return {
      range: range(d),
      severity: d.category === 1 && STYLE_CHECKS.has(d.code) ? 2 : SEVERITY[d.category],
      code: d.code,
      source: "ts",
      message: flatten(d),
      ...(tags.length ? { tags } : {}),
      ...(related.length ? { relatedInformation: related } : {}),
    };
  };
}

/** Every kind of difference between the pull's items and the API's converted ones, counted, one example each. */
function compare(pulled, viaApi, files) {
  const toLsp = converter();
  const byFile = new Map();
  for (const d of [...viaApi.syntactic, ...viaApi.semantic, ...viaApi.suggestion]) {
    if (!byFile.has(d.fileName)) byFile.set(d.fileName, []);
    byFile.get(d.fileName).push(d);
  }
  const kinds = new Map();
  const note = (kind, example) => {
    const seen = kinds.get(kind) ?? { count: 0, example };
    seen.count++;
    kinds.set(kind, seen);
  };
  const listed = new Set(files);
  for (const [file, diagnostics] of byFile) {
    if (!listed.has(file))
      for (const d of diagnostics)
        note(
          `a finding in a file the pull never asks (${file.includes("/lib.") ? "a default library file" : "outside the list"})`,
          `${file}: TS${d.code} ${d.text}`,
        );
  }
  let findings = 0;
  for (const file of files) {
    const expected = pulled.items.get(file).map(canonical);
    const actual = (byFile.get(file) ?? []).map((d) => canonical(toLsp(d)));
    findings += expected.length;
    if (expected.join("\n") === actual.join("\n")) continue;
    const rest = [...actual];
    const missing = [];
    for (const item of expected) {
      const at = rest.indexOf(item);
      if (at >= 0) rest.splice(at, 1);
      else missing.push(JSON.parse(item));
    }
    if (missing.length === 0 && rest.length === 0) note("same findings in another order", file);
    const extra = rest.map((item) => JSON.parse(item));
    for (const want of missing) {
      // Its twin: the same code and message, else the same code on the same line.
      const same = (test) => extra.findIndex((got) => got.code === want.code && test(got));
      const byMessage = same((got) => got.message === want.message);
      const twin = byMessage >= 0 ? byMessage : same((got) => got.range.start.line === want.range.start.line);
      if (twin < 0) {
        note("a pulled finding the API does not give", `${file}: ${canonical(want)}`);
        continue;
      }
      const got = extra.splice(twin, 1)[0];
      for (const field of ["range", "severity", "source", "message", "tags", "relatedInformation"]) {
        if (JSON.stringify(got[field]) !== JSON.stringify(want[field]))
          note(`${field} differs`, `${file}: pull ${JSON.stringify(want[field])}, API ${JSON.stringify(got[field])}`);
      }
    }
    for (const got of extra) note("an API finding the pull does not give", `${file}: ${canonical(got)}`);
  }
  return { kinds, findings, files: files.length };
}

const errorsOf = (items) => [...items.values()].reduce((n, list) => n + list.filter((i) => i.severity === 1).length, 0);

/** What the API's findings exercise: message chains, related information, tags. */
function exercised(viaApi) {
  const all = [...viaApi.syntactic, ...viaApi.semantic, ...viaApi.suggestion];
  const count = (test) => all.filter(test).length;
  return `${count((d) => d.messageChain)} with a message chain, ${count((d) => d.relatedInformation)} with related information, ${count((d) => d.reportsUnnecessary)} unnecessary, ${count((d) => d.reportsDeprecated)} deprecated, ${count((d) => d.category === 1 && d.fileName.includes("shape-"))} errors in shape files (${count((d) => d.category === 1 && d.reportsUnnecessary)} of them unnecessary)`;
}

function report({ kinds, findings, files }) {
  console.log(
    `  findings compared over ${files} files (${findings} pulled findings): ${kinds.size === 0 ? "identical" : `${kinds.size} kind(s) of difference`}`,
  );
  for (const [kind, { count, example }] of kinds) console.log(`    ${kind}: ${count}, e.g. ${example}`);
}

/** A project of `size` generated modules (none when 0) and the given shape files. */
function project(size, shapes) {
  const root = tsWorkspace(size);
  for (const [name, text] of Object.entries(shapes)) writeFileSync(join(root, "src", name), text);
  const files = readdirSync(join(root, "src"))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(root, "src", name));
  return { root, files };
}

// The shapes alone, with the syntax error, once as generated and once with the style checks on
// (noUnusedLocals and its kin), which make their findings errors: the pull shows some as warnings.
for (const strictUnused of [false, true]) {
  const { root, files } = project(0, { ...SHAPES, ...SYNTAX });
  const style =
    '"noUnusedLocals": true, "noUnusedParameters": true, "noFallthroughCasesInSwitch": true, "noImplicitReturns": true, "allowUnreachableCode": false, "allowUnusedLabels": false';
  if (strictUnused)
    writeFileSync(join(root, "tsconfig.json"), readFileSync(join(root, "tsconfig.json"), "utf8").replace('"strict": true', `"strict": true, ${style}`));
  console.log(`The shape files alone, with a syntax error among them (${files.length} files)${strictUnused ? ", style checks on" : ""}`);
  const viaApi = await apiSession(root);
  console.log(`  API findings: ${exercised(viaApi)}`);
  report(compare(await floor(root, files), viaApi, files));
  rmSync(root, { recursive: true, force: true });
}

/** RUNS rounds of (a), (b) and (c) on `root`, their medians, and (c)'s findings against (b)'s. */
async function measure(label, root, files) {
  console.log(`${label}, ${RUNS} runs (order rotates)`);
  const steps = {
    tsc: () => timed(TSC7, ["--noEmit", "-p", "tsconfig.json"], root),
    floor: () => floor(root, files),
    api: () => apiSession(root),
  };
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const order = Object.keys(steps).map((_, j, names) => names[(i + j) % names.length]);
    const run = {};
    for (const name of order) run[name] = await steps[name]();
    const tscErrors = (run.tsc.stdout.match(/error TS/g) ?? []).length;
    const apiErrors = [...run.api.syntactic, ...run.api.semantic].filter((d) => d.category === 1).length;
    console.log(
      `  run ${i + 1} (${order.join(", ")}): tsc ${run.tsc.ms.toFixed(0)} ms (${tscErrors} errors, ${run.tsc.cpuMs} ms CPU) | ` +
        `floor ${run.floor.ms.toFixed(0)} ms (${errorsOf(run.floor.items)} errors, server ${run.floor.cpuMs} ms CPU, client ${run.floor.clientCpuMs} ms CPU, ${run.floor.messages} messages sent) | ` +
        `API ${run.api.ms.toFixed(0)} ms (project loaded at ${run.api.loadedMs.toFixed(0)}, answers at ${["Syntactic", "Semantic", "Suggestion"].map((k) => run.api.answeredMs[`get${k}Diagnostics`].toFixed(0)).join(" / ")} ms; ${apiErrors} errors, server ${run.api.cpuMs} ms CPU of which ${run.api.loadedCpuMs} to load, client ${run.api.clientCpuMs} ms CPU, ${run.api.messages} messages sent)`,
    );
    runs.push(run);
  }
  const ms = (name) => median(runs.map((r) => r[name].ms));
  const ratio = (a, b) => median(runs.map((r) => r[a].ms / r[b].ms)).toFixed(2);
  console.log(
    `  medians: tsc ${ms("tsc").toFixed(0)} ms, floor ${ms("floor").toFixed(0)} ms, API ${ms("api").toFixed(0)} ms (project loaded at ${median(runs.map((r) => r.api.loadedMs)).toFixed(0)} ms)`,
  );
  const cpu = (pick) => median(runs.map(pick)).toFixed(0);
  console.log(
    `  median CPU: tsc (process tree) ${cpu((r) => r.tsc.cpuMs)} ms; floor: server ${cpu((r) => r.floor.cpuMs)} + client ${cpu((r) => r.floor.clientCpuMs)} ms; API: server ${cpu((r) => r.api.cpuMs)} + client ${cpu((r) => r.api.clientCpuMs)} ms`,
  );
  console.log(`  median ratios of each run: API / tsc ${ratio("api", "tsc")}x, API / floor ${ratio("api", "floor")}x, floor / tsc ${ratio("floor", "tsc")}x`);
  console.log(`  session: ${JSON.stringify(runs[0].api.session)}`);
  console.log(`  API findings: ${exercised(runs[0].api)}`);
  const reports = runs.map((run) => compare(run.floor, run.api, files));
  const same = reports.every(
    (r) => JSON.stringify([...r.kinds].map(([k, v]) => [k, v.count])) === JSON.stringify([...reports[0].kinds].map(([k, v]) => [k, v.count])),
  );
  report(reports[0]);
  console.log(same ? `  (the same in all ${runs.length} runs)` : "  (the runs differ:)");
  if (!same) reports.slice(1).forEach(report);
}

for (const size of SIZES) {
  const { root, files } = project(size, SHAPES);
  await measure(`${size} generated TypeScript files + ${Object.keys(SHAPES).length} shape files`, root, files);
  rmSync(root, { recursive: true, force: true });
}

if (REAL) {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-bench-ajv-"));
  cpSync(join(REPO, "tests/fixtures/differential/typescript-ajv"), root, { recursive: true });
  const files = readdirSync(join(root, "lib"), { recursive: true })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(root, "lib", name));
  await measure(`ajv 8.20.0 (${files.length} TypeScript files, vendored)`, root, files);
  rmSync(root, { recursive: true, force: true });
}
