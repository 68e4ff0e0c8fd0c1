import { requestTypeDefinition, TYPE_DEFINITION_FEATURE } from "../lsp/features/type-definition.js";
import { defineLocationTool } from "./location-tool.js";

/** `type_definition`: where the type of the symbol (a variable's declared type) is defined. */
export const typeDefinitionTool = defineLocationTool({
  name: "type_definition",
  title: "Type definition",
  description: "Where a symbol's type is defined.",
  what: "type definitions",
  feature: TYPE_DEFINITION_FEATURE,
  request: requestTypeDefinition,
});
