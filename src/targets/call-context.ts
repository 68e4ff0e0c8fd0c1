import type { ResolvedConfig } from "../config/types.js";
import type { Deadline } from "../contract/deadline.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import type { CallScope } from "../contract/call-scope.js";

/**
 * What one call (a tool call, or one file of `lspmcp check`) may use: the config, the sessions,
 * its deadline and its cancellation. Nothing of MCP.
 */
export interface CallContext {
  readonly config: ResolvedConfig;
  readonly sessions: SessionRegistry;
  /** Covers everything the call does, session start included. */
  readonly deadline: Deadline;
  /** Aborted when the caller cancels the call. */
  readonly signal: AbortSignal;
  /**
   * Present when the caller asked to hear progress (an MCP `progressToken`): called with work
   * done so far out of `total`, strictly increasing, never after the call has answered.
   */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * A preview of changes (CONTRACT §4.4): the new text of each changed file by absolute path,
   * which the call takes instead of the disk's. The disk is not looked at again: the preview
   * looked just before it changed what the servers see.
   */
  readonly overlay?: ReadonlyMap<string, string>;
  /** What the call holds until it ends; its owner closes it when the call is over. */
  readonly scope: CallScope;
}
