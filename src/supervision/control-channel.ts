import type { Readable, Writable } from "node:stream";
import type { SupervisionTimings } from "./types.js";

/**
 * The control pipe between the bridge and a supervisor (the supervisor's fd 3): newline-delimited
 * JSON, one message per line. It carries process facts only, never anything the server says.
 * EOF on it means the bridge is gone.
 */

/** The fd of the control pipe in the supervisor. */
export const CONTROL_FD = 3;

/** What to start, sent once as the first message (so the server's env never appears in argv). */
export interface StartMessage {
  readonly type: "start";
  readonly command: string;
  readonly args: readonly string[];
  /** The full environment of the server, token variables included. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly token: string;
  /** `pid:starttime` of the bridge, watched by the supervisor. */
  readonly owner: string;
  readonly timings: SupervisionTimings;
  /** Cap on the tree's resident memory in KiB; null: measured, never ended for it. */
  readonly maxRssKiB: number | null;
}

export type BridgeMessage = StartMessage | { readonly type: "stop" };

export type SupervisorMessage =
  | { readonly type: "started"; readonly serverPid: number; readonly serverStartTime: number; readonly pdeathsig: boolean }
  | { readonly type: "start-failed"; readonly message: string; readonly details: Record<string, unknown> }
  | { readonly type: "exited"; readonly code: number | null; readonly signal: string | null }
  /** The tree's resident memory, sent at start and every `memorySampleMs`. */
  | { readonly type: "memory"; readonly rssKiB: number; readonly processes: number }
  /** The tree passed `maxRssKiB`: sent once, before its reap begins (so before `exited`). */
  | { readonly type: "over-memory"; readonly rssKiB: number; readonly capKiB: number; readonly processes: number }
  | {
      readonly type: "reaped";
      readonly reason: string;
      readonly signalled: number;
      readonly remaining: number;
      readonly elapsedMs: number;
    }
  | { readonly type: "log"; readonly msg: string; readonly fields?: Record<string, unknown> };

/** Writes one message; a closed pipe is not an error here (its other end notices EOF). */
export function writeMessage(stream: Writable, message: BridgeMessage | SupervisorMessage): void {
  if (stream.destroyed || stream.writableEnded) return;
  stream.write(`${JSON.stringify(message)}\n`);
}

/**
 * Calls `onMessage` for every complete line that parses as a JSON object, and `onEnd` once when
 * the stream ends, errors or closes. Lines that do not parse are dropped: the peer is our own
 * code, and a half-written line only happens when it dies, which `onEnd` reports.
 */
export function readMessages<T>(stream: Readable, onMessage: (message: T) => void, onEnd: () => void): void {
  let buffered = "";
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      try {
        const parsed: unknown = JSON.parse(line);
        if (parsed !== null && typeof parsed === "object") onMessage(parsed as T);
      } catch {
        // See above: a torn line is followed by EOF.
      }
    }
  });
  stream.on("end", end);
  stream.on("close", end);
  stream.on("error", end);
}
