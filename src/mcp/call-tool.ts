import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { asBridgeError, BridgeError } from "../contract/errors.js";
import type { Logger } from "../contract/logger.js";
import { Deadline } from "../contract/deadline.js";
import { toolResultShape } from "../tools/bounded-answer.js";
import type { ToolContext, ToolDefinition } from "../tools/index.js";

/**
 * Runs one tool call end to end and never throws: the arguments are checked against the tool's
 * input schema (failures are `InvalidArguments` with the offending field paths), the handler
 * runs under the call's deadline, and any failure becomes the CONTRACT §6 error result.
 */
export async function callTool(
  tool: ToolDefinition,
  rawArgs: unknown,
  context: Omit<ToolContext, "deadline">,
  logger: Logger,
): Promise<CallToolResult> {
  try {
    const parsed = tool.inputSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) throw invalidArguments(tool.name, parsed.error);
    const deadline = Deadline.in(context.config.bridge.request_timeout_ms);
    const answer = await tool.handler(parsed.data, { ...context, deadline });
    return toolResultShape(answer) as CallToolResult;
  } catch (error) {
    const failure = asBridgeError(error);
    if (failure.code === "Internal") logger.error("tool failed", { tool: tool.name, error: String(failure.cause ?? failure) });
    else logger.debug("tool answered an error", { tool: tool.name, code: failure.code });
    return errorResult(failure);
  }
}

/** The error shape of CONTRACT §6: no structuredContent, one text item holding the JSON payload. */
export function errorResult(error: BridgeError): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(error.toPayload()) }], isError: true };
}

function invalidArguments(toolName: string, error: z.ZodError): BridgeError {
  const issues = error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    // An unknown key is reported on the key itself, not on the object that holds it.
    const paths = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...at, key]) : [at];
    return paths.map((path) => ({ field: path.join(".") || "(arguments)", message: issue.message }));
  });
  const fields = [...new Set(issues.map((issue) => issue.field))];
  return new BridgeError("InvalidArguments", `invalid arguments for ${toolName}: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`, {
    fields,
    issues,
  });
}
