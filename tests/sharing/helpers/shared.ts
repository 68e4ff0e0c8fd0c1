// Shared-mode fixtures: a temp config whose lease folder is its own, the lease as the test reads
// it (independently of src/sharing), and the process tree of a shared server from /proc.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Bridge, startBridge, writeConfig } from "../../helpers/bridge.js";
import { REPO } from "../../helpers/paths.js";
import { pollUntil } from "../../helpers/poll.js";
import { allProcs, killLeftovers, proc, type Proc, treeByEnv } from "../../helpers/proc.js";

export const EXAMPLE_APP = join(REPO, "examples/app");

export interface SharedFixture {
  readonly dir: string;
  readonly config: string;
  readonly leaseDir: string;
  remove(): void;
}

/** A config serving examples/app with typescript (and `extra` TOML), its leases in `DIR/leases`. */
export function sharedFixture(options: { linger_ms?: number; lease_dir?: string; extra?: string; root?: string } = {}): SharedFixture {
  const dir = mkdtempSync(join(tmpdir(), "lspmcp-shared-"));
  const leaseDir = options.lease_dir ?? join(dir, "leases");
  const toml = [
    // The calls here test sharing, not how fast a cold tsserver loads: a loaded machine gets its
    // due (the default 30 s deadline, with no retry, failed first calls under load).
    "[bridge]",
    "request_timeout_ms = 120000",
    "",
    "[shared]",
    `lease_dir = ${JSON.stringify(leaseDir)}`,
    `linger_ms = ${options.linger_ms ?? 200}`,
    "",
    "[[server]]",
    'name = "typescript"',
    'profile = "typescript"',
    "",
    "[[workspace]]",
    'name = "app"',
    `root = ${JSON.stringify(options.root ?? EXAMPLE_APP)}`,
    'servers = ["typescript"]',
    options.extra ?? "",
  ].join("\n");
  const config = writeConfig(toml, dir);
  return { dir, config, leaseDir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The lease file of the fixture's config, parsed, or undefined when there is none. */
export function leaseOf(fixture: SharedFixture): Record<string, any> | undefined {
  const name = leaseFileName(fixture);
  if (name === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(join(fixture.leaseDir, name), "utf8"));
  } catch {
    return undefined;
  }
}

/** The lease file's name in the fixture's folder (there is one config per fixture). */
export function leaseFileName(fixture: SharedFixture): string | undefined {
  try {
    return readdirSync(fixture.leaseDir).find((name) => name.endsWith(".lease"));
  } catch {
    return undefined;
  }
}

/**
 * The lease's server's own word (its status, asked with the lease's secret) that the lspmcp
 * process `pid` is attached to it as a peer. An attached `serve` answers `initialize` before it
 * has found or elected the shared server; a test that needs the attachment waits for it here.
 */
export async function waitAttached(leaseDir: string, pid: number, ms = 100_000): Promise<void> {
  const attached = await pollUntil(
    async () => {
      // A lease may be planted, half-written or foreign (the takeover tests): only a server's own answer counts.
      const lease = leaseIn(leaseDir);
      if (lease === undefined) return false;
      // A planted lease's url may not even parse: that throws inside the chain, which ends undefined.
      const status = (await Promise.resolve()
        // A planted server may never answer (the takeover tests): each look is bounded.
        .then(() => fetch(new URL("/lspmcp/status", lease.url), { headers: { authorization: `Bearer ${lease.token}` }, signal: AbortSignal.timeout(1000) }))
        .then((response) => (response.ok ? response.json() : undefined))
        .catch(() => undefined)) as { peers?: { peer_pid: number | null }[] } | undefined;
      return status?.peers?.some((peer) => peer.peer_pid === pid) === true;
    },
    ms,
    20,
  );
  if (attached) return;
  throw new Error(`lspmcp ${pid} did not attach to a shared server within ${ms} ms`);
}

/** The lease folder of a config written with `lease_dir = "leases"` (relative to the config). */
export function leasesBeside(config: string): string {
  return join(dirname(config), "leases");
}

function leaseIn(leaseDir: string): Record<string, any> | undefined {
  try {
    const name = readdirSync(leaseDir).find((n) => n.endsWith(".lease"));
    return name === undefined ? undefined : JSON.parse(readFileSync(join(leaseDir, name), "utf8"));
  } catch {
    return undefined;
  }
}

/** Live `lspmcp shared-server` processes of this config (a fixture, or any `{ config }`). */
export function sharedServers(fixture: { readonly config: string }): Proc[] {
  return allProcs().filter((p) => p.cmdline.includes("shared-server") && p.cmdline.includes(fixture.config));
}

/** A shared server and every process it started (its supervisors carry LSPMCP_OWNER=pid:start). */
export function treeOf(pid: number): Proc[] {
  const root = proc(pid);
  if (!root) return [];
  return treeByEnv("LSPMCP_OWNER", `${root.pid}:${root.startTime}`, [root.pid]);
}

/** The supervisors of `tree`: they reap their language servers when the shared server dies. */
export function supervisors(tree: readonly Proc[]): Proc[] {
  return tree.filter((p) => p.cmdline.includes("--supervise"));
}

/**
 * Processes of `tree` running a TypeScript language server (one per TypeScript session):
 * TypeScript 7's native `tsc --lsp`, or typescript-language-server for a workspace's 5.x or 6.x.
 */
export function tsServers(tree: readonly Proc[]): Proc[] {
  return tree.filter((p) => /typescript-language-server|\/tsc --lsp/.test(p.cmdline) && !p.cmdline.includes("--supervise"));
}

/**
 * One test's shared-mode state: its fixture, the workers it attached and every process it saw.
 * `cleanUp` closes the workers, waits (bounded) for the shared server to end as it should, kills
 * whatever survived, and removes the fixture.
 */
export class SharedRun {
  fixture: SharedFixture | undefined;
  readonly workers: Bridge[] = [];
  readonly seen: Proc[] = [];

  /** Makes `fixture` this test's; returns it. */
  use(fixture: SharedFixture): SharedFixture {
    this.fixture = fixture;
    return fixture;
  }

  /**
   * Starts one `lspmcp serve` (shared) on this test's config; resolves once it is attached, or at
   * once with `{ attached: false }` (a serve that is expected to serve on its own).
   */
  async attach(options: { attached?: boolean } = {}): Promise<Bridge> {
    const worker = await startBridge(this.fixture!.config, {}, { shared: true });
    this.workers.push(worker);
    if (options.attached !== false) await waitAttached(this.fixture!.leaseDir, worker.pid);
    return worker;
  }

  async cleanUp(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close().catch(() => {})));
    this.workers.length = 0;
    const fixture = this.fixture;
    if (fixture) await pollUntil(() => sharedServers(fixture).length === 0, 5000);
    killLeftovers(this.seen);
    this.seen.length = 0;
    fixture?.remove();
    this.fixture = undefined;
  }
}
