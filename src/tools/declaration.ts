import { DECLARATION_FEATURE, requestDeclaration } from "../lsp/features/declaration.js";
import { defineLocationTool } from "./location-tool.js";

/** `declaration`: where the symbol is declared (a C prototype in a header, for one). */
export const declarationTool = defineLocationTool({
  name: "declaration",
  title: "Declaration",
  description: "Where a symbol is declared (e.g. a C prototype).",
  what: "declarations",
  feature: DECLARATION_FEATURE,
  request: requestDeclaration,
});
