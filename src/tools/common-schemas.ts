import { z } from "zod";
import { SEVERITY_NAMES } from "../contract/names.js";

/** A 1-based line (CONTRACT §4); every tool that takes a position uses this one schema. */
export const lineArg = z.int().min(1).describe("1-based line number, as an editor shows it.");
/** A 1-based column counted in Unicode code points (CONTRACT §4), not UTF-16 units or bytes. */
export const columnArg = z.int().min(1).describe("1-based column in Unicode code points (a tab or an emoji is one column).");

/** 1-based line and 1-based column in Unicode code points (CONTRACT §4). */
export const PositionSchema = z.object({
  line: lineArg,
  column: columnArg,
});

export const RangeSchema = z.object({ start: PositionSchema, end: PositionSchema });

export const SeveritySchema = z.enum(SEVERITY_NAMES);

/** Default page size of list tools: large enough for most files, small enough to fit the bound. */
export const DEFAULT_LIMIT = 100;
/** Largest page: at the default 32 KiB bound even tiny items stop fitting well before this. */
export const MAX_LIMIT = 1000;
/** Largest offset: far past any real list, small enough to stay an ordinary integer everywhere. */
export const MAX_OFFSET = 1_000_000;

export const workspaceArg = z.string().min(1).optional().describe("Workspace name; optional when only one is configured.");
export const serverArg = z
  .string()
  .min(1)
  .optional()
  .describe("Server name; optional when exactly one server of the workspace claims the file's extension.");
export const pathArg = z.string().min(1).describe("File path relative to the workspace root, or absolute inside it.");
export const offsetArg = z
  .int()
  .min(0)
  .max(MAX_OFFSET)
  .default(0)
  .describe("0-based index of the first item of the page (default 0); the next page starts at offset + returned.");
export const limitArg = z
  .int()
  .min(1)
  .max(MAX_LIMIT)
  .default(DEFAULT_LIMIT)
  .describe(`Most items to return (1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}); a page that does not fit the byte bound fails with ResultTooLarge, whose details say how many fit.`);
export const maxBytesArg = z
  .int()
  .min(1)
  .optional()
  .describe("Per-call ceiling on the result's UTF-8 bytes; never above the configured max_result_bytes (which is also the default).");

/** The paging envelope every list result shares, after its `items`. */
export const pageFields = {
  total: z.number().int(),
  returned: z.number().int(),
  offset: z.number().int(),
};

/**
 * A position as every position tool takes it (CONTRACT §4.1): `line` + `column`, or `symbol`
 * (then `line` only chooses among several symbols of that name). Which combination is given is
 * checked in `resolvePosition`, since JSON Schema cannot say "either" for agents to read.
 */
export const positionArgs = {
  line: z.number().int().min(1).optional().describe("1-based line. With `symbol`, chooses among several symbols of that name."),
  column: z.number().int().min(1).optional().describe("1-based column in Unicode code points. Not together with `symbol`."),
  symbol: z
    .string()
    .min(1)
    .optional()
    .describe('Instead of line + column: a symbol name or dotted name path of this file (e.g. "Widget.area"); its name\'s start is used.'),
};

/** A location item (CONTRACT §4.1). */
export const LocationItemSchema = z.object({
  path: z.string().describe("Relative to the workspace root when in_workspace, else absolute."),
  in_workspace: z.boolean(),
  range: RangeSchema.describe("The whole target."),
  selection_range: RangeSchema.describe("The target's name."),
  text: z.string().nullable().describe("The target's start line (null outside the workspace)."),
});
