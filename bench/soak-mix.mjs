// The long soak (issue 19): WORKERS attached `lspmcp serve` processes drive ONE shared bridge
// with a mix of every tool it lists, over TypeScript, Python and C files that are edited on
// disk as it goes. Each worker owns one file per language (only it edits and asks about them,
// one call at a time), so every answer about them is checked against the file's current bytes:
// a stale answer is one that describes an earlier edit. Read-only files of every language are
// asked about too, with a small max_open_documents, so that documents are closed and reopened
// all run long; their answers must never change. RSS of the shared bridge, the forwarders and
// each language server is sampled every EVERY calls, and slopes are fitted after warm-up.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { treeWhere } from "./proc.mjs";
import { peakKiB, PLATEAU_LIMITS, plateauVerdict, rssKiB, slopePer1000 } from "./soak-stats.mjs";
import { lspmcpTransport } from "./lspmcp-process.mjs";

const LANGUAGES = {
  ts: {
    server: "typescript",
    text: (g, broken) =>
      `export function gen_${g}(value: number): number {\n  return value + ${g};\n}\n\n${broken ? 'export const broken: number = "not a number";' : "export const fine: number = 1;"}\n`,
    column: "export function ".length + 1,
  },
  py: {
    server: "pyright",
    text: (g, broken) => `def gen_${g}(value: int) -> int:\n    return value + ${g}\n\n\n${broken ? "broken: str = 1" : "fine: int = 1"}\n`,
    column: "def ".length + 1,
  },
  c: {
    server: "clangd",
    text: (g, broken) =>
      `int gen_${g}(int value) {\n  return value + ${g};\n}\n\n${broken ? 'int broken(void) { return "x"; }' : "int fine(void) { return 1; }"}\n`,
    column: "int ".length + 1,
  },
};
const EXTENSIONS = Object.keys(LANGUAGES);
/** The line of the statement that is broken in odd generations (1-based). */
const BROKEN_LINE = 5;
const READ_ONLY_PER_LANGUAGE = 4;

/**
 * How each navigation tool (issue 15) is asked about a worker's own file, and how its answer is
 * checked: the `text` of a location item is its line, so it names the current generation. Used
 * only for tools the bridge lists; add an entry here when a new position tool lands.
 */
const NAVIGATION = {
  definition: { args: {}, names: "items" },
  declaration: { args: {}, names: "items" },
  type_definition: { args: {}, names: null },
  implementation: { args: {}, names: null },
  references: { args: { include_declaration: true }, names: "items" },
  call_hierarchy: { args: { direction: "incoming" }, names: null },
};

/**
 * Each worker's generations are numbered apart from the others' and from the read-only files'
 * (1000 + i): C functions of one name in several files share one symbol (USR), and clangd's index
 * may then answer a definition with another worker's file.
 */
const firstGeneration = (w) => (w + 1) * 1_000_000;

function writeWorkspace(root, workers) {
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "ES2022" }, include: ["src"] }));
  for (const ext of EXTENSIONS) {
    for (let i = 0; i < READ_ONLY_PER_LANGUAGE; i++) writeFileSync(join(root, `src/ro${i}.${ext}`), LANGUAGES[ext].text(1000 + i, i % 2 === 1));
    for (let w = 0; w < workers; w++) writeFileSync(join(root, `src/w${w}.${ext}`), LANGUAGES[ext].text(firstGeneration(w), false));
  }
}

function writeConfig(dir, root, leaseDir, maxOpen) {
  const path = join(dir, "bridge.toml");
  writeFileSync(
    path,
    `[bridge]
max_sessions = 4
request_timeout_ms = 60000
max_open_documents = ${maxOpen}

[shared]
lease_dir = ${JSON.stringify(leaseDir)}
linger_ms = 500

[[server]]
name = "typescript"
profile = "typescript"

[[server]]
name = "pyright"
profile = "pyright"

[[server]]
name = "clangd"
profile = "clangd"

[[workspace]]
name = "soak"
root = ${JSON.stringify(root)}
servers = ["typescript", "pyright", "clangd"]
`,
  );
  return path;
}

async function attach(config) {
  const transport = lspmcpTransport(["serve", "--config", config]);
  const client = new Client({ name: "lspmcp-soak", version: "0" });
  await client.connect(transport);
  // `initialize` is answered before the serve has found or launched the shared server; a call
  // is answered by the shared server itself, so after it the link, and the lease, exist.
  await client.callTool({ name: "session_status", arguments: {} });
  return { client, pid: transport.pid };
}

/** Checks an answer about a worker's own file against what is on disk now; returns a problem or null. */
function staleness(tool, result, own) {
  const s = result.structuredContent;
  const name = `gen_${own.generation}`;
  switch (tool) {
    case "diagnostics": {
      const atBroken = s.items.filter((item) => item.range.start.line === BROKEN_LINE);
      if (own.broken && atBroken.length === 0) return `no diagnostic at the broken line of generation ${own.generation}`;
      if (!own.broken && s.items.length > 0) return `diagnostics on a clean generation ${own.generation}: ${JSON.stringify(s.items).slice(0, 200)}`;
      return null;
    }
    case "document_symbols": {
      const names = s.items.map((item) => item.name);
      return names.includes(name) ? null : `symbols ${JSON.stringify(names)} lack ${name}`;
    }
    case "hover":
      return s.contents.includes(name) ? null : `hover ${JSON.stringify(s.contents).slice(0, 200)} lacks ${name}`;
    default: {
      const check = NAVIGATION[tool]?.names;
      if (!check) return null;
      return s.items.some((item) => item.text?.includes(name)) ? null : `${tool} items lack ${name}: ${JSON.stringify(s.items).slice(0, 200)}`;
    }
  }
}

/** Runs the mix; resolves with its report. */
export async function soakMix({ calls, every, workers, minutes, maxOpen, log }) {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-soak-mix-"));
  const root = join(dir, "ws");
  const leaseDir = join(dir, "leases");
  writeWorkspace(root, workers);
  const config = writeConfig(dir, root, leaseDir, maxOpen);
  const peers = [];
  for (let w = 0; w < workers; w++) peers.push(await attach(config));
  const lease = JSON.parse(
    readFileSync(
      join(
        leaseDir,
        readdirSync(leaseDir).find((name) => name.endsWith(".lease")),
      ),
      "utf8",
    ),
  );
  const listed = (await peers[0].client.listTools()).tools.map((tool) => tool.name);
  const navigation = listed.filter((name) => name in NAVIGATION);

  // The languages' servers, found in the shared bridge's tree by what they run.
  const serverRss = () => {
    const tree = treeWhere((pid) => pid === lease.pid);
    const cmd = (pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "latin1").replaceAll("\0", " ");
      } catch {
        return "";
      }
    };
    const sum = (match) =>
      tree.filter((p) => p.pid !== lease.pid && !cmd(p.pid).includes("--supervise") && match(cmd(p.pid))).reduce((total, p) => total + rssKiB(p.pid), 0);
    return {
      typescript: sum((c) => c.includes("typescript-language-server") || c.includes("tsserver")),
      pyright: sum((c) => c.includes("pyright")),
      clangd: sum((c) => c.includes("clangd")),
    };
  };

  const state = { calls: 0, failures: [], stale: [], notSupported: 0, byTool: {}, samples: [], stop: false };
  const started = Date.now();
  const deadline = minutes > 0 ? started + minutes * 60_000 : Infinity;
  const sample = () => {
    const row = {
      calls: state.calls,
      minutes: Number(((Date.now() - started) / 60_000).toFixed(2)),
      bridge_kib: rssKiB(lease.pid),
      forwarders_kib: peers.reduce((t, p) => t + rssKiB(p.pid), 0),
      ...Object.fromEntries(peers.map((p, w) => [`forwarder_${w}_kib`, rssKiB(p.pid)])),
      ...serverRss(),
    };
    state.samples.push(row);
    log(`[soak] ${JSON.stringify(row)} failures=${state.failures.length} stale=${state.stale.length}`);
  };
  const readOnlyAnswers = new Map();

  const worker = async (w, client) => {
    const own = Object.fromEntries(EXTENSIONS.map((ext) => [ext, { path: `src/w${w}.${ext}`, generation: firstGeneration(w), broken: false }]));
    const kinds = [
      "diagnostics",
      "hover",
      "document_symbols",
      ...navigation,
      "diagnostics",
      "document_symbols",
      "ro-diagnostics",
      "ro-symbols",
      "workspace_symbols",
      "session_status",
    ];
    for (let n = 0; !state.stop; n++) {
      if (state.calls >= calls || Date.now() > deadline) {
        state.stop = true;
        break;
      }
      const ext = EXTENSIONS[n % EXTENSIONS.length];
      const file = own[ext];
      // Every 12th call of a worker edits one of its files on disk before asking.
      if (n % 12 === 11) {
        file.generation += 1;
        file.broken = file.generation % 2 === 1;
        writeFileSync(join(root, file.path), LANGUAGES[ext].text(file.generation, file.broken));
      }
      const kind = kinds[Math.floor(n / EXTENSIONS.length) % kinds.length];
      const position = { line: 1, column: LANGUAGES[ext].column };
      const ro = `src/ro${n % READ_ONLY_PER_LANGUAGE}.${ext}`;
      const call =
        kind === "ro-diagnostics"
          ? { name: "diagnostics", arguments: { path: ro } }
          : kind === "ro-symbols"
            ? { name: "document_symbols", arguments: { path: ro } }
            : kind === "workspace_symbols"
              ? { name: kind, arguments: { server: LANGUAGES[ext].server, query: "gen_" } }
              : kind === "session_status"
                ? { name: kind, arguments: {} }
                : kind === "hover" || kind in NAVIGATION
                  ? { name: kind, arguments: { path: file.path, ...position, ...(NAVIGATION[kind]?.args ?? {}) } }
                  : { name: kind, arguments: { path: file.path } };
      let result;
      try {
        result = await client.callTool(call, undefined, { timeout: 120_000 });
      } catch (error) {
        result = { isError: true, content: [{ text: `client: ${error instanceof Error ? error.message : String(error)}` }] };
      }
      state.calls += 1;
      state.byTool[call.name] = (state.byTool[call.name] ?? 0) + 1;
      const problem = (list, text) => {
        list.push(text);
        log(`[soak] problem at call ${state.calls}: ${text}`);
      };
      // A tool the file's server does not offer (declaration on typescript-language-server,
      // implementation on pyright) is the contract's answer, not a failure.
      if (result.isError && result.content?.[0]?.text?.startsWith('{"error":{"code":"NotSupported"')) {
        state.notSupported += 1;
      } else if (result.isError) {
        problem(state.failures, `${call.name} ${JSON.stringify(call.arguments)}: ${result.content?.[0]?.text?.slice(0, 300)}`);
      } else if (kind.startsWith("ro-")) {
        const key = JSON.stringify(call);
        const bytes = JSON.stringify(result.structuredContent);
        if (!readOnlyAnswers.has(key)) readOnlyAnswers.set(key, bytes);
        else if (readOnlyAnswers.get(key) !== bytes)
          problem(state.stale, `${key}: the answer about an unchanged file changed from ${readOnlyAnswers.get(key).slice(0, 300)} to ${bytes.slice(0, 300)}`);
      } else if (call.arguments.path === file.path) {
        const stale = staleness(call.name, result, file);
        if (stale) problem(state.stale, `${call.name} ${file.path} generation ${file.generation}: ${stale}`);
      }
      if (state.calls % every === 0) sample();
    }
  };
  sample();
  await Promise.all(peers.map((peer, w) => worker(w, peer.client)));
  sample();
  const elapsedMs = Date.now() - started;
  const bridgePeak = peakKiB(lease.pid);
  await Promise.all(peers.map((peer) => peer.client.close().catch(() => {})));
  rmSync(dir, { recursive: true, force: true });

  const slope = (key) =>
    slopePer1000(
      state.samples,
      (s) => s.calls,
      (s) => s[key],
    );
  // The plateau (issue 26) over the last 10,000 calls, for the shared bridge and each forwarder;
  // a run too short to have them after a warm-up is not judged.
  const judged = state.calls >= PLATEAU_LIMITS.window_calls + 2_000;
  const plateauOf = (key) =>
    judged
      ? plateauVerdict(
          state.samples,
          (s) => s.calls,
          (s) => s[key],
        )
      : null;
  const plateau = { bridge: plateauOf("bridge_kib"), ...Object.fromEntries(peers.map((_, w) => [`forwarder_${w}`, plateauOf(`forwarder_${w}_kib`)])) };
  return {
    mode: "mix",
    calls: state.calls,
    minutes: Number((elapsedMs / 60_000).toFixed(1)),
    workers,
    max_open_documents: maxOpen,
    tools: state.byTool,
    failures: state.failures.length,
    not_supported: state.notSupported,
    stale: state.stale.length,
    first_problems: [...state.failures, ...state.stale].slice(0, 10),
    bridge_peak_kib: bridgePeak,
    plateau,
    ok: state.failures.length === 0 && state.stale.length === 0 && Object.values(plateau).every((verdict) => verdict === null || verdict.ok),
    slope_kib_per_1000_calls: {
      bridge: slope("bridge_kib"),
      forwarders: slope("forwarders_kib"),
      typescript: slope("typescript"),
      pyright: slope("pyright"),
      clangd: slope("clangd"),
    },
    samples: state.samples,
  };
}
