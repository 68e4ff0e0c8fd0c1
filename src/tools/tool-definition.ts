import type { z } from "zod";
import { BridgeError } from "../contract/errors.js";
import type { CallContext } from "../targets/call-context.js";

/** A tool's answer: the structured result and a short text rendering of the same content. */
export interface ToolAnswer<O> {
  readonly structured: O;
  readonly text: string;
}

/**
 * One tool as written: `handler` receives the arguments parsed by `inputSchema` (typed, defaults
 * filled in) and returns plain data valid for `outputSchema`, or throws a `BridgeError`. The byte
 * bound is applied inside the handler (see `boundedAnswer`), since only the tool knows how its
 * result shrinks.
 */
export interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject> {
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
  readonly handler: (args: z.output<I>, context: CallContext) => Promise<ToolAnswer<z.output<O>>>;
}

/**
 * One tool of the closed list, its types erased: `call` takes the raw MCP arguments, validates
 * them against `inputSchema` (failures are `InvalidArguments` with the offending field paths) and
 * only then runs the typed handler. The parse and the handler are bound together here, so no
 * caller can hand a handler arguments its schema did not produce.
 */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** MCP's `idempotentHint`: false only for a tool whose second call is not a no-op. */
  readonly idempotent: boolean;
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject;
  call(rawArgs: unknown, context: CallContext): Promise<ToolAnswer<Record<string, unknown>>>;
}

/** Binds a definition's schema to its handler and erases its generic types for the closed list. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): Tool {
  const { name, title, description, inputSchema, outputSchema, handler } = definition;
  return {
    name,
    title,
    description,
    idempotent: definition.idempotent ?? true,
    inputSchema,
    outputSchema,
    async call(rawArgs, context) {
      const parsed = inputSchema.safeParse(rawArgs ?? {});
      if (!parsed.success) throw invalidArguments(name, parsed.error);
      return handler(parsed.data, context);
    },
  };
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
