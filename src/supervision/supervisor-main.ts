/**
 * Entry of the supervisor process: `node supervisor-main.js --supervise --label NAME`, started by
 * spawnSupervised as the leader of a new process group, with the server's stdio on fds 0–2 and the
 * control pipe on fd 3. It never reads or writes fds 0–2 itself: they belong to the server.
 * The literal `--supervise` stays in argv so that people and scripts can tell supervisors apart.
 */
import { Socket } from "node:net";
import { CONTROL_FD } from "./control-channel.js";
import { runSupervisor } from "./supervisor.js";

if (!process.argv.includes("--supervise")) {
  process.stderr.write("supervisor-main: started without --supervise; this is an internal entry point\n");
  process.exit(2);
}
runSupervisor(new Socket({ fd: CONTROL_FD, readable: true, writable: true }));
