import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp.js";

export const GOPLS_MODULE = "golang.org/x/tools/gopls";
export const GOPLS_VERSION = "v0.23.0";
/** A newer version beside the pin, as a real proxy has: an install that took `@latest` would get it. */
export const GOPLS_NEWER = "v0.99.0";
const GO_MOD = `module ${GOPLS_MODULE}\n\ngo 1.21\n`;
const mainGo = (version: string) => `package main

import "os"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "version" {
		os.Stdout.WriteString("${GOPLS_MODULE} ${version}\\n")
	}
}
`;

/**
 * A GOPROXY folder (served as GOPROXY=file://...) holding one module in the proxy protocol's
 * layout: stand-ins at gopls's path, at its pin and at a newer version, each printing gopls's
 * `version` line for its own version, built in seconds where gopls itself takes minutes.
 */
export function goplsStandInProxy(): string {
  const proxy = tempDir("lspmcp-goproxy-");
  const at = join(proxy, GOPLS_MODULE, "@v");
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "list"), `${GOPLS_VERSION}\n${GOPLS_NEWER}\n`);
  for (const [version, time] of [
    [GOPLS_VERSION, "2026-01-01T00:00:00Z"],
    [GOPLS_NEWER, "2026-06-01T00:00:00Z"],
  ] as const) {
    writeFileSync(join(at, `${version}.info`), JSON.stringify({ Version: version, Time: time }));
    writeFileSync(join(at, `${version}.mod`), GO_MOD);
    // A module zip holds its files under MODULE@VERSION/.
    const zip = [
      "import sys, zipfile",
      "with zipfile.ZipFile(sys.argv[1], 'w') as z:",
      `    z.writestr('${GOPLS_MODULE}@${version}/go.mod', sys.argv[2])`,
      `    z.writestr('${GOPLS_MODULE}@${version}/main.go', sys.argv[3])`,
    ].join("\n");
    execFileSync("python3", ["-c", zip, join(at, `${version}.zip`), GO_MOD, mainGo(version)]);
  }
  return proxy;
}
