import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configJsonSchema, configJsonSchemaText } from "../src/config/json-schema.js";
import { packageRoot } from "../src/config/package-root.js";
import { listedTool } from "../src/mcp/tool-schemas.js";
import { TOOLS } from "../src/tools/index.js";
import { renderKeyTable, spliceKeyTable } from "./config-key-table.js";

// `npm run schema`: regenerates everything derived from the zod schemas: of bridge.toml, so that the
// editor schema and the documented key table can never drift from what the loader accepts; and of
// the tools, whose `tools/list` answer is computed here once instead of in every bridge at start.
const root = packageRoot();
await writeFile(join(root, "config", "bridge.schema.json"), configJsonSchemaText());

const docPath = join(root, "docs", "configuration.md");
const doc = await readFile(docPath, "utf8");
await writeFile(docPath, spliceKeyTable(doc, renderKeyTable(configJsonSchema())));

// Read back by src/mcp/tool-list.ts at start, as data.
await writeFile(join(root, "config", "tool-list.json"), `${JSON.stringify(TOOLS.map(listedTool), null, 2)}\n`);
