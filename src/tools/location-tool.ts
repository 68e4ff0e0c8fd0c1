import type { Position } from "vscode-languageserver-protocol";
import { z } from "zod";
import { sortLocations, type LocationItem } from "../contract/location-order.js";
import type { BridgePosition } from "../contract/positions.js";
import type { TargetLocation } from "../lsp/features/location-answer.js";
import type { LspClient, RequestOptions } from "../lsp/lsp-client.js";
import { openNavigation, type NavigationFeature, type OpenNavigation } from "../navigation/open-navigation.js";
import { boundedPage, limitBytes, pageHeading } from "./bounded-answer.js";
import { limitArg, LocationItemSchema, maxBytesArg, offsetArg, pageFields, filePathArg, positionArgs, serverArg, workspaceArg } from "./common-schemas.js";
import type { CallContext } from "../targets/call-context.js";
import { defineTool, type Tool, type ToolAnswer } from "./tool-definition.js";

/** The arguments every location tool takes. */
export const locationInputFields = {
  workspace: workspaceArg,
  server: serverArg,
  path: filePathArg,
  ...positionArgs,
  offset: offsetArg,
  limit: limitArg,
  max_bytes: maxBytesArg,
};

/** The result of every location tool: a page of location items. */
export const LocationPageSchema = z.object({ items: z.array(LocationItemSchema), ...pageFields });

type LocationPage = z.output<typeof LocationPageSchema>;

/**
 * Converts a server's targets into the canonical, paged, byte-bounded answer: each target's
 * columns from its own file's text, duplicates dropped, in-workspace first.
 */
export async function locationAnswer(
  opened: OpenNavigation,
  targets: readonly TargetLocation[],
  args: { symbol?: string | undefined; offset: number; limit: number; max_bytes?: number | undefined },
  context: CallContext,
  what: string,
  preposition = "of",
): Promise<ToolAnswer<LocationPage>> {
  const items = sortLocations(await Promise.all(targets.map((t) => opened.texts.locationItem(t.uri, t.range, t.selectionRange))));
  const { at } = opened.position;
  return boundedPage(items, args, limitBytes(context.config, args.max_bytes), (page, envelope) => ({
    structured: { items: page, ...envelope },
    text: renderLocations(pageHeading(envelope, what, positionAbout(args.symbol, opened.file.path, at, preposition)), page),
  }));
}

/** What a position tool's answer is about: " of NAME at path:line:column", or " at path:line:column". */
export function positionAbout(symbol: string | undefined, path: string, at: BridgePosition, preposition = "of"): string {
  return `${symbol === undefined ? "" : ` ${preposition} ${symbol}`} at ${path}:${at.line}:${at.column}`;
}

/** A heading, then one line per item: `path:line:column  text`. */
function renderLocations(heading: string, items: readonly LocationItem[]): string {
  const lines = items.map(
    (item) => `${item.path}:${item.selection_range.start.line}:${item.selection_range.start.column}${item.text === null ? "" : `  ${item.text.trim()}`}`,
  );
  return [heading, ...lines].join("\n");
}

/** What distinguishes `definition`, `declaration`, `type_definition` and `implementation`. */
interface LocationToolSpec {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Plural noun for the text rendering, e.g. "definitions". */
  readonly what: string;
  readonly feature: NavigationFeature;
  readonly request: (client: LspClient, uri: string, position: Position, options: RequestOptions) => Promise<TargetLocation[]>;
}

/** A navigation tool that asks one LSP request at a position and lists its targets. */
export function defineLocationTool(spec: LocationToolSpec): Tool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: z.strictObject(locationInputFields),
    outputSchema: LocationPageSchema,
    handler: async (args, context) => {
      const opened = await openNavigation(context, args, spec.feature);
      const options = { deadline: context.deadline, signal: context.signal };
      const targets = await spec.request(opened.client, opened.synced.document.uri, opened.position.lsp, options);
      return locationAnswer(opened, targets, args, context, spec.what);
    },
  });
}
