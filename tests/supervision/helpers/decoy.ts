// A decoy: the very command line of the fake server's daemon (it ignores SIGTERM too), started by
// the test itself, outside any supervised tree. Every gate asserts that it survives.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { FAKE_DAEMON } from "../../helpers/paths.js";
import { proc, type Proc } from "../../helpers/proc.js";
import type { SweepUser } from "./sweep-user.js";

export interface Decoy {
  readonly proc: Proc;
  kill(): void;
}

/** Starts the decoy; as `user` when given (the sweep gates' own uid, whose sweeps it must survive). */
export async function startDecoy(user?: SweepUser): Promise<Decoy> {
  const child = spawn(process.execPath, [FAKE_DAEMON], {
    detached: true,
    stdio: ["ignore", "ignore", "ignore", "ipc"],
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  });
  await once(child, "message");
  child.disconnect();
  child.unref();
  const p = proc(child.pid!);
  if (!p) throw new Error("decoy did not start");
  return { proc: p, kill: () => child.kill("SIGKILL") };
}
