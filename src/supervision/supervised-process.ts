import type { Readable, Writable } from "node:stream";
import { writeMessage, type SupervisorMessage } from "./control-channel.js";
import { reapTree, signal } from "./kill-tree.js";
import { type ProcessIdentity, readStat } from "./proc-table.js";
import type { BootedSupervisor } from "./supervisor-boot.js";
import { scanTree } from "./tree-scan.js";
import type { ExitInfo, MemoryOverCap, MemorySample, SupervisedServer, SupervisionTimings } from "./types.js";

/** Slack on top of the supervisor's own reap budget before the bridge takes over. */
const SUPERVISOR_SLACK_MS = 300;

/** A booted supervisor that was given its server, and the timings of its reaping. */
interface SupervisedProcessParts extends Omit<BootedSupervisor, "owner"> {
  readonly timings: SupervisionTimings;
}

/**
 * The bridge's handle on one supervised tree (see SupervisedServer). The supervisor does the
 * reaping; this side asks it to, and then checks /proc itself and finishes the job when the
 * supervisor could not (it was SIGKILLed, or is stuck).
 */
export class SupervisedProcess implements SupervisedServer {
  readonly supervisorPid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exited: Promise<ExitInfo>;
  readonly overMemory: Promise<MemoryOverCap>;

  private server: ProcessIdentity | undefined;
  private settleExit!: (info: ExitInfo) => void;
  private settleOverMemory!: (over: MemoryOverCap) => void;
  private supervisorExited = false;
  private controlEnded = false;
  private readonly supervisorGone: Promise<void>;
  private stopping: Promise<void> | undefined;
  private latestMemory: MemorySample | null = null;
  private overCap: MemoryOverCap | undefined;
  private serverExited = false;

  constructor(private readonly parts: SupervisedProcessParts) {
    this.supervisorPid = parts.supervisorId.pid;
    this.stdin = parts.stdin;
    this.stdout = parts.stdout;
    this.stderr = parts.stderr;
    this.exited = new Promise((resolve) => (this.settleExit = resolve));
    this.overMemory = new Promise((resolve) => (this.settleOverMemory = resolve));
    // Writes to a server that is gone must not crash the bridge; the exit is reported via `exited`.
    for (const stream of [parts.stdin, parts.stdout, parts.stderr, parts.control]) stream.on("error", () => {});
    this.supervisorGone = new Promise((resolve) =>
      parts.supervisor.once("exit", () => {
        this.supervisorExited = true;
        resolve();
        this.settleIfSilent();
      }),
    );
  }

  get serverPid(): number {
    return this.server?.pid ?? -1;
  }

  /** Called by spawnSupervised once the supervisor reports the server running. */
  setServer(id: ProcessIdentity): void {
    this.server = id;
  }

  /** One message from the supervisor. */
  onMessage(message: SupervisorMessage): void {
    if (message.type === "memory") this.latestMemory = { rssKiB: message.rssKiB, processes: message.processes, at: Date.now() };
    else if (message.type === "over-memory") {
      this.overCap = { rssKiB: message.rssKiB, capKiB: message.capKiB };
      this.settleOverMemory(this.overCap);
    } else if (message.type === "exited") this.onServerExit({ code: message.code, signal: message.signal });
  }

  memory(): MemorySample | null {
    return this.serverExited ? null : this.latestMemory;
  }

  /** The control pipe closed: the supervisor has gone or is going. */
  onControlEnd(): void {
    this.controlEnded = true;
    this.settleIfSilent();
  }

  cpuTicks(): number | null {
    if (this.serverExited) return null;
    let ticks = 0;
    for (const member of this.scan([this.supervisorPid])) ticks += readStat(member.pid)?.cpuTicks ?? 0;
    return ticks;
  }

  liveProcessCount(): number {
    return this.scan([this.supervisorPid]).length;
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopTree().catch(() => undefined);
    return this.stopping;
  }

  private async stopTree(): Promise<void> {
    const { timings, control, supervisorId } = this.parts;
    if (!this.supervisorExited) {
      writeMessage(control, { type: "stop" });
      const budget = timings.termGraceMs + timings.confirmDeadlineMs + SUPERVISOR_SLACK_MS;
      await Promise.race([this.supervisorGone, new Promise((resolve) => setTimeout(resolve, budget).unref())]);
      if (!this.supervisorExited) signal(supervisorId, "SIGKILL");
    }
    // Whatever is left had its SIGTERM already (or lost its supervisor): SIGKILL at once.
    await reapTree(() => this.scan([]), { termGraceMs: 0, confirmDeadlineMs: timings.confirmDeadlineMs });
    control.destroy();
  }

  private scan(exclude: readonly number[]): ReturnType<typeof scanTree> {
    return scanTree({
      token: this.parts.token,
      roots: this.server ? [this.server] : [],
      exclude,
      sessionId: this.supervisorPid,
      notBefore: this.parts.supervisorId.startTime,
    });
  }

  /**
   * The supervisor is gone and said nothing more: the server cannot outlive it (pdeathsig), so
   * it was killed with it. Its leftovers are reaped from here.
   */
  private settleIfSilent(): void {
    if (!this.supervisorExited || !this.controlEnded) return;
    this.onServerExit({ code: null, signal: "SIGKILL" });
    void this.stop();
  }

  /** The first report of the server's end settles `exited`, with the memory verdict when there was one. */
  private onServerExit(exit: ExitInfo): void {
    this.serverExited = true;
    this.settleExit(this.overCap ? { ...exit, overMemory: this.overCap } : exit);
  }
}
