import { IMPLEMENTATION_FEATURE, requestImplementation } from "../lsp/features/implementation.js";
import { defineLocationTool } from "./location-tool.js";

/** `implementation`: the implementations of an interface, abstract member or method. */
export const implementationTool = defineLocationTool({
  name: "implementation",
  title: "Go to implementations",
  description:
    "The implementations of the interface or method at a 1-based line and column, or named by `symbol` (e.g. the classes implementing an interface), as location items. Paged with offset/limit.",
  what: "implementations",
  feature: IMPLEMENTATION_FEATURE,
  request: requestImplementation,
});
