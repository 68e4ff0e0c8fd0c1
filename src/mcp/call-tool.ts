import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { asBridgeError, type BridgeError } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import { Deadline } from "../contract/deadline.js";
import { toolResultShape } from "../tools/bounded-answer.js";
import type { Tool, ToolContext } from "../tools/index.js";

/**
 * Runs one tool call end to end and never throws: the tool validates its arguments and runs under
 * the call's deadline, and any failure becomes the CONTRACT §6 error result.
 */
export async function callTool(
  tool: Tool,
  rawArgs: unknown,
  context: Omit<ToolContext, "deadline">,
  logger: Logger,
): Promise<CallToolResult> {
  try {
    const deadline = Deadline.in(context.config.bridge.request_timeout_ms);
    const answer = await tool.call(rawArgs, { ...context, deadline });
    return toolResultShape(answer);
  } catch (error) {
    const failure = asBridgeError(error);
    if (failure.code === "Internal") logger.error("tool failed", { tool: tool.name, error: String(failure.cause ?? failure) });
    else logger.debug("tool answered an error", { tool: tool.name, code: failure.code });
    return errorResult(failure);
  }
}

/** The error shape of CONTRACT §6: no structuredContent, one text item holding the JSON payload. */
export function errorResult(error: BridgeError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(error.toPayload()) }] };
}
