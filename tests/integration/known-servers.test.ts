import { readdirSync, readlinkSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, writeConfig, type Bridge } from "../helpers/bridge.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { logLines, runCheckCli } from "../check/helpers/cli.js";
import { writeFileSync } from "node:fs";

// A hand-written entry of a server lspmcp knows, with no profile and no adapter key, is started
// with its own server's adapter: ccls (Debian's 0.20220729-2) names itself "ccls" in its
// serverInfo and prints "Debian ccls version …" for --version.
requireBinary("ccls");

const entry = (extra: string, root: string) =>
  writeConfig(`
[[server]]
name = "c"
command = "ccls"
version = "0.20220729-2"
languages = [ { id = "c", extensions = [".c"] } ]
${extra}
[[workspace]]
name = "w"
root = ${JSON.stringify(root)}
servers = ["c"]
`);

function workspace(): string {
  const root = tempDir();
  writeFileSync(join(root, "a.c"), "int main(void) { return x; }\n");
  return root;
}

async function recognitions(config: string, root: string) {
  const run = await runCheckCli(["--config", config, "--format", "json"], { cwd: root, env: { LSPMCP_LOG: "json", LSPMCP_LOG_LEVEL: "info" } });
  expect(run.code, run.stderr).toBe(1);
  const report = JSON.parse(run.stdout) as { items: { path: string; code: string; message: string }[] };
  expect(report.items.map((item) => `${item.path} ${item.message}`)).toEqual(["a.c use of undeclared identifier 'x'"]);
  return logLines(run.stderr, "server recognised").map(({ server, adapter, by }) => ({ server, adapter, by }));
}

describe("a hand-written ccls entry gets ccls's adapter", () => {
  test("known by its serverInfo: the session starts it again with its own adapter", async () => {
    const root = workspace();
    expect(await recognitions(entry("", root), root)).toEqual([{ server: "ccls", adapter: "ccls", by: "serverInfo" }]);
  }, 120_000);

  test("known by its version output before it starts: started once, with its own adapter", async () => {
    const root = workspace();
    expect(await recognitions(entry('version_command = ["ccls", "--version"]', root), root)).toEqual([
      { server: "ccls", adapter: "ccls", by: "version output" },
    ]);
  }, 120_000);

  test("an adapter key in the entry wins: nothing is recognised", async () => {
    const root = workspace();
    expect(await recognitions(entry('adapter = "standard"', root), root)).toEqual([]);
  }, 120_000);

  describe("served", () => {
    let bridge: Bridge;
    let root: string;
    beforeAll(async () => {
      root = workspace();
      bridge = await startBridge(entry("", root));
    });
    afterAll(async () => bridge?.close());

    test("the first start's server is gone; the session counts no restart and answers", async () => {
      const answer = await bridge.ok("diagnostics", { path: "a.c" });
      expect(answer.items.map((item: { message: string }) => item.message)).toEqual(["use of undeclared identifier 'x'"]);
      const [status] = (await bridge.ok("session_status")).sessions;
      expect(status).toMatchObject({ state: "ready", restarts: 0 });
      // Every ccls running in this workspace: the session's own alone.
      const inRoot = readdirSync("/proc")
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "ccls" && readlinkSync(`/proc/${pid}/cwd`) === root;
          } catch {
            return false;
          }
        });
      expect(inRoot.map(Number)).toEqual([status.pid]);
    }, 120_000);
  });
});
