import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { asBridgeError, type BridgeError } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import { Deadline } from "../contract/deadline.js";
import { toolResultShape } from "../tools/bounded-answer.js";
import type { CallContext } from "../targets/call-context.js";
import type { Tool } from "../tools/index.js";
import { CallScope } from "../contract/call-scope.js";

/** Where a tool call waits for its turn before it runs (the shared server's fair scheduler). */
export interface CallAdmission {
  /**
   * Resolves once the call may run, with a release to call (once) when it is over. Rejects with
   * `Timeout` when the deadline passes or `signal` aborts while the call still waits: a queued
   * call keeps its deadline and can be cancelled like a running one.
   */
  admit(deadline: Deadline, signal: AbortSignal): Promise<() => void>;
}

/**
 * Runs one tool call end to end and never throws: the tool validates its arguments (failures are
 * `InvalidArguments` with the offending field paths), the call waits
 * for its turn at `admission` when there is one (the shared server's fair scheduler), the handler runs
 * under the call's deadline (which the wait counts against), and any failure becomes the
 * CONTRACT §6 error result. Whatever the call held is let go when it ends.
 */
export async function callTool(
  tool: Tool,
  rawArgs: unknown,
  context: Omit<CallContext, "deadline" | "scope">,
  logger: Logger,
  admission?: CallAdmission,
): Promise<CallToolResult> {
  const scope = new CallScope();
  try {
    const deadline = Deadline.in(context.config.bridge.request_timeout_ms);
    if (admission) scope.defer(await admission.admit(deadline, context.signal));
    const answer = await tool.call(rawArgs, { ...context, deadline, scope });
    return toolResultShape(answer);
  } catch (error) {
    const failure = asBridgeError(error);
    if (failure.code === "Internal") logger.error("tool failed", { tool: tool.name, error: String(failure.cause ?? failure) });
    else logger.debug("tool answered an error", { tool: tool.name, code: failure.code });
    return errorResult(failure);
  } finally {
    scope.close();
  }
}

/** The error shape of CONTRACT §6: no structuredContent, one text item holding the JSON payload. */
export function errorResult(error: BridgeError): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(error.toPayload()) }], isError: true };
}
