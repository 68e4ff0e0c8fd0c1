import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../contract/logger.js";

/** What a request carries to ask for progress (MCP `_meta.progressToken`). */
export type ProgressToken = string | number;

/**
 * Turns a tool's progress callback into MCP `notifications/progress` for one request: only
 * values that grow are sent (progress must increase), and nothing once `end()` was called, so no
 * notification follows the response. Sends go out in call order on the request's own stream.
 */
export class ProgressReporter {
  private last = 0;
  private ended = false;

  constructor(
    private readonly token: ProgressToken,
    private readonly send: (notification: ServerNotification) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  readonly report = (done: number, total: number): void => {
    if (this.ended || done <= this.last) return;
    this.last = done;
    this.send({ method: "notifications/progress", params: { progressToken: this.token, progress: done, total } }).catch((error: unknown) =>
      // A client that went away cannot be told; the call itself still answers or fails.
      this.logger.debug("progress notification not sent", { error: String(error) }),
    );
  };

  /** The call has answered (or failed): later reports are dropped. */
  end(): void {
    this.ended = true;
  }
}
