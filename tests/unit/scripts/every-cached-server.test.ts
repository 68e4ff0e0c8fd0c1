import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { TOOL_CACHE_PREFIX } from "../../../src/config/tool-cache.js";
import { loadShippedServers } from "../../../src/install/shipped-servers.js";
import { REPO } from "../../helpers/paths.js";

test("the helper for tests that start every profile requires exactly every tool-cache server's command", async () => {
  const text = readFileSync(join(REPO, "tests/helpers/every-cached-server.ts"), "utf8");
  const required = [...text.matchAll(/requireCachedTool\("([^"]+)"\)/g)].map((match) => match[1]);
  const commands = (await loadShippedServers(REPO))
    .filter((server) => server.command.startsWith(TOOL_CACHE_PREFIX))
    .map((server) => server.command.slice(TOOL_CACHE_PREFIX.length));
  expect(required.sort()).toEqual(commands.sort());
});
