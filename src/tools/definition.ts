import { DEFINITION_FEATURE, requestDefinition } from "../lsp/features/definition.js";
import { defineLocationTool } from "./location-tool.js";

/** `definition`: where the symbol at a position (or named by `symbol`) is defined. */
export const definitionTool = defineLocationTool({
  name: "definition",
  title: "Definition",
  description: "Where a symbol is defined.",
  what: "definitions",
  feature: DEFINITION_FEATURE,
  request: requestDefinition,
});
