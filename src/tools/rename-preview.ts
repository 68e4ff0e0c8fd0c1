import { z } from "zod";
import { sortPreviewFiles, type PreviewFile } from "../contract/location-order.js";
import { RENAME_FEATURE, requestRename } from "../lsp/features/rename.js";
import { openNavigation } from "../navigation/open-navigation.js";
import { boundedSingle, limitBytes } from "./bounded-answer.js";
import { filePathArg, maxBytesArg, positionArgs, RangeSchema, serverArg, wholeNumber, workspaceArg } from "./common-schemas.js";
import { defineTool } from "./tool-definition.js";

/** `rename_preview`: what a rename would change, computed by the server and never written. */
export const renamePreviewTool = defineTool({
  name: "rename_preview",
  title: "Rename preview",
  description: "Edits per file that renaming a symbol would make; nothing is written.",
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg,
    path: filePathArg,
    ...positionArgs,
    new_name: z.string().min(1).describe("The new name."),
    max_bytes: maxBytesArg,
  }),
  outputSchema: z.object({
    applied: z.literal(false).describe("Always false: the bridge never writes files."),
    files: z.array(
      z.object({
        path: z.string(),
        in_workspace: z.boolean(),
        edits: z.array(z.object({ range: RangeSchema, new_text: z.string(), text: z.string().nullable() })),
      }),
    ),
    file_operations: z.array(z.object({ kind: z.enum(["create", "rename", "delete"]), path: z.string(), new_path: z.string().nullable() })),
    total_edits: wholeNumber(0),
  }),
  handler: async (args, context) => {
    const opened = await openNavigation(context, args, RENAME_FEATURE);
    const options = { deadline: context.deadline, signal: context.signal };
    const rename = await requestRename(opened.client, opened.synced.document.uri, opened.position.lsp, args.new_name, options);
    const { texts } = opened;
    const files: PreviewFile[] = await Promise.all(
      [...rename.edits].map(async ([uri, edits]) => {
        const place = await texts.place(uri);
        return {
          path: place.path,
          in_workspace: place.inWorkspace,
          edits: await Promise.all(
            edits.map(async (edit) => ({
              range: await texts.range(uri, edit.range),
              new_text: edit.newText,
              text: await texts.lineText(uri, edit.range.start.line),
            })),
          ),
        };
      }),
    );
    const file_operations = await Promise.all(
      rename.fileOperations.map(async (operation) => ({
        kind: operation.kind,
        path: (await texts.place(operation.uri)).path,
        new_path: operation.newUri === null ? null : (await texts.place(operation.newUri)).path,
      })),
    );
    const sorted = sortPreviewFiles(files);
    const total_edits = sorted.reduce((sum, file) => sum + file.edits.length, 0);
    const { at } = opened.position;
    return boundedSingle(
      {
        structured: { applied: false as const, files: sorted, file_operations, total_edits },
        text: [
          `renaming ${args.symbol ?? "the symbol"} at ${opened.file.path}:${at.line}:${at.column} to "${args.new_name}" would make ${total_edits} edits in ${sorted.length} files` +
            `${file_operations.length === 0 ? "" : ` and ${file_operations.length} file operations`} (a preview: nothing written); each edit's line as it is now:`,
          ...sorted.flatMap((file) => file.edits.map((edit) => `${file.path}:${edit.range.start.line}:${edit.range.start.column}  ${edit.text?.trim() ?? ""}`)),
          ...file_operations.map((op) => `${op.kind} ${op.path}${op.new_path === null ? "" : ` -> ${op.new_path}`}`),
        ].join("\n"),
      },
      limitBytes(context.config, args.max_bytes),
    );
  },
});
