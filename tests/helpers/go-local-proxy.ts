import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp.js";

export const GOPLS_MODULE = "golang.org/x/tools/gopls";
export const GOPLS_VERSION = "v0.23.0";
const GO_MOD = `module ${GOPLS_MODULE}\n\ngo 1.21\n`;
const MAIN_GO = `package main

import "os"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "version" {
		os.Stdout.WriteString("${GOPLS_MODULE} ${GOPLS_VERSION}\\n")
	}
}
`;

/**
 * A GOPROXY folder (served as GOPROXY=file://...) holding one module in the proxy protocol's
 * layout: a stand-in at gopls's path and pin that prints gopls's `version` line and builds in
 * seconds, where gopls itself takes minutes.
 */
export function goplsStandInProxy(): string {
  const proxy = tempDir("lspmcp-goproxy-");
  const at = join(proxy, GOPLS_MODULE, "@v");
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "list"), `${GOPLS_VERSION}\n`);
  writeFileSync(join(at, `${GOPLS_VERSION}.info`), JSON.stringify({ Version: GOPLS_VERSION, Time: "2026-01-01T00:00:00Z" }));
  writeFileSync(join(at, `${GOPLS_VERSION}.mod`), GO_MOD);
  // A module zip holds its files under MODULE@VERSION/.
  const zip = [
    "import sys, zipfile",
    "with zipfile.ZipFile(sys.argv[1], 'w') as z:",
    `    z.writestr('${GOPLS_MODULE}@${GOPLS_VERSION}/go.mod', sys.argv[2])`,
    `    z.writestr('${GOPLS_MODULE}@${GOPLS_VERSION}/main.go', sys.argv[3])`,
  ].join("\n");
  execFileSync("python3", ["-c", zip, join(at, `${GOPLS_VERSION}.zip`), GO_MOD, MAIN_GO]);
  return proxy;
}
