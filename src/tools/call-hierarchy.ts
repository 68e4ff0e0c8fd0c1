import { z } from "zod";
import type { CallHierarchyItem } from "vscode-languageserver-protocol";
import { sortCallItems, type CallItem } from "../contract/location-order.js";
import { symbolKindName } from "../contract/names.js";
import { CALL_HIERARCHY_FEATURE, requestCallHierarchy } from "../lsp/features/call-hierarchy.js";
import { openNavigation } from "../navigation/open-navigation.js";
import type { TargetTexts } from "../navigation/target-texts.js";
import { boundedPage, limitBytes, pageHeading } from "./bounded-answer.js";
import { LocationItemSchema, pageFields, RangeSchema } from "./common-schemas.js";
import { locationInputFields, positionAbout } from "./location-tool.js";
import { defineTool } from "./tool-definition.js";

const CallSymbolSchema = z.object({ name: z.string(), kind: z.string(), detail: z.string().nullable(), ...LocationItemSchema.shape });
const CallItemSchema = CallSymbolSchema.extend({ call_sites: z.array(RangeSchema) });

/** `call_hierarchy`: one level of callers (incoming) or callees (outgoing) with their call sites. */
export const callHierarchyTool = defineTool({
  name: "call_hierarchy",
  title: "Call hierarchy",
  description: "Callers (incoming) or callees (outgoing) of a function, one level, with call sites.",
  inputSchema: z.strictObject({
    ...locationInputFields,
    direction: z.enum(["incoming", "outgoing"]).default("incoming").describe("Callers (incoming) or callees."),
  }),
  outputSchema: z.object({ symbol: CallSymbolSchema.nullable(), items: z.array(CallItemSchema), ...pageFields }),
  handler: async (args, context) => {
    const opened = await openNavigation(context, args, CALL_HIERARCHY_FEATURE);
    const options = { deadline: context.deadline, signal: context.signal };
    const answer = await requestCallHierarchy(opened.client, opened.synced.document.uri, opened.position.lsp, args.direction, options);
    const symbol = answer.symbol ? await callSymbol(opened.texts, answer.symbol) : null;
    // Incoming call sites lie in the caller's file; outgoing ones in the symbol's own file.
    const calls = await Promise.all(
      answer.calls.map(async (call): Promise<CallItem> => {
        const sitesUri = args.direction === "incoming" ? call.item.uri : answer.symbol!.uri;
        const call_sites = await Promise.all(call.callSites.map((site) => opened.texts.range(sitesUri, site)));
        return { ...(await callSymbol(opened.texts, call.item)), call_sites };
      }),
    );
    const { at } = opened.position;
    return boundedPage(sortCallItems(calls), args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
      structured: { symbol, items: page, ...envelope },
      text: [
        pageHeading(envelope, args.direction === "incoming" ? "callers" : "callees", positionAbout(symbol?.name, opened.file.path, at)) +
          (symbol ? "" : " (no function there)"),
        ...page.map(
          (item) =>
            `${item.kind} ${item.name}  ${item.path}:${item.selection_range.start.line}:${item.selection_range.start.column}  calls at ${item.call_sites.map((s) => `${s.start.line}:${s.start.column}`).join(", ")}`,
        ),
      ].join("\n"),
    }));
  },
});

async function callSymbol(texts: TargetTexts, item: CallHierarchyItem) {
  const location = await texts.locationItem(item.uri, item.range, item.selectionRange);
  return { name: item.name, kind: symbolKindName(item.kind), detail: item.detail ?? null, ...location };
}
