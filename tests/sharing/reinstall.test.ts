// A reinstall of the servers under a running shared bridge (issue 30, "the paths users take"):
// `npm ci` removes node_modules' packages and writes them again, maybe at other versions, while
// a shared server has a TypeScript session running from them. The running session keeps
// answering from what its processes loaded; a start while the packages are gone fails with a
// typed error and leaves nothing running; after the reinstall a restart serves again; a reinstall
// of another version is refused by the pin at the next start, never served.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startBridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { requireBinary } from "../helpers/require-binary.js";
import { tempDir } from "../helpers/temp.js";
import { EXAMPLE_APP, leaseOf, SharedRun, sharedFixture, treeOf, tsServers, waitAttached } from "./helpers/shared.js";

const run = new SharedRun();
afterEach(() => run.cleanUp());

/** The packages the typescript profile runs (TypeScript 7 and its native binary), which the test reinstalls. */
const SERVER_PACKAGES = ["typescript-7", "@typescript"];

/**
 * A runnable copy of this package whose node_modules holds its own copies of the TypeScript
 * server's packages (everything else linked), as an install would be.
 */
function copyPackage(): string {
  const root = tempDir("lspmcp-reinstall-");
  for (const part of ["package.json", "dist/lspmcp", "servers", "config/tool-list.json"]) cpSync(join(REPO, part), join(root, part), { recursive: true });
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  for (const name of readdirSync(join(REPO, "node_modules")).filter((n) => n !== ".bin" && !SERVER_PACKAGES.includes(n))) {
    symlinkSync(join(REPO, "node_modules", name), join(root, "node_modules", name));
  }
  installServers(root);
  return root;
}

/** Writes the server packages into the copy's node_modules, as `npm ci` does after removing them. */
function installServers(root: string): void {
  for (const name of SERVER_PACKAGES) cpSync(join(REPO, "node_modules", name), join(root, "node_modules", name), { recursive: true });
}

function removeServers(root: string): void {
  for (const name of SERVER_PACKAGES) rmSync(join(root, "node_modules", name), { recursive: true, force: true });
}

describe("reinstall under a running shared bridge", () => {
  it("the running session answers on; a start mid-reinstall fails typed and leaks nothing; a restart after serves; another version is refused by the pin", async () => {
    requireBinary("flock");
    requireBinary("setsid");
    // The example app copied out of this checkout, whose own node_modules/typescript would
    // otherwise be the workspace's compiler for a lspmcp installed elsewhere.
    const app = tempDir("lspmcp-reinstall-app-");
    cpSync(EXAMPLE_APP, app, { recursive: true });
    const fixture = run.use(sharedFixture({ root: app }));
    const install = copyPackage();
    const bridge = await startBridge(fixture.config, {}, { shared: true, bin: join(install, "dist/lspmcp/main.js") });
    run.workers.push(bridge);
    await waitAttached(fixture.leaseDir, bridge.pid);
    const outline = JSON.stringify(await bridge.ok("document_symbols", { path: "src/greet.ts" }));
    const server = leaseOf(fixture)!.pid as number;
    run.seen.push(...treeOf(server));
    const running = tsServers(treeOf(server));
    expect(running.length).toBe(1);
    // The session runs from the copy, not from this checkout's node_modules.
    expect(running[0]!.cmdline).toContain(install);

    // Mid-reinstall: the packages are gone. The running session answers from what it loaded.
    removeServers(install);
    expect(JSON.stringify(await bridge.ok("document_symbols", { path: "src/greet.ts" }))).toBe(outline);

    // A start now finds no server: a typed error, the old tree reaped, nothing new left running.
    const missing = await bridge.fail("session_restart", { server: "typescript" });
    expect(missing.code).toBe("ServerStartFailed");
    expect(tsServers(treeOf(server))).toEqual([]);
    const dead = await bridge.fail("document_symbols", { path: "src/greet.ts" });
    expect(dead.code).toBe("SessionDead");

    // The reinstall completes: a restart serves again, with the same answers.
    installServers(install);
    expect((await bridge.ok<{ state: string }>("session_restart", { server: "typescript" })).state).not.toBe("dead");
    expect(JSON.stringify(await bridge.ok("document_symbols", { path: "src/greet.ts" }))).toBe(outline);
    run.seen.push(...treeOf(server));

    // A reinstall of another version: the pin refuses it at the next start; nothing serves it.
    const manifest = join(install, "node_modules/typescript-7/package.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"version": "7.0.2"', '"version": "7.0.3"'));
    const mismatch = await bridge.fail("session_restart", { server: "typescript" });
    expect(mismatch.code).toBe("ServerVersionMismatch");
    expect(mismatch.message).toContain("7.0.2");
    expect(mismatch.message).toContain("7.0.3");
    expect(tsServers(treeOf(server))).toEqual([]);
  });
});
