// An upgrade under a running shared bridge (issue 26): a copy of the package is rebuilt while a
// shared server of its first build serves; the old server keeps starting sessions from what it
// loaded at start, says in its status that the install moved on, and a `serve` of the new build
// gets a server of its own. Each server ends when its last peer leaves.
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startBridge } from "../helpers/bridge.js";
import { REPO } from "../helpers/paths.js";
import { pollUntil } from "../helpers/poll.js";
import { proc } from "../helpers/proc.js";
import { requireBinary } from "../helpers/require-binary.js";
import { leaseOf, SharedRun, sharedFixture, treeOf, waitAttached } from "./helpers/shared.js";

const run = new SharedRun();
let packageCopy: string | undefined;

afterEach(async () => {
  await run.cleanUp();
  if (packageCopy !== undefined) rmSync(packageCopy, { recursive: true, force: true });
  packageCopy = undefined;
});

/** A runnable copy of this package (its build, profiles and bundler; node_modules linked), as an install would be. */
function copyPackage(): string {
  const root = mkdtempSync(join(tmpdir(), "lspmcp-install-"));
  for (const part of ["package.json", "dist/lspmcp", "dist/src", "scripts/bundle.mjs", "config/tool-list.json"])
    cpSync(join(REPO, part), join(root, part), { recursive: true });
  mkdirSync(join(root, "servers"));
  for (const name of readdirSync(join(REPO, "servers")).filter((n) => n.endsWith(".toml"))) cpSync(join(REPO, "servers", name), join(root, "servers", name));
  symlinkSync(join(REPO, "node_modules"), join(root, "node_modules"));
  return root;
}

const buildOf = (root: string): string => (JSON.parse(readFileSync(join(root, "dist/lspmcp/build-id.json"), "utf8")) as { build: string }).build;

/** The shared server's own status, asked with the secret of the lease it was started under. */
async function statusOf(lease: Record<string, any>): Promise<{ server: Record<string, any> }> {
  const response = await fetch(new URL("/lspmcp/status", lease.url), {
    headers: { authorization: `Bearer ${lease.token}` },
    signal: AbortSignal.timeout(5000),
  });
  return (await response.json()) as { server: Record<string, any> };
}

describe("upgrade under a running shared bridge", () => {
  it("the old server keeps starting sessions, reports itself stale, and a serve of the new build gets its own server", async () => {
    requireBinary("flock");
    requireBinary("setsid");
    const fixture = run.use(sharedFixture());
    const install = (packageCopy = copyPackage());
    const bin = join(install, "dist/lspmcp/main.js");
    const firstBuild = buildOf(install);

    const old = await startBridge(fixture.config, {}, { shared: true, bin });
    run.workers.push(old);
    await waitAttached(fixture.leaseDir, old.pid);
    await old.ok("document_symbols", { path: "src/greet.ts" });
    const first = leaseOf(fixture)!;
    expect(first.build).toBe(firstBuild);
    run.seen.push(...treeOf(first.pid));

    // Mid-upgrade the old build's files are gone (npm removes a package before it writes the new
    // one; the bundler empties dist/lspmcp). A new session on the old server needs a supervisor:
    // it runs from the program loaded at start.
    rmSync(join(install, "dist/lspmcp"), { recursive: true });
    const restarted = await old.ok<{ state: string }>("session_restart", { server: "typescript" });
    expect(restarted.state).not.toBe("dead");
    await old.ok("document_symbols", { path: "src/greet.ts" });
    run.seen.push(...treeOf(first.pid));
    expect((await statusOf(first)).server).toMatchObject({ build: firstBuild, stale: true, leaseholder: true });

    // The upgrade completes: a changed build bundled into the install.
    appendFileSync(join(install, "dist/src/cli/main.js"), '\nglobalThis.lspmcpUpgradeTest = "second build";\n');
    execFileSync(process.execPath, [join(install, "scripts/bundle.mjs")], { stdio: "ignore" });
    const secondBuild = buildOf(install);
    expect(secondBuild).not.toBe(firstBuild);
    expect((await statusOf(first)).server).toMatchObject({ build: firstBuild, stale: true, leaseholder: true });
    // `lspmcp status` of the new build reports the old server as stale.
    const text = execFileSync(bin, ["status", "--config", fixture.config], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    expect(text).toContain(`shared server pid ${first.pid}`);
    expect(text).toContain(`build ${firstBuild.slice(0, 12)}`);
    expect(text).toMatch(/^stale: the install now holds another build/m);

    // A serve of the new build never attaches to the old server: it elects one of its own build.
    const fresh = await startBridge(fixture.config, {}, { shared: true, bin });
    run.workers.push(fresh);
    await waitAttached(fixture.leaseDir, fresh.pid);
    await fresh.ok("document_symbols", { path: "src/greet.ts" });
    const second = leaseOf(fixture)!;
    expect(second.pid).not.toBe(first.pid);
    expect(second.build).toBe(secondBuild);
    run.seen.push(...treeOf(second.pid));
    expect((await statusOf(second)).server).toMatchObject({ build: secondBuild, stale: false, leaseholder: true });

    // The old server still serves its peer, now displaced; it ends when that peer leaves.
    await old.ok("document_symbols", { path: "src/greet.ts" });
    expect((await statusOf(first)).server).toMatchObject({ leaseholder: false, stale: true });
    await old.close();
    expect(await pollUntil(() => proc(first.pid) === undefined, 10_000)).toBe(true);
    expect(leaseOf(fixture)!.pid).toBe(second.pid);
    await fresh.ok("document_symbols", { path: "src/greet.ts" });
  });
});
