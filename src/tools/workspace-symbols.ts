import { z } from "zod";
import { symbolKindName } from "../contract/names.js";
import { sortWorkspaceSymbols, type WorkspaceSymbolItem } from "../contract/symbol-order.js";
import { WorkspaceSymbolRequest } from "vscode-languageserver-protocol";
import type { ResolvedServer, ResolvedWorkspace } from "../config/types.js";
import { BridgeError } from "../contract/errors.js";
import { offersWorkspaceSymbols, requestWorkspaceSymbols, requireWorkspaceSymbols, type RawWorkspaceSymbol } from "../lsp/features/workspace-symbols.js";
import { CallScope } from "../contract/call-scope.js";
import { holdProjectDocument } from "./hold-project-document.js";
import { pickWorkspace, serversToAsk } from "../targets/resolve-target.js";
import { FirstFailure, runPool } from "../diagnostics/run/run-pool.js";
import { TargetTexts } from "../navigation/target-texts.js";
import { boundedPage, limitBytes, pageHeading } from "./bounded-answer.js";
import { limitArg, maxBytesArg, offsetArg, pageFields, RangeSchema, serverArg, workspaceArg } from "./common-schemas.js";
import type { CallContext } from "../targets/call-context.js";
import { defineTool } from "./tool-definition.js";

const WorkspaceSymbolSchema = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().nullable(),
  path: z.string(),
  range: RangeSchema.nullable(),
});

/** `workspace_symbols`: the server's symbol search across the workspace. */
export const workspaceSymbolsTool = defineTool({
  name: "workspace_symbols",
  title: "Workspace symbols",
  description: "Symbols matching a name, from every server that searches (or `server` only).",
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg,
    query: z.string().max(1000).describe("A name, or part of one."),
    offset: offsetArg,
    limit: limitArg,
    max_bytes: maxBytesArg,
  }),
  outputSchema: z.object({ items: z.array(WorkspaceSymbolSchema), ...pageFields }),
  handler: async (args, context) => {
    const workspace = pickWorkspace(context.config, args.workspace);
    const servers = serversToAsk(context.config, workspace, args.server);
    // At most max_sessions servers at once, each held only while it is asked: a workspace with
    // more servers than that is still searched whole, the idle ones giving way in turn.
    const answers = await runPool(servers, context.config.bridge.max_sessions, new FirstFailure(context.signal), async (server) => {
      const scope = new CallScope();
      try {
        return await searchOne({ ...context, scope }, workspace, server, args.query, args.server !== undefined);
      } finally {
        scope.close();
      }
    });
    if (answers.every((answer) => answer === null)) {
      throw new BridgeError("NotSupported", `no server of workspace ${workspace.name} provides workspace symbols`, {
        method: WorkspaceSymbolRequest.method,
        servers: servers.map((server) => server.name),
      });
    }
    const items = uniqueSorted(answers.flatMap((answer) => answer ?? []));
    return boundedPage(items, args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
      structured: { items: page, ...envelope },
      text: [
        pageHeading(envelope, "symbols", ` matching "${args.query}"`),
        ...page.map(
          (s) => `${s.path}${s.range ? `:${s.range.start.line}:${s.range.start.column}` : ""}: ${s.kind} ${s.name}${s.container ? ` in ${s.container}` : ""}`,
        ),
      ].join("\n"),
    }));
  },
});

/**
 * One server's converted answer; null when the server does not offer workspace symbols and was
 * not named (a named one answers `NotSupported`). Its session starts if it has not yet: whether
 * it offers the search is known only from its `initialize` answer.
 */
async function searchOne(
  context: CallContext,
  workspace: ResolvedWorkspace,
  server: ResolvedServer,
  query: string,
  named: boolean,
): Promise<WorkspaceSymbolItem[] | null> {
  const client = await context.sessions.readyClient(workspace, server, context.deadline, context.scope);
  if (named) requireWorkspaceSymbols(client);
  else if (!offersWorkspaceSymbols(client)) return null;
  const searchable = await holdProjectDocument(context, workspace, server, client);
  const raw = searchable ? await requestWorkspaceSymbols(client, query, { deadline: context.deadline, signal: context.signal }) : [];
  return convertAll(raw, new TargetTexts(workspace, client));
}

/** Canonical order, each identical item once (two servers may find the same symbol). */
function uniqueSorted(items: readonly WorkspaceSymbolItem[]): WorkspaceSymbolItem[] {
  const sorted = sortWorkspaceSymbols(items);
  // The order is total, so identical items are neighbours.
  return sorted.filter((item, i) => i === 0 || JSON.stringify(item) !== JSON.stringify(sorted[i - 1]));
}

/**
 * Columns are code points of each file's text, read once per call: the server's open copy, else
 * the disk's (`TargetTexts`). A file that cannot be read (gone, not UTF-8) gives its symbols a
 * null range rather than a guess.
 */
function convertAll(raw: RawWorkspaceSymbol[], texts: TargetTexts): Promise<WorkspaceSymbolItem[]> {
  return Promise.all(
    raw.map(async (symbol) => ({
      name: symbol.name,
      kind: symbolKindName(symbol.kind),
      container: symbol.containerName,
      path: (await texts.place(symbol.uri)).path,
      range: symbol.range === null ? null : await texts.knownRange(symbol.uri, symbol.range),
    })),
  );
}
