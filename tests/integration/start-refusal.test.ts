import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Bridge, startBridge, writeConfig } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { copyFixtureWorkspace } from "../helpers/workspace.js";

// A server that writes its reason to stderr and exits at once can end before the supervisor has
// confirmed its start (a start-failed from the supervisor) or just after (an exit during
// initialize). Either way the reason is in `stderr_tail` (the graphql-lsp wrapper's "no GraphQL
// config" was once lost: the stderr was followed only after a confirmed start). Eight servers, so
// that both orders occur.
const REFUSE = join(REPO, "tests/fixtures/servers/refuse-at-start.sh");
const COUNT = 8;
let bridge: Bridge;

beforeAll(async () => {
  const root = copyFixtureWorkspace("poly");
  const names = Array.from({ length: COUNT }, (_, index) => `refuse${index}`);
  const servers = names.map(
    (name, index) => `
[[server]]
name = "${name}"
command = ${JSON.stringify(REFUSE)}
version = "1.0.0"
languages = [{ id = "fake", extensions = [".r${index}"] }]
`,
  );
  for (let index = 0; index < COUNT; index++) writeFileSync(join(root, `a.r${index}`), "x\n");
  bridge = await startBridge(
    writeConfig(`
[bridge]
max_sessions = ${COUNT}
${servers.join("")}
[[workspace]]
name = "poly"
root = ${JSON.stringify(root)}
servers = ${JSON.stringify(names)}
`),
  );
});
afterAll(async () => bridge?.close());

test("a server that refuses at once: ServerStartFailed with its own words in stderr_tail, every time", async () => {
  const errors = await Promise.all(Array.from({ length: COUNT }, (_, index) => bridge.fail("document_symbols", { path: `a.r${index}` })));
  for (const error of errors) {
    expect(error.code, JSON.stringify(error)).toBe("ServerStartFailed");
    expect(error.details.stderr_tail, JSON.stringify(error)).toEqual([expect.stringMatching(/^refusing: no config in /)]);
  }
});
