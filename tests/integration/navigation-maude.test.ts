/**
 * The Maude server offers diagnostics and document symbols only: every tool of the read class
 * answers NotSupported there, at once and with the missing capability named, never by trying.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";

let bridge: Bridge;

beforeAll(async () => {
  requireBinary("maude");
  bridge = await startBridge(
    writeConfig(`
[[server]]
name = "maude"
profile = "maude"

[[workspace]]
name = "fixtures"
root = ${JSON.stringify(`${REPO}/tests/fixtures/maude`)}
servers = ["maude"]
`),
  );
});
afterAll(async () => bridge?.close());

describe("the read class on the Maude server", () => {
  const point = { path: "clean.maude", line: 1, column: 1 };
  test.each([
    ["definition", {}, "definitionProvider"],
    ["declaration", {}, "declarationProvider"],
    ["type_definition", {}, "typeDefinitionProvider"],
    ["implementation", {}, "implementationProvider"],
    ["references", {}, "referencesProvider"],
    ["call_hierarchy", { direction: "incoming" }, "callHierarchyProvider"],
    ["code_actions", {}, "codeActionProvider"],
    ["rename_preview", { new_name: "X" }, "renameProvider"],
  ])("%s is NotSupported", async (tool, extra, capability) => {
    const error = await bridge.fail(tool, { ...point, ...extra });
    expect(error).toMatchObject({ code: "NotSupported", details: { capability } });
  });
});
