import { DECLARATION_FEATURE, requestDeclaration } from "../lsp/features/declaration.js";
import { defineLocationTool } from "./location-tool.js";

/** `declaration`: where the symbol is declared (a C prototype in a header, for one). */
export const declarationTool = defineLocationTool({
  name: "declaration",
  title: "Go to declaration",
  description:
    "Where the symbol at a 1-based line and column, or named by `symbol`, is declared (e.g. a C function's prototype in its header), as location items. Paged with offset/limit.",
  what: "declarations",
  feature: DECLARATION_FEATURE,
  request: requestDeclaration,
});
