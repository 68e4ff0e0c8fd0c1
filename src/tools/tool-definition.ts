import type { z } from "zod";
import type { CallContext } from "../pipeline/call-context.js";

/** What a tool handler may use: nothing of MCP, only the bridge's own layers. */
export type ToolContext = CallContext;

/** A tool's answer: the structured result and a short text rendering of the same content. */
export interface ToolAnswer<O> {
  readonly structured: O;
  readonly text: string;
}

/**
 * One tool of the closed list. `handler` receives arguments already validated by
 * `inputSchema` and returns plain data valid for `outputSchema`, or throws a `BridgeError`.
 * The byte bound is applied inside the handler (see `boundedAnswer`), since only the tool knows
 * how its result shrinks.
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /**
   * Whether calling twice with the same arguments has the effect of calling once (MCP's
   * `idempotentHint`). Default true; every tool only reads, but `session_restart` restarts each time.
   */
  readonly idempotent?: boolean;
  readonly inputSchema: I;
  readonly outputSchema: O;
  readonly handler: (args: z.output<I>, context: ToolContext) => Promise<ToolAnswer<z.output<O>>>;
}

/** Keeps the generic types of one definition while it joins the closed list. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return definition;
}
