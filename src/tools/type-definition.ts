import { requestTypeDefinition, TYPE_DEFINITION_FEATURE } from "../lsp/features/type-definition.js";
import { defineLocationTool } from "./location-tool.js";

/** `type_definition`: where the type of the symbol (a variable's declared type) is defined. */
export const typeDefinitionTool = defineLocationTool({
  name: "type_definition",
  title: "Go to type definition",
  description:
    "Where the type of the symbol at a 1-based line and column, or named by `symbol`, is defined (a variable's type alias or class), as location items. Paged with offset/limit.",
  what: "type definitions",
  feature: TYPE_DEFINITION_FEATURE,
  request: requestTypeDefinition,
});
