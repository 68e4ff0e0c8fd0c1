import { z } from "zod";
import { SEVERITY_NAMES } from "../contract/names.js";

// Descriptions here are read by a model in every conversation (CONTRACT §4, a lean tool list):
// each says what the argument is in as few words as it takes, and nothing a default or a bound
// of the schema already says.

/** A whole number from `min` on (counts, sizes, 1-based positions); its JSON Schema states just that bound. */
export function wholeNumber(min: 0 | 1) {
  return z.int().min(min);
}

/** 1-based line and 1-based column in Unicode code points (CONTRACT §4). */
export const PositionSchema = z.object({ line: wholeNumber(1), column: wholeNumber(1) });

export const RangeSchema = z.object({ start: PositionSchema, end: PositionSchema });

export const SeveritySchema = z.enum(SEVERITY_NAMES);

/** Default page size of list tools: large enough for most files, small enough to fit the bound. */
const DEFAULT_LIMIT = 100;
/** Largest page: at the default 32 KiB bound even tiny items stop fitting well before this. */
const MAX_LIMIT = 1000;

export const workspaceArg = z.string().optional().describe("Workspace name.");
export const serverArg = z.string().optional().describe("Server name.");
/**
 * A file or folder path, undescribed: each use says what it points at. An empty one is refused
 * where paths are resolved (`resolveFile`), so the schema need not say it.
 */
export const pathArg = z.string();
export const filePathArg = pathArg.describe("File path in the workspace.");
export const offsetArg = wholeNumber(0).default(0).describe("Page start.");
export const limitArg = wholeNumber(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).describe("Page size.");
export const maxBytesArg = wholeNumber(1).optional().describe("Result byte cap.");

/** The paging envelope every list result shares, after its `items`. */
export const pageFields = {
  total: wholeNumber(0),
  returned: wholeNumber(0),
  offset: wholeNumber(0),
};

/**
 * A position as every position tool takes it (CONTRACT §4.1): `line` + `column`, or `symbol`
 * (then `line` only chooses among several things of that name). Which combination is given is
 * checked in `resolvePosition`, since JSON Schema cannot say "either" for agents to read.
 */
export const positionArgs = {
  line: wholeNumber(1).optional().describe("1-based line."),
  column: wholeNumber(1).optional().describe("1-based column (code points)."),
  symbol: z.string().optional().describe("Instead of column: a name in the file, or A.b; line narrows."),
};

/** A location item (CONTRACT §4.1). */
export const LocationItemSchema = z.object({
  path: z.string(),
  in_workspace: z.boolean(),
  range: RangeSchema,
  selection_range: RangeSchema,
  text: z.string().nullable(),
});
