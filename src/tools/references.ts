import { z } from "zod";
import { REFERENCES_FEATURE, requestReferences } from "../lsp/features/references.js";
import { openNavigation } from "../pipeline/open-navigation.js";
import { locationAnswer, locationInputFields, LocationPageSchema } from "./location-tool.js";
import { defineTool } from "./tool-definition.js";

/** `references`: every use of the symbol across the workspace, after the server has loaded it. */
export const referencesTool = defineTool({
  name: "references",
  title: "Find references",
  description:
    "Every reference to the symbol at a 1-based line and column, or named by `symbol`, across the project (the declaration too unless include_declaration is false), as location items. Waits until the server has loaded the project, so the first call is complete. Paged with offset/limit.",
  inputSchema: z.strictObject({
    ...locationInputFields,
    include_declaration: z.boolean().default(true).describe("List the declaration too (default true)."),
  }),
  outputSchema: LocationPageSchema,
  handler: async (args, context) => {
    const opened = await openNavigation(context, args, REFERENCES_FEATURE);
    const options = { deadline: context.deadline, signal: context.signal };
    const targets = await requestReferences(opened.client, opened.synced.document.uri, opened.position.lsp, args.include_declaration, options);
    return locationAnswer(opened, targets, args, context, "references");
  },
});
