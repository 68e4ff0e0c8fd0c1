// `servers install gopls` through the real `go install`, from a local Go module proxy (a folder
// served as GOPROXY=file://...): a stand-in module at gopls's path and pin, which builds in
// seconds where gopls itself takes minutes. It proves the Go path end to end: the module proxy the
// user's environment names, the binary into the staging folder, the pin read from `gopls version`.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "vitest";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";

const MODULE = "golang.org/x/tools/gopls";
const VERSION = "v0.23.0";
const GO_MOD = `module ${MODULE}\n\ngo 1.21\n`;
const MAIN_GO = `package main

import "os"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "version" {
		os.Stdout.WriteString("${MODULE} ${VERSION}\\n")
	}
}
`;

/** A GOPROXY folder holding one version of one module, in the proxy protocol's layout. */
function localProxy(): string {
  const proxy = tempDir("lspmcp-goproxy-");
  const at = join(proxy, MODULE, "@v");
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "list"), `${VERSION}\n`);
  writeFileSync(join(at, `${VERSION}.info`), JSON.stringify({ Version: VERSION, Time: "2026-01-01T00:00:00Z" }));
  writeFileSync(join(at, `${VERSION}.mod`), GO_MOD);
  // A module zip holds its files under MODULE@VERSION/.
  const zip = [
    "import sys, zipfile",
    "with zipfile.ZipFile(sys.argv[1], 'w') as z:",
    `    z.writestr('${MODULE}@${VERSION}/go.mod', sys.argv[2])`,
    `    z.writestr('${MODULE}@${VERSION}/main.go', sys.argv[3])`,
  ].join("\n");
  execFileSync("python3", ["-c", zip, join(at, `${VERSION}.zip`), GO_MOD, MAIN_GO]);
  return proxy;
}

test("servers install gopls: go install from the module proxy GOPROXY names, pin verified", { timeout: 600_000 }, () => {
  requireBinary("go");
  const go = execFileSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).trim();
  const home = tempDir("lspmcp-go-");
  const env = { ...process.env, PATH: `${dirname(go)}:/usr/bin:/bin`, XDG_CACHE_HOME: home, GOPROXY: `file://${localProxy()}`, GOSUMDB: "off" };
  const install = spawnSync(process.execPath, [BRIDGE_MAIN, "servers", "install", "gopls"], { env, encoding: "utf8" });
  expect(install.status, install.stderr).toBe(0);
  expect(install.stderr).toContain(`gopls: go install ${MODULE}@${VERSION}`);
  expect(install.stderr).toContain(`gopls ${VERSION}: installed into ${join(home, "lspmcp/go")}`);
  expect(execFileSync(join(home, "lspmcp/go/bin/gopls"), ["version"], { encoding: "utf8" })).toBe(`${MODULE} ${VERSION}\n`);
});
