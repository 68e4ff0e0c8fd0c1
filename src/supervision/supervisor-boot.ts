import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Duplex, Readable, Writable } from "node:stream";
import { packageRoot } from "../config/package-root.js";
import { LEAN_HEAP_FLAGS } from "../contract/node-flags.js";
import { formatIdentity, identify, type ProcessIdentity } from "./proc-table.js";
import { newSessionToken, treeEnv } from "./server-env.js";

/** The supervisor's fd on which it reads its own program (then closes it). */
const PROGRAM_FD = 4;
/**
 * What `node -e` runs in a supervisor: read the program the bridge sends on fd 4, close the fd (so
 * the server does not inherit it), run it as a CommonJS script with `node -e`'s `require`. The
 * supervisor bundle requires nothing but node: builtins. A script rather than an ES module (a
 * data: URL import): Node's ES module loader is a tenth of a supervisor's start-up CPU.
 */
const PROGRAM_LOADER =
  `const fs=require("node:fs");const source=fs.readFileSync(${PROGRAM_FD},"utf8");fs.closeSync(${PROGRAM_FD});` +
  `try{require("node:vm").runInThisContext("(function(require){"+source+"\\n})",{filename:"lspmcp-supervisor.cjs"})(require)}` +
  `catch(e){process.stderr.write(String(e)+"\\n");process.exit(70)}`;

/**
 * The supervisor's program, read once when this module loads, at the bridge's start: every
 * supervisor runs from this copy, so an upgrade that replaces the install under a running bridge
 * (`npm install -g`, `npm run build`) cannot take it away: a shared bridge would otherwise answer
 * ServerStartFailed to the first session it starts after a rebuild.
 */
const SUPERVISOR_PROGRAM = readSupervisorProgram();

/**
 * A supervisor process that runs and waits on its control pipe for the `start` of its server. Its
 * environment already carries the tree's token and owner, so it is part of that tree from its
 * first instant, and it ends by itself when its control pipe closes (the bridge gone).
 */
export interface BootedSupervisor {
  readonly supervisor: ChildProcess;
  readonly supervisorId: ProcessIdentity;
  readonly control: Duplex;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly token: string;
  readonly owner: string;
}

/** Why a supervisor could not be started: the message, the details of the error, the cause. */
interface BootProblem {
  readonly problem: string;
  readonly details: Record<string, unknown>;
  readonly cause?: unknown;
}

/**
 * Spawns a supervisor under `label` (its argv says `--supervise --label LABEL`, for people and
 * scripts) and hands it its program; returns it without waiting for its Node to start, or why it
 * cannot be started.
 */
export async function bootSupervisor(label: string): Promise<BootedSupervisor | BootProblem> {
  if (SUPERVISOR_PROGRAM === undefined) return { problem: "supervisor entry not built (run `npm run build`)", details: {} };
  const self = identify(process.pid);
  if (self === undefined) return { problem: "cannot read this process's own start time from /proc", details: {} };
  const token = newSessionToken();
  const owner = formatIdentity(self);
  const supervisor = spawn(process.execPath, [...LEAN_HEAP_FLAGS, "-e", PROGRAM_LOADER, "--", "--supervise", "--label", label], {
    // Its own process group, so a Ctrl-C or a group kill aimed at the bridge does not hit the
    // server before the bridge has had its chance at an orderly LSP shutdown.
    detached: true,
    stdio: ["pipe", "pipe", "pipe", "pipe", "pipe"],
    env: { ...(process.env.PATH ? { PATH: process.env.PATH } : {}), ...treeEnv(token, owner) },
    cwd: "/",
  });
  // A spawn that fails for want of resources (EMFILE, EAGAIN, ENOMEM: a machine under load) gives
  // no pid and no stdio, and says why in an 'error' event on the next tick: heard from here on,
  // or it would end the bridge with an uncaught error (exit 1, a stack trace) instead of this
  // session's ServerStartFailed.
  const spawnFailure = new Promise<Error>((resolve) => supervisor.once("error", resolve));
  if (supervisor.pid === undefined) {
    const error = await spawnFailure;
    return {
      problem: `cannot start the supervisor process: ${error.message}`,
      details: { errno: (error as NodeJS.ErrnoException).code ?? null },
      cause: error,
    };
  }
  const control = supervisor.stdio[3] as Duplex;
  const { stdin, stdout, stderr } = supervisor;
  if (!stdin || !stdout || !stderr) {
    supervisor.kill("SIGKILL");
    return { problem: "cannot start the supervisor process: its pipes are missing", details: {} };
  }
  const program = supervisor.stdio[PROGRAM_FD] as Writable;
  // A supervisor that dies before reading it closes the pipe: its start fails later, not here.
  program.on("error", () => {});
  program.end(SUPERVISOR_PROGRAM);
  const supervisorId = identify(supervisor.pid) ?? { pid: supervisor.pid, startTime: -1 };
  return { supervisor, supervisorId, control, stdin, stdout, stderr, token, owner };
}

/**
 * The bundled supervisor (dist/lspmcp/supervisor-main.cjs, one self-contained file), wherever this
 * module runs from: the bundle, tsc's dist/src (whose supervisor-main.js imports its neighbours and
 * cannot run from memory), or src/ under vitest (a plain `node` cannot run TypeScript), so
 * `npm run build` comes first. Undefined when it has not been built.
 */
function readSupervisorProgram(): Buffer | undefined {
  try {
    return readFileSync(join(packageRoot(), "dist", "lspmcp", "supervisor-main.cjs"));
  } catch {
    return undefined;
  }
}
