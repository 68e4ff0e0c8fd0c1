import { fileURLToPath } from "node:url";
import { z } from "zod";
import { symbolKindName } from "../contract/names.js";
import { LineIndex, type BridgeRange, type PositionEncoding } from "../contract/positions.js";
import { sortWorkspaceSymbols, type WorkspaceSymbolItem } from "../contract/symbol-order.js";
import { requestWorkspaceSymbols, requireWorkspaceSymbols, type RawWorkspaceSymbol } from "../lsp/features/workspace-symbols.js";
import { holdProjectAnchor } from "../pipeline/project-anchor.js";
import { readSourceFile } from "../sessions/read-source-file.js";
import { workspaceRelativePath, pickServer, pickWorkspace } from "../sessions/resolve-target.js";
import { boundedPage, limitBytes } from "./bounded-answer.js";
import { limitArg, maxBytesArg, offsetArg, pageFields, RangeSchema, serverArg, workspaceArg } from "./common-schemas.js";
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
  description:
    "Search the workspace's symbols by name (the server's fuzzy matching). Ordered by path, position, name, kind; paged with offset/limit. Paths outside the workspace root are absolute.",
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg,
    query: z.string().max(1000).describe("Symbol name or fragment; the server decides how it matches."),
    offset: offsetArg,
    limit: limitArg,
    max_bytes: maxBytesArg,
  }),
  outputSchema: z.object({ items: z.array(WorkspaceSymbolSchema), ...pageFields }),
  handler: async (args, context) => {
    const workspace = pickWorkspace(context.config, args.workspace);
    const server = pickServer(context.config, workspace, args.server);
    const client = await context.sessions.readyClient(workspace, server, context.deadline, context.scope);
    requireWorkspaceSymbols(client);
    const searchable = await holdProjectAnchor(context, workspace, server, client);
    const raw = searchable ? await requestWorkspaceSymbols(client, args.query, { deadline: context.deadline, signal: context.signal }) : [];
    const converted = await convertAll(raw, workspace.root, client.positionEncoding);
    const items = sortWorkspaceSymbols(converted);
    return boundedPage(items, args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
      structured: { items: page, ...envelope },
      text: [
        `${envelope.returned} of ${envelope.total} symbols matching "${args.query}" (offset ${envelope.offset})`,
        ...page.map((s) => `${s.path}${s.range ? `:${s.range.start.line}:${s.range.start.column}` : ""}: ${s.kind} ${s.name}`),
      ].join("\n"),
    }));
  },
});

/**
 * Columns are code points of each file's text, so every file a symbol lies in is read once. A
 * file that cannot be read (gone, not UTF-8) gives its symbols a null range rather than a guess.
 */
async function convertAll(raw: RawWorkspaceSymbol[], root: string, encoding: PositionEncoding): Promise<WorkspaceSymbolItem[]> {
  const indexes = new Map<string, Promise<LineIndex | null>>();
  const indexFor = (absolutePath: string): Promise<LineIndex | null> => {
    let index = indexes.get(absolutePath);
    if (!index) {
      index = readSourceFile(absolutePath, absolutePath).then(
        (text) => new LineIndex(text),
        () => null,
      );
      indexes.set(absolutePath, index);
    }
    return index;
  };
  return Promise.all(
    raw.map(async (symbol) => {
      const absolutePath = symbol.uri.startsWith("file:") ? fileURLToPath(symbol.uri) : null;
      let range: BridgeRange | null = null;
      if (absolutePath !== null && symbol.range !== null) {
        const lines = await indexFor(absolutePath);
        range = lines ? lines.rangeFromLsp(symbol.range, encoding) : null;
      }
      return {
        name: symbol.name,
        kind: symbolKindName(symbol.kind),
        container: symbol.containerName,
        path: absolutePath === null ? symbol.uri : workspaceRelativePath(root, absolutePath),
        range,
      };
    }),
  );
}
