import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { packageRoot } from "../config/package-root.js";

/**
 * The `tools` of lspmcp's `tools/list` answer, read once: `config/tool-list.json`, which `npm run
 * schema` writes from the tools' zod schemas (tests/unit/mcp/tool-list.test.ts keeps it equal to
 * them). Data, not code: it is computed once at build time instead of in every bridge at start.
 */
export const TOOL_LIST: Tool[] = JSON.parse(readFileSync(join(packageRoot(), "config", "tool-list.json"), "utf8")) as Tool[];
