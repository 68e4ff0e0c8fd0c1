import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startBridge, writeConfig } from "../helpers/bridge.js";
import { copyFixtureWorkspace, profilesConfig } from "../helpers/workspace.js";

// What the real servers need to give an honest answer: without it, each would read as "clean".
describe("servers that say nothing unless configured", () => {
  test("the CSS server needs `settings.css`: without it the same file reads clean, so the profile sets it", async () => {
    // vscode-css-language-server throws inside validation when workspace/configuration answers
    // `css` with null, and then answers the pull with an empty report: a false clean that the
    // bridge cannot tell from a real one. This pins the quirk the profile's `settings` works around
    // (servers-npm.test.ts shows the same file's finding with the profile as shipped).
    const root = copyFixtureWorkspace("langs");
    const bridge = await startBridge(writeConfig(profilesConfig(root, ["css"], { overrides: { css: "settings = {}" } })));
    try {
      expect((await bridge.ok("diagnostics", { path: "styles.css" })).items).toEqual([]);
    } finally {
      await bridge.close();
    }
  });

  test("graphql-lsp without a .graphqlrc fails to start, naming what is missing", async () => {
    const root = copyFixtureWorkspace("langs");
    rmSync(join(root, ".graphqlrc.yml"));
    const bridge = await startBridge(writeConfig(profilesConfig(root, ["graphql"])));
    try {
      const error = await bridge.fail("diagnostics", { path: "menu.graphql" });
      expect(error.code, JSON.stringify(error)).toBe("ServerStartFailed");
      expect(error.details.stderr_tail?.join("\n"), JSON.stringify(error)).toContain("no GraphQL config");
    } finally {
      await bridge.close();
    }
  });
});
