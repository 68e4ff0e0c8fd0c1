import { z } from "zod";
import { requestHover } from "../lsp/features/hover.js";
import { boundedSingle, limitBytes } from "./bounded-answer.js";
import { filePathArg, maxBytesArg, positionArgs, RangeSchema, serverArg, workspaceArg } from "./common-schemas.js";
import { openTarget } from "../targets/open-target.js";
import { resolveTarget } from "../targets/resolve-target.js";
import { resolvePosition } from "../navigation/resolve-position.js";
import { positionAbout } from "./location-tool.js";
import { defineTool } from "./tool-definition.js";

/** `hover`: what the server shows under the cursor, as markdown; empty contents when nothing. */
export const hoverTool = defineTool({
  name: "hover",
  title: "Hover",
  description: "Type and docs of a symbol, as markdown.",
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg,
    path: filePathArg,
    ...positionArgs,
    max_bytes: maxBytesArg,
  }),
  outputSchema: z.object({ path: z.string(), range: RangeSchema.nullable(), contents: z.string() }),
  handler: async (args, context) => {
    const target = await openTarget(context, resolveTarget(context.config, args));
    const { client, synced, file } = target;
    const encoding = client.positionEncoding;
    const options = { deadline: context.deadline, signal: context.signal };
    const { at, lsp } = await resolvePosition(target, args, options);
    const hover = await requestHover(client, synced.document.uri, lsp, options);
    const range = hover?.range ? synced.lines.rangeFromLsp(hover.range, encoding) : null;
    const contents = hover?.markdown ?? "";
    return boundedSingle(
      {
        structured: { path: file.path, range, contents },
        text:
          contents.length > 0
            ? `hover${positionAbout(args.symbol, file.path, at)}:\n${contents.trim()}`
            : `no hover information${positionAbout(args.symbol, file.path, at)}`,
      },
      limitBytes(context.config, args.max_bytes),
    );
  },
});
