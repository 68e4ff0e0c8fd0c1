import { z } from "zod";
import { flattenSymbols, type FlatSymbol } from "../contract/symbol-order.js";
import { requestOpenDocumentSymbols } from "../lsp/features/document-symbols.js";
import { boundedPage, limitBytes, pageHeading, type PageEnvelope } from "./bounded-answer.js";
import { filePathArg, limitArg, maxBytesArg, offsetArg, pageFields, RangeSchema, serverArg, wholeNumber, workspaceArg } from "./common-schemas.js";
import { convertDocumentSymbols } from "../navigation/convert-symbols.js";
import { openTarget } from "../targets/open-target.js";
import { resolveTarget } from "../targets/resolve-target.js";
import { defineTool } from "./tool-definition.js";

const SymbolItemSchema = z.object({
  name: z.string(),
  kind: z.string(),
  detail: z.string().nullable(),
  container: z.string().nullable(),
  depth: wholeNumber(0),
  range: RangeSchema,
  selection_range: RangeSchema,
});

/** `document_symbols`: the file's outline, pre-order, each symbol with its depth and container. */
export const documentSymbolsTool = defineTool({
  name: "document_symbols",
  title: "Document symbols",
  description: "A file's symbols, nested ones after their parent.",
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg,
    path: filePathArg,
    offset: offsetArg,
    limit: limitArg,
    max_bytes: maxBytesArg,
  }),
  outputSchema: z.object({ items: z.array(SymbolItemSchema), ...pageFields }),
  handler: async (args, context) => {
    const { client, synced, file } = await openTarget(context, resolveTarget(context.config, args));
    const answer = await requestOpenDocumentSymbols(client, synced.document, { deadline: context.deadline, signal: context.signal });
    const items = flattenSymbols(convertDocumentSymbols(answer, synced.lines, client.positionEncoding));
    return boundedPage(items, args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
      structured: { items: page, ...envelope },
      text: renderText(file.path, page, envelope),
    }));
  },
});

function renderText(path: string, page: FlatSymbol[], envelope: PageEnvelope): string {
  const header = pageHeading(envelope, "symbols", ` in ${path}`);
  const lines = page.map((symbol) => `${"  ".repeat(symbol.depth)}${symbol.kind} ${symbol.name} ${symbol.range.start.line}:${symbol.range.start.column}`);
  return [header, ...lines].join("\n");
}
