import { isAlive } from "./proc-table.js";
import { bootSupervisor, type BootedSupervisor } from "./supervisor-boot.js";

/** What a prestarted supervisor's argv says until its session is known (`--label prestarted`). */
const PRESTARTED_LABEL = "prestarted";

let slot: Promise<BootedSupervisor | undefined> | undefined;

/**
 * Starts one supervisor now, for the next `spawnSupervised` to take. Why: a supervisor is a Node
 * process of its own, and its start (tens of ms of CPU, more on a loaded machine) otherwise lies on
 * the path of every first session; started while the bridge itself still loads its modules and
 * config, it is ready by the time the first server is. It runs nothing of any config until it is
 * taken and sent its `start`. At most one waits; a second call does nothing.
 */
export function prestartSupervisor(): void {
  slot ??= bootSupervisor(PRESTARTED_LABEL).then((booted) => ("problem" in booted ? undefined : booted));
}

/** The prestarted supervisor, if one waits and is still alive; the slot is empty after. */
export async function takePrestarted(): Promise<BootedSupervisor | undefined> {
  const waiting = slot;
  slot = undefined;
  const booted = await waiting;
  if (booted === undefined) return undefined;
  // Killed from outside while it waited: the caller starts a fresh one instead. /proc says so
  // before Node has heard of the exit.
  if (booted.supervisor.exitCode !== null || booted.control.destroyed || !isAlive(booted.supervisorId)) {
    await end(booted);
    return undefined;
  }
  return booted;
}

/** Ends a prestarted supervisor nobody took, and resolves once it has exited. */
export async function discardPrestarted(): Promise<void> {
  const waiting = slot;
  slot = undefined;
  const booted = await waiting;
  if (booted !== undefined) await end(booted);
}

// It has no server yet, so it is a tree of one: SIGKILL is the whole reap.
async function end({ supervisor }: BootedSupervisor): Promise<void> {
  if (supervisor.exitCode !== null || supervisor.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => supervisor.once("exit", () => resolve()));
  supervisor.kill("SIGKILL");
  await exited;
}
