import { z } from "zod";
import { requestHover } from "../lsp/features/hover.js";
import { boundedSingle, limitBytes } from "./bounded-answer.js";
import { columnArg, lineArg, maxBytesArg, pathArg, RangeSchema, serverArg, workspaceArg } from "./common-schemas.js";
import { openTarget } from "../pipeline/open-target.js";
import { defineTool } from "./tool-definition.js";

/** `hover`: what the server shows under the cursor, as markdown; empty contents when nothing. */
export const hoverTool = defineTool({
  name: "hover",
  title: "Hover",
  description:
    "Type and documentation of the symbol at a 1-based line and 1-based column (Unicode code points), as markdown.",
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg,
    path: pathArg,
    line: lineArg,
    column: columnArg,
    max_bytes: maxBytesArg,
  }),
  outputSchema: z.object({ path: z.string(), range: RangeSchema.nullable(), contents: z.string() }),
  handler: async (args, context) => {
    const { client, synced, file } = await openTarget(context, args);
    const encoding = client.positionEncoding;
    const position = synced.lines.toLsp({ line: args.line, column: args.column }, encoding);
    const hover = await requestHover(client, synced.document.uri, position, { deadline: context.deadline, signal: context.signal });
    const range = hover?.range ? synced.lines.rangeFromLsp(hover.range, encoding) : null;
    const contents = hover?.markdown ?? "";
    return boundedSingle(
      {
        structured: { path: file.path, range, contents },
        text: contents.length > 0 ? contents : `no hover information at ${file.path}:${args.line}:${args.column}`,
      },
      limitBytes(context.config, args.max_bytes),
    );
  },
});
