import { z } from "zod";
import { sortCodeActions, type CodeActionItem } from "../contract/code-action-order.js";
import { BridgeError } from "../contract/errors.js";
import type { BridgeRange } from "../contract/positions.js";
import { requireCapability } from "../lsp/features/capability.js";
import { CODE_ACTIONS_FEATURE, requestCodeActions, type CodeActionSummary } from "../lsp/features/code-actions.js";
import { openTarget } from "../targets/open-target.js";
import { resolveTarget } from "../targets/resolve-target.js";
import { diagnosticsInRange } from "../targets/range-diagnostics.js";
import { resolvePosition } from "../navigation/resolve-position.js";
import { boundedPage, limitBytes, pageHeading } from "./bounded-answer.js";
import { filePathArg, limitArg, maxBytesArg, offsetArg, pageFields, positionArgs, RangeSchema, serverArg, workspaceArg } from "./common-schemas.js";
import { defineTool } from "./tool-definition.js";

const CodeActionItemSchema = z.object({
  title: z.string(),
  kind: z.string().nullable(),
  is_preferred: z.boolean(),
  disabled: z.string().nullable().describe("Why the action is not available now, or null."),
  fixes: z.array(z.object({ code: z.string().nullable(), message: z.string() })).describe("The diagnostics it fixes."),
  has_edit: z.boolean(),
  has_command: z.boolean(),
});

/** `code_actions`: a listing of the fixes and refactorings offered for a range; nothing is applied. */
export const codeActionsTool = defineTool({
  name: "code_actions",
  title: "Code actions",
  description: "Fixes and refactorings for a range or point, with the diagnostics each fixes; never applied.",
  inputSchema: z.strictObject({
    workspace: workspaceArg,
    server: serverArg,
    path: filePathArg,
    range: RangeSchema.optional().describe("Instead of a point."),
    ...positionArgs,
    kinds: z.array(z.string().min(1)).min(1).optional().describe('Only these kinds, e.g. ["quickfix"].'),
    offset: offsetArg,
    limit: limitArg,
    max_bytes: maxBytesArg,
  }),
  outputSchema: z.object({ items: z.array(CodeActionItemSchema), ...pageFields }),
  handler: async (args, context) => {
    const target = await openTarget(context, resolveTarget(context.config, args));
    const { client, synced, file } = target;
    requireCapability(client, CODE_ACTIONS_FEATURE.capability, CODE_ACTIONS_FEATURE.method);
    const options = { deadline: context.deadline, signal: context.signal };
    let range: BridgeRange;
    if (args.range !== undefined) {
      if (args.line !== undefined || args.column !== undefined || args.symbol !== undefined) {
        throw new BridgeError("InvalidArguments", "give `range`, or a point as `line` + `column` or `symbol`, not both", { fields: ["range"] });
      }
      range = args.range;
    } else {
      const { at } = await resolvePosition(target, args, options);
      range = { start: at, end: at };
    }
    const lspRange = synced.lines.rangeToLsp(range, client.positionEncoding);
    const diagnostics = await diagnosticsInRange(target, lspRange, options);
    const actions = await requestCodeActions(client, synced.document.uri, lspRange, diagnostics, args.kinds, options);
    const items = sortCodeActions(actions.filter((action) => matchesKinds(action.kind, args.kinds)).map(toItem));
    const where = `${file.path}:${range.start.line}:${range.start.column}`;
    return boundedPage(items, args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
      structured: { items: page, ...envelope },
      text: [
        `${pageHeading(envelope, "code actions", ` at ${where}`)} (listed only, none applied; * preferred)`,
        ...page.map(
          (item) =>
            `${item.is_preferred ? "* " : "- "}${item.title} [${item.kind ?? "no kind"}]${item.disabled ? ` (disabled: ${item.disabled})` : ""}` +
            item.fixes.map((fix) => `; fixes ${fix.code === null ? "" : `${fix.code} `}${fix.message.split("\n")[0]}`).join(""),
        ),
      ].join("\n"),
    }));
  },
});

// Servers may ignore `only`, so the filter is applied again here: a kind matches itself and its sub-kinds.
function matchesKinds(kind: string | null, kinds: readonly string[] | undefined): boolean {
  if (!kinds) return true;
  return kind !== null && kinds.some((wanted) => kind === wanted || kind.startsWith(`${wanted}.`));
}

function toItem(action: CodeActionSummary): CodeActionItem {
  return {
    title: action.title,
    kind: action.kind,
    is_preferred: action.isPreferred,
    disabled: action.disabledReason,
    fixes: action.diagnostics.map((diagnostic) => ({
      code: diagnostic.code === undefined || diagnostic.code === null ? null : String(diagnostic.code),
      message: typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value,
    })),
    has_edit: action.hasEdit,
    has_command: action.hasCommand,
  };
}
