import type { Deadline } from "../contract/deadline.js";

/** Something a caller may pass to give up on a request early (an MCP cancellation). */
export interface RequestOptions {
  readonly deadline: Deadline;
  readonly signal?: AbortSignal;
}
