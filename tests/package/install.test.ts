// lspmcp as a user gets it: `npm pack`, `npm install -g` into a temp prefix, then the installed
// `lspmcp` with no config in a temp repo. It must find its own pinned servers (its dependencies),
// its profiles and the Maude server inside the install, not in this checkout.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBridge, type Bridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { BROKEN_TS, tempRepo, type TempRepo } from "../helpers/temp-repo.js";

let work: string;
let bin: string;
let installed: string;
let repo: TempRepo;
let bridge: Bridge | undefined;

beforeAll(async () => {
  requireBinary("maude");
  work = realpathSync(mkdtempSync(join(tmpdir(), "lspmcp-pack-")));
  // dist/ is built before the tests run; --ignore-scripts skips prepack's second build.
  const tarball = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work, REPO], { cwd: work, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  // --prefer-offline: the dependencies come from npm's cache, filled by `npm ci`, when they are there.
  execFileSync(
    "npm",
    ["install", "-g", "--prefix", join(work, "prefix"), "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error", join(work, tarball)],
    { cwd: work, stdio: "ignore" },
  );
  bin = join(work, "prefix", "bin", "lspmcp");
  installed = join(work, "prefix", "lib", "node_modules", "lspmcp");
  repo = tempRepo({ "src/app.ts": BROKEN_TS, "spec/broken.maude": readFileSync(join(REPO, "tests/fixtures/maude/recoverable.maude"), "utf8") });
}, 300_000);
afterAll(async () => {
  await bridge?.close();
  repo?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed and installed lspmcp", () => {
  test("--version prints the package version", () => {
    const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    expect(execFileSync(bin, ["--version"], { encoding: "utf8" })).toBe(`lspmcp ${manifest.version}\n`);
  });

  test("serve with no config answers from its own pinned servers and its own Maude server", { timeout: 300_000 }, async () => {
    bridge = await startBridge(null, { TMPDIR: work }, { bin, cwd: join(repo.root, "src") });
    const ts = await bridge!.ok("diagnostics", { path: "src/app.ts" });
    expect(ts.items).toEqual([expect.objectContaining({ code: "2322", severity: "error" })]);
    const maude = await bridge!.ok("diagnostics", { path: "spec/broken.maude" });
    expect(maude.items).toEqual([
      expect.objectContaining({ severity: "warning", range: expect.objectContaining({ start: expect.objectContaining({ line: 6 }) }) }),
    ]);
    const { sessions } = await bridge.ok("session_status");
    expect(sessions.map((session: any) => [session.server, session.reported_version])).toEqual([
      ["typescript", "5.3.0"],
      ["maude", "0.1.0"],
    ]);
    // Each server runs from inside the install, not from this checkout.
    for (const session of sessions) {
      const argv = readFileSync(`/proc/${session.pid}/cmdline`, "utf8").split("\0").join(" ");
      expect(argv, session.server).toContain(installed);
    }
    expect(repo.status()).toBe("");
  });
});
