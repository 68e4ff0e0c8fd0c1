import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { CachedInstallSource } from "../config/install-schema.js";
import { acquireLock, type HeldLock, LockTimedOut } from "../sharing/lease-lock.js";
import { readReceipt, writeReceipt } from "./install-receipt.js";
import type { InstallProgress } from "./install-progress.js";
import { installSteps } from "../config/install-recipes.js";
import { checkPin } from "./reported-version.js";
import { runStep } from "./run-step.js";
import { serverState, type StateContext } from "./server-state.js";
import type { ShippedServer } from "./shipped-servers.js";

/** How long a second install waits for the first one's lock: longer than rust-analyzer's build. */
const LOCK_WAIT_MS = 2 * 60 * 60 * 1000;

/** One server to install into the tool cache. */
interface InstallRequest {
  readonly server: ShippedServer;
  readonly source: CachedInstallSource;
  /** Its folder in the tool cache ("go" for `{cache}/go/bin/gopls`). */
  readonly folder: string;
  /** The tool cache itself. */
  readonly cache: string;
  readonly context: StateContext;
  readonly progress: InstallProgress;
  /** Aborted on SIGINT/SIGTERM: the running step (or the wait for the lock) ends and the staging folder is removed. */
  readonly signal: AbortSignal;
  /** Whether stderr is a terminal, where a long build may draw its own progress. */
  readonly terminal: boolean;
}

type InstallOutcome =
  | { readonly kind: "installed"; readonly where: string; readonly reported: string; readonly ms: number }
  | { readonly kind: "already"; readonly where: string }
  | { readonly kind: "failed"; readonly message: string; readonly tail: readonly string[] };

/**
 * Installs the pinned version of one server into `{cache}/FOLDER`, or finds it there. It holds
 * the folder's lock throughout (a second install waits, saying so, then finds it installed); it
 * builds into a staging folder beside, verifies the pin there with the profile's own version
 * command, writes the receipt, and only then renames it into place. So an install that is
 * interrupted, fails or installs another version leaves the old state as it was, and nothing in
 * the final folder that passes for installed. Never rejects for a failed install.
 */
export async function installServer(request: InstallRequest): Promise<InstallOutcome> {
  const { server, cache, folder, progress } = request;
  await mkdir(cache, { recursive: true });
  let lock: HeldLock;
  try {
    lock = await takeLock(join(cache, `.${folder}.lock`), server.name, progress, request.signal);
  } catch (error) {
    if (request.signal.aborted) return { kind: "failed", message: "interrupted while waiting for the other install", tail: [] };
    throw error;
  }
  try {
    const state = await serverState(server, request.context);
    if (state.installed) {
      await receiptForEarlierInstall(request, state.where);
      return { kind: "already", where: state.where };
    }
    return await installLocked(request);
  } finally {
    await lock.release();
  }
}

/**
 * An install of the pinned version that has no receipt (the earlier setup script made those) gets
 * one, so that `lspmcp servers` need not run its version command again.
 */
async function receiptForEarlierInstall(request: InstallRequest, where: string): Promise<void> {
  if ((await readReceipt(where)) !== null) return;
  const { server, folder, context } = request;
  const pin = await checkPin(server.versionCommand ?? [], folder, where, server.version, context.searchPath);
  if (pin.ok) await writeReceipt(where, { server: server.name, version: server.version, reported: pin.reported, installed_at: new Date().toISOString() });
}

/** The folder's lock: at once when it is free, else after saying that another install holds it. */
async function takeLock(path: string, name: string, progress: InstallProgress, signal: AbortSignal): Promise<HeldLock> {
  try {
    return await acquireLock(path, Date.now(), signal);
  } catch (error) {
    if (!(error instanceof LockTimedOut)) throw error;
    progress.line(`${name}: another lspmcp is installing it; waiting for it to finish`);
    return acquireLock(path, Date.now() + LOCK_WAIT_MS, signal);
  }
}

async function installLocked(request: InstallRequest): Promise<InstallOutcome> {
  const { server, source, cache, folder, progress, signal } = request;
  const started = Date.now();
  // Under the lock no other install runs: a staging folder left here is from one that was killed.
  for (const entry of await readdir(cache)) {
    if (entry.startsWith(`.${folder}.stage-`) || entry.startsWith(`.${folder}.old-`)) await rm(join(cache, entry), { recursive: true, force: true });
  }
  const stage = join(cache, `.${folder}.stage-${process.pid}`);
  const final = join(cache, folder);
  await mkdir(stage);
  try {
    for (const step of installSteps(source, server.version, stage, cache)) {
      progress.step(server.name, step.label, step.ownProgress);
      const result = await runStep(step, signal, step.ownProgress && request.terminal);
      if (!result.ok) return { kind: "failed", message: result.message, tail: result.tail };
    }
    progress.step(server.name, "verifying the pin", false);
    const pin = await checkPin(server.versionCommand ?? [], folder, stage, server.version, request.context.searchPath);
    if (!pin.ok) return { kind: "failed", message: `installed, but ${pin.message}`, tail: [] };
    await writeReceipt(stage, { server: server.name, version: server.version, reported: pin.reported, installed_at: new Date().toISOString() });
    const old = join(cache, `.${folder}.old-${process.pid}`);
    await rename(final, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    await rename(stage, final);
    await rm(old, { recursive: true, force: true });
    return { kind: "installed", where: final, reported: pin.reported, ms: Date.now() - started };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
