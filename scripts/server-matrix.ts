import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { loadConfig } from "../src/config/load-config.js";
import { profileNames } from "../src/config/profiles.js";
import { Deadline } from "../src/contract/deadline.js";
import { SILENT_LOGGER } from "../src/contract/logger.js";
import { SessionRegistry } from "../src/sessions/session-registry.js";

/** What one pinned server said in `initialize`, as the matrix needs it. */
export interface ServerRow {
  readonly profile: string;
  readonly version: string;
  readonly capabilities: ServerCapabilities;
  /** The negotiated encoding, and what the profile says the server really counts (or null). */
  readonly negotiated: string;
  readonly counts: string | null;
  /** How the server's adapter settles its diagnostics (rust-analyzer: pulls plus `cargo check` runs; bacon-ls: `cargo check` runs). */
  readonly settle: string;
}

const CONCURRENT_STARTS = 4;

/** The tools of CONTRACT §4 and §4.1 that depend on a server capability, and that capability. */
const TOOL_COLUMNS: readonly [tool: string, has: (c: ServerCapabilities) => boolean][] = [
  ["hover", (c) => Boolean(c.hoverProvider)],
  ["document_symbols", (c) => Boolean(c.documentSymbolProvider)],
  ["workspace_symbols", (c) => Boolean(c.workspaceSymbolProvider)],
  ["definition", (c) => Boolean(c.definitionProvider)],
  ["declaration", (c) => Boolean(c.declarationProvider)],
  ["type_definition", (c) => Boolean(c.typeDefinitionProvider)],
  ["implementation", (c) => Boolean(c.implementationProvider)],
  ["references", (c) => Boolean(c.referencesProvider)],
  ["call_hierarchy", (c) => Boolean(c.callHierarchyProvider)],
  ["code_actions", (c) => Boolean(c.codeActionProvider)],
  ["rename_preview", (c) => Boolean(c.renameProvider)],
];

/**
 * How `diagnostics` is answered: tsserver's own requests, an LSP pull, a publish, a pull and
 * flycheck's publishes, or the publishes of a `cargo check` run asked for.
 */
function diagnosticsCell(row: ServerRow): string {
  if (row.capabilities.executeCommandProvider?.commands.includes("typescript.tsserverRequest")) return "tsserver";
  if (row.settle === "flycheck") return "pull + flycheck";
  if (row.settle === "cargo-run") return "push (cargo run)";
  return row.capabilities.diagnosticProvider ? "pull" : "push";
}

/**
 * Starts every shipped profile once (each in a workspace of its own on an empty temporary folder,
 * a few at a time) and returns what each said in `initialize`, in profile-name order. Every session is
 * closed, and its process tree reaped, before this returns.
 */
export async function collectServerRows(packageRoot: string, timeoutMs = 180000): Promise<ServerRow[]> {
  const names = await profileNames(packageRoot);
  const tmp = await mkdtemp(join(tmpdir(), "lspmcp-matrix-"));
  // A folder of its own below the temporary one: Biome's start looks at the root's parent, and
  // the system temp folder changes under it as other programs come and go.
  const dir = join(tmp, "workspace");
  await mkdir(dir);
  // graphql-lsp starts only beside a GraphQL config (servers/graphql/lsp).
  await writeFile(join(dir, ".graphqlrc.yml"), "schema: schema.graphql\n");
  await writeFile(join(dir, "schema.graphql"), "type Query { ok: Boolean }\n");
  const toml = [
    `[bridge]\nmax_sessions = ${names.length}\nrequest_timeout_ms = ${timeoutMs}\n[shared]\nenabled = false\n`,
    ...names.map((name) => `[[server]]\nname = "${name}"\nprofile = "${name}"\n`),
    ...names.map((name) => `[[workspace]]\nname = "${name}"\nroot = "."\nservers = ["${name}"]\n`),
  ].join("\n");
  await writeFile(join(dir, "bridge.toml"), toml);
  const config = await loadConfig(join(dir, "bridge.toml"), { packageRoot });
  const sessions = new SessionRegistry(config, SILENT_LOGGER);
  try {
    const rows: ServerRow[] = [];
    // A few at a time: each start spawns a supervisor that must be up within its own deadline.
    for (let first = 0; first < config.servers.length; first += CONCURRENT_STARTS) {
      const batch = config.servers.slice(first, first + CONCURRENT_STARTS);
      const deadline = Deadline.in(timeoutMs);
      rows.push(
        ...(await Promise.all(
          batch.map(async (server, i) => {
            const client = await sessions.readyClient(config.workspaces[first + i]!, server, deadline);
            const negotiated = client.capabilities.positionEncoding ?? "utf-16";
            return {
              profile: server.name,
              version: server.version,
              capabilities: client.capabilities,
              negotiated,
              counts: server.position_encoding,
              settle: typeof client.adapter.settle === "object" ? client.adapter.settle.name : client.adapter.settle,
            };
          }),
        )),
      );
    }
    return rows;
  } finally {
    await sessions.closeAll();
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The matrix as a markdown table: one row per profile, one column per capability-bound tool. */
export function renderMatrix(rows: readonly ServerRow[]): string {
  const header = ["profile", "pin", "diagnostics", ...TOOL_COLUMNS.map(([tool]) => tool), "positions"];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const row of rows) {
    const tools = TOOL_COLUMNS.map(([, has]) => (has(row.capabilities) ? "✓" : "—"));
    const positions = row.counts && row.counts !== row.negotiated ? `${row.negotiated}, counts ${row.counts}` : row.negotiated;
    lines.push(`| ${[row.profile, `\`${row.version}\``, diagnosticsCell(row), ...tools, positions].join(" | ")} |`);
  }
  return lines.join("\n") + "\n";
}

const BEGIN = "<!-- server-matrix:begin (generated by `npm run servers`; do not edit) -->";
const END = "<!-- server-matrix:end -->";

/** `doc` with the text between the matrix markers replaced by `matrix`; throws when a marker is missing. */
export function spliceMatrix(doc: string, matrix: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error("docs/servers.md lacks the server-matrix markers");
  return `${doc.slice(0, start + BEGIN.length)}\n${matrix}${doc.slice(end)}`;
}
