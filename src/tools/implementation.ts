import { IMPLEMENTATION_FEATURE, requestImplementation } from "../lsp/features/implementation.js";
import { defineLocationTool } from "./location-tool.js";

/** `implementation`: the implementations of an interface, abstract member or method. */
export const implementationTool = defineLocationTool({
  name: "implementation",
  title: "Implementations",
  description: "Implementations of an interface or method.",
  what: "implementations",
  feature: IMPLEMENTATION_FEATURE,
  request: requestImplementation,
});
