import { BridgeError } from "./errors.js";

/** One page of a canonically ordered list. */
export interface Page<T> {
  page: T[];
  /** Length of the whole list. */
  total: number;
  /** The offset asked for (the page is empty when it is at or past `total`). */
  offset: number;
}

/**
 * The slice `[offset, offset + limit)` of `items` (all the rest when `limit` is undefined).
 * An offset past the end gives an empty page, not an error. Throws `InvalidArguments` (details
 * `{ offset, limit }`) for a negative or non-integer offset or limit; limit 0 is allowed.
 */
export function paginate<T>(items: readonly T[], offset = 0, limit?: number): Page<T> {
  const badLimit = limit !== undefined && (!Number.isInteger(limit) || limit < 0);
  if (!Number.isInteger(offset) || offset < 0 || badLimit) {
    throw new BridgeError("InvalidArguments", "offset and limit must be non-negative integers", {
      offset,
      limit: limit ?? null,
    });
  }
  const end = limit === undefined ? items.length : offset + limit;
  return { page: items.slice(offset, end), total: items.length, offset };
}

/**
 * UTF-8 bytes of `JSON.stringify(value)`: the size the value has on the wire. 0 when the value
 * has no JSON form (undefined, a function). Counted without encoding, so no copy is made.
 */
export function byteLength(value: unknown): number {
  const json: string | undefined = JSON.stringify(value);
  if (json === undefined) return 0;
  let bytes = 0;
  for (let i = 0; i < json.length; i++) {
    const unit = json.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLow(json.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3; // Also a lone surrogate, which a UTF-8 encoder replaces with U+FFFD.
  }
  return bytes;
}

/**
 * `render(page)` when its `byteLength` is at most `limitBytes`. Otherwise throws
 * `BridgeError("ResultTooLarge")` with details `{ total, limit_bytes, actual_bytes, fits }`, where
 * `fits` is the largest k for which `render(page.slice(0, k))` fits (0 when even an empty page does
 * not). `render` must produce the whole tool result as sent, so the bound is on the real bytes.
 * It is assumed that a longer page never renders smaller; `fits` is always a k that was rendered
 * and checked, so asking again with `limit = fits` succeeds.
 */
export function fitPage<T, R>(page: readonly T[], render: (items: T[]) => R, limitBytes: number, total: number): R {
  const whole = render([...page]);
  const actual = byteLength(whole);
  if (actual <= limitBytes) return whole;
  // Binary search for the largest fitting prefix: lo fits (or is 0), hi is known not to fit.
  let lo = 0;
  let hi = page.length;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (byteLength(render(page.slice(0, mid))) <= limitBytes) lo = mid;
    else hi = mid;
  }
  const fits = lo;
  throw new BridgeError(
    "ResultTooLarge",
    `the result is ${actual} bytes, over the limit of ${limitBytes} bytes; ${fits} of the ${page.length} items on this page would fit — ask for a smaller limit or use offset to page`,
    { total, limit_bytes: limitBytes, actual_bytes: actual, fits },
  );
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
