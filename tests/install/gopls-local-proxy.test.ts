// `servers install gopls` through the real `go install`, from a local Go module proxy (a folder
// served as GOPROXY=file://...): a stand-in module at gopls's path and pin, which builds in
// seconds where gopls itself takes minutes, beside a newer one. It proves the Go path end to end:
// the module proxy the user's environment names, the pinned version (not the newest) built into the
// staging folder, the pin read from `gopls version`. The oracle is the installed binary itself,
// run here: lspmcp's own report of it (its verification, receipt and listing) is held to it.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "vitest";
import { RECEIPT_FILE } from "../../src/install/install-receipt.js";
import { GOPLS_MODULE as MODULE, GOPLS_VERSION as VERSION, goplsStandInProxy } from "../helpers/go-local-proxy.js";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";

test("servers install gopls: go install from the module proxy GOPROXY names, pin verified", { timeout: 600_000 }, () => {
  requireBinary("go");
  const go = execFileSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).trim();
  const home = tempDir("lspmcp-go-");
  const env = { ...process.env, PATH: `${dirname(go)}:/usr/bin:/bin`, XDG_CACHE_HOME: home, GOPROXY: `file://${goplsStandInProxy()}`, GOSUMDB: "off" };
  const install = spawnSync(process.execPath, [BRIDGE_MAIN, "servers", "install", "gopls"], { env, encoding: "utf8" });
  expect(install.status, install.stderr).toBe(0);
  expect(install.stderr).toContain(`gopls: go install ${MODULE}@${VERSION}`);
  // What lspmcp itself read from the installed binary (the profile's version command) and kept in
  // its receipt, and what its listing makes of the tool cache afterwards.
  expect(install.stderr).toContain(`gopls ${VERSION}: installed into ${join(home, "lspmcp/go")}`);
  expect(install.stderr).toContain(`(verified: ${MODULE} ${VERSION})`);
  const receipt = JSON.parse(readFileSync(join(home, "lspmcp/go", RECEIPT_FILE), "utf8"));
  expect(receipt).toMatchObject({ server: "gopls", version: VERSION, reported: `${MODULE} ${VERSION}` });
  // The installed binary, asked itself: the pin, and what lspmcp reported of it.
  const own = execFileSync(join(home, "lspmcp/go/bin/gopls"), ["version"], { encoding: "utf8" });
  expect(own).toBe(`${MODULE} ${VERSION}\n`);
  expect(receipt.reported).toBe(own.trim());
  const listed = spawnSync(process.execPath, [BRIDGE_MAIN, "servers", "--format", "json"], { env, encoding: "utf8" });
  const gopls = (JSON.parse(listed.stdout) as { servers: { name: string; installed: boolean; where: string | null }[] }).servers.find(
    (server) => server.name === "gopls",
  );
  expect(gopls).toMatchObject({ installed: true, where: join(home, "lspmcp/go") });
});
