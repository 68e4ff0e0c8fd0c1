import { DEFINITION_FEATURE, requestDefinition } from "../lsp/features/definition.js";
import { defineLocationTool } from "./location-tool.js";

/** `definition`: where the symbol at a position (or named by `symbol`) is defined. */
export const definitionTool = defineLocationTool({
  name: "definition",
  title: "Go to definition",
  description:
    "Where the symbol at a 1-based line and column (Unicode code points), or named by `symbol`, is defined: location items with path, range, name range and the line's text. Paged with offset/limit.",
  what: "definitions",
  feature: DEFINITION_FEATURE,
  request: requestDefinition,
});
