import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startBridge, writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { copyFixtureWorkspace, profilesConfig } from "../helpers/workspace.js";

// What the real servers need to give an honest answer: without it, each would read as "clean".
describe("servers that say nothing unless configured", () => {
  test("the CSS server needs `settings.css`: without it the same file reads clean, so the profile sets it", async () => {
    // vscode-css-language-server throws inside validation when workspace/configuration answers
    // `css` with null, and then answers the pull with an empty report: a false clean that the
    // bridge cannot tell from a real one. This pins the quirk the profile's `settings` works around
    // (servers-npm.test.ts shows the same file's finding with the profile as shipped). An entry
    // naming the profile keeps the profile's `css` section whatever it adds, so the server is
    // written by hand here, with no settings at all.
    const root = copyFixtureWorkspace("langs");
    const command = join(REPO, "node_modules", ".bin", "vscode-css-language-server");
    const bridge = await startBridge(
      writeConfig(`
[bridge]
request_timeout_ms = 120000

[[server]]
name = "css"
command = ${JSON.stringify(command)}
args = ["--stdio"]
version = "4.10.0"
version_command = [${JSON.stringify(join(REPO, "servers", "bin", "npm-package-version"))}, "vscode-langservers-extracted"]
languages = [{ id = "css", extensions = [".css"] }]

[[workspace]]
name = "langs"
root = ${JSON.stringify(root)}
servers = ["css"]
`),
    );
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
