import { z } from "zod";
import { REFERENCES_FEATURE, requestReferences } from "../lsp/features/references.js";
import { openNavigation } from "../navigation/open-navigation.js";
import { locationAnswer, locationInputFields, LocationPageSchema } from "./location-tool.js";
import { defineTool } from "./tool-definition.js";

/** `references`: every use of the symbol across the workspace, after the server has loaded it. */
export const referencesTool = defineTool({
  name: "references",
  title: "References",
  description: "Every reference to a symbol in the project.",
  inputSchema: z.strictObject({
    ...locationInputFields,
    include_declaration: z.boolean().default(true).describe("List the declaration too."),
  }),
  outputSchema: LocationPageSchema,
  handler: async (args, context) => {
    const opened = await openNavigation(context, args, REFERENCES_FEATURE);
    const options = { deadline: context.deadline, signal: context.signal };
    const targets = await requestReferences(opened.client, opened.synced.document.uri, opened.position.lsp, args.include_declaration, options);
    return locationAnswer(opened, targets, args, context, "references", "to");
  },
});
