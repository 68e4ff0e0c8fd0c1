import { BridgeError } from "../contract/errors.js";
import { byteLength, fitPage, paginate } from "../contract/bounds.js";
import type { ResolvedConfig } from "../config/types.js";
import type { ToolAnswer } from "./tool-definition.js";

/**
 * The MCP tool result exactly as it is sent for an answer: the bound is measured on this shape,
 * and `src/mcp/` sends this shape, so the two never disagree.
 */
export function toolResultShape<O>(answer: ToolAnswer<O>): { content: { type: "text"; text: string }[]; structuredContent: O } {
  return { content: [{ type: "text", text: answer.text }], structuredContent: answer.structured };
}

/** The byte ceiling for one call: the configured one, lowered (never raised) by `max_bytes`. */
export function limitBytes(config: ResolvedConfig, maxBytes: number | undefined): number {
  const ceiling = config.bridge.max_result_bytes;
  return maxBytes === undefined ? ceiling : Math.min(ceiling, maxBytes);
}

/**
 * Pages a canonically ordered list and renders the page, failing with `ResultTooLarge` (with
 * `fits`) when the page does not fit in `bytes`.
 */
export function boundedPage<T, O>(
  items: readonly T[],
  paging: { offset: number; limit: number },
  bytes: number,
  render: (page: T[], envelope: { total: number; returned: number; offset: number }) => ToolAnswer<O>,
): ToolAnswer<O> {
  const { page, total, offset } = paginate(items, paging.offset, paging.limit);
  const answerFor = (slice: T[]): ToolAnswer<O> => render(slice, { total, returned: slice.length, offset });
  const fitted = fitPage(page, (slice) => toolResultShape(answerFor(slice)), bytes, total);
  return { structured: fitted.structuredContent, text: fitted.content[0]!.text };
}

/** For answers that are not lists: the whole answer fits, or `ResultTooLarge` with `fits: 0`. */
export function boundedSingle<O>(answer: ToolAnswer<O>, bytes: number): ToolAnswer<O> {
  const actual = byteLength(toolResultShape(answer));
  if (actual <= bytes) return answer;
  throw new BridgeError("ResultTooLarge", `the result is ${actual} bytes, over the limit of ${bytes} bytes`, {
    total: 1,
    limit_bytes: bytes,
    actual_bytes: actual,
    fits: 0,
  });
}

/** What a page of a list holds: how many items of how many, from which offset. */
export interface PageEnvelope {
  readonly total: number;
  readonly returned: number;
  readonly offset: number;
}

/**
 * The first line of a page's text: how many `noun` (a plural ending in "s") it holds and what
 * they belong to (`about`, e.g. " of AppBase at src/a.ts:3:7"); for a partial page, which items
 * these are and the offset of the next page. A whole list says only its count.
 */
export function pageHeading(envelope: PageEnvelope, noun: string, about: string): string {
  const { total, returned, offset } = envelope;
  const name = (count: number) => (count === 1 ? noun.slice(0, -1) : noun);
  if (offset === 0 && returned === total) return `${total} ${name(total)}${about}`;
  if (returned === 0) return `0 of ${total} ${noun}${about}: offset ${offset} is past the end`;
  const next = offset + returned < total ? `; next page at offset ${offset + returned}` : "";
  return `${offset + 1} to ${offset + returned} of ${total} ${noun}${about}${next}`;
}
