// Servers make no network request that a file names: a YAML schema modeline and a JSON `$schema`
// point at a loopback HTTP service (in this test process) that logs every request reaching it and
// answers a schema, or an error whose body a server would echo into its finding. `lspmcp check`
// runs the real yaml-language-server and vscode-json-language-server over those files.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REMOTE_SCHEMA_REFUSAL } from "../../src/lsp/server-requests.js";
import { childOutput } from "../helpers/child-output.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { bridgeEnv } from "../helpers/tool-cache.js";

/** Every request that reached the service: method and path. */
const seen: string[] = [];
const ERROR_BODY = "BODY-OF-THE-SERVICE-ERROR";
let service: Server;
let base: string;

beforeAll(async () => {
  service = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (request.url === "/schema.json") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ type: "object", properties: { port: { type: "integer" } } }));
    } else {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(ERROR_BODY);
    }
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
});

test("a YAML modeline and a JSON $schema naming a loopback URL: nothing reaches it, and the findings say lspmcp refused", async () => {
  const root = tempDir("lspmcp-schemas-");
  writeFileSync(join(root, "a.yaml"), `# yaml-language-server: $schema=${base}/schema.json\nport: "not a number"\n`);
  writeFileSync(join(root, "b.yaml"), `# yaml-language-server: $schema=${base}/error.json\nport: 1\n`);
  writeFileSync(join(root, "c.json"), JSON.stringify({ $schema: `${base}/schema.json`, port: "not a number" }));
  writeFileSync(join(root, "d.json"), JSON.stringify({ $schema: `${base}/error.json`, port: 1 }));
  const config = join(root, "bridge.toml");
  writeFileSync(
    config,
    '[[server]]\nname = "yaml"\nprofile = "yaml"\n\n[[server]]\nname = "json"\nprofile = "json"\n\n[[workspace]]\nname = "w"\nroot = "."\nservers = ["yaml", "json"]\n',
  );
  const child = spawn(process.execPath, [BRIDGE_MAIN, "check", "--config", config, "--format", "json", "--fail-on", "never"], {
    env: { ...bridgeEnv(), XDG_RUNTIME_DIR: tempDir("lspmcp-run-") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { code, stdout, stderr } = await childOutput(child);
  expect(code, stderr).toBe(0);
  expect(seen).toEqual([]);
  expect(stdout).not.toContain(ERROR_BODY);
  const report = JSON.parse(stdout) as { items: { path: string; message: string }[] };
  for (const path of ["a.yaml", "b.yaml", "c.json", "d.json"]) {
    const messages = report.items.filter((item) => item.path === path).map((item) => item.message);
    expect(messages.join("\n"), path).toContain(REMOTE_SCHEMA_REFUSAL);
  }
}, 120_000);
