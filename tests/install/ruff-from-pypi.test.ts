// One real install, of the fastest server: ruff's pinned version from PyPI into a virtualenv in a
// tool cache of its own (seconds, not the minutes of gopls or rust-analyzer). The registry is the
// one pip is configured with, as for a user.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { BRIDGE_MAIN } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

test("servers install ruff: the pinned ruff from PyPI, verified, and listed as installed", { timeout: 300_000 }, () => {
  const home = tempDir("lspmcp-ruff-");
  const env = { ...process.env, XDG_CACHE_HOME: home };
  const install = spawnSync(process.execPath, [BRIDGE_MAIN, "servers", "install", "ruff"], { env, encoding: "utf8" });
  expect(install.status, install.stderr).toBe(0);
  expect(install.stderr).toMatch(/ruff 0\.17\.5: installed into .* \(verified: ruff 0\.17\.5\)/);
  const ruff = join(home, "lspmcp/ruff/bin/ruff");
  expect(execFileSync(ruff, ["--version"], { encoding: "utf8" })).toBe("ruff 0.17.5\n");
  const listed = JSON.parse(execFileSync(process.execPath, [BRIDGE_MAIN, "servers", "--format", "json"], { env, encoding: "utf8" })) as {
    servers: { name: string; installed: boolean; where: string }[];
  };
  expect(listed.servers.find((server) => server.name === "ruff")).toMatchObject({ installed: true, where: join(home, "lspmcp/ruff") });
  expect(readdirSync(join(home, "lspmcp")).filter((entry) => entry.includes(".stage-"))).toEqual([]);
  expect(existsSync(join(home, "lspmcp/ruff/.lspmcp-install.json"))).toBe(true);
});
