import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { configJsonSchema, configJsonSchemaText } from "../../../src/config/json-schema.js";
import { packageRoot } from "../../../src/config/package-root.js";
import { renderKeyTable, spliceKeyTable } from "../../../scripts/config-key-table.js";

// Both files are derived from the zod schema; when one of these fails, run `npm run schema`. The
// committed bytes came from another process at another time, so these also prove that generation
// is deterministic.
describe("files generated from the zod schema are up to date", () => {
  test("config/bridge.schema.json", async () => {
    const committed = await readFile(join(packageRoot(), "config/bridge.schema.json"), "utf8");
    expect(committed).toBe(configJsonSchemaText());
  });

  test("the key table of docs/configuration.md", async () => {
    const doc = await readFile(join(packageRoot(), "docs/configuration.md"), "utf8");
    expect(doc).toBe(spliceKeyTable(doc, renderKeyTable(configJsonSchema())));
  });
});
