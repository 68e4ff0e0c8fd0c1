import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { byteLength, fitPage, paginate } from "../../../src/contract/bounds.js";
import { BridgeError } from "../../../src/contract/errors.js";

function errorOf(f: () => unknown): BridgeError {
  try {
    f();
  } catch (e) {
    if (e instanceof BridgeError) return e;
    throw e;
  }
  throw new Error("expected a BridgeError");
}

// A tool result shaped like the real ones: structuredContent plus its text rendering.
const render = (total: number, offset: number) => (items: string[]) => {
  const structuredContent = { items, total, returned: items.length, offset };
  return { structuredContent, content: [{ type: "text", text: JSON.stringify(structuredContent) }] };
};

describe("paginate", () => {
  const items = ["a", "b", "c", "d", "e"];

  test("slices [offset, offset + limit) and reports the total", () => {
    expect(paginate(items)).toEqual({ page: items, total: 5, offset: 0 });
    expect(paginate(items, 1, 2)).toEqual({ page: ["b", "c"], total: 5, offset: 1 });
    expect(paginate(items, 4, 10)).toEqual({ page: ["e"], total: 5, offset: 4 });
    expect(paginate(items, 7)).toEqual({ page: [], total: 5, offset: 7 });
    expect(paginate(items, 0, 0)).toEqual({ page: [], total: 5, offset: 0 });
  });

  test("refuses negative or fractional offsets and limits", () => {
    for (const [offset, limit] of [
      [-1, undefined],
      [1.5, undefined],
      [0, -1],
      [0, 2.5],
      [Number.NaN, 1],
    ] as const) {
      const e = errorOf(() => paginate(items, offset, limit));
      expect(e.code).toBe("InvalidArguments");
      expect(e.details).toEqual({ offset, limit: limit ?? null });
    }
  });

  test("pages cover the list exactly once (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 50 }), fc.integer({ min: 1, max: 10 }), (xs, limit) => {
        const seen: number[] = [];
        for (let offset = 0; offset < xs.length; offset += limit) seen.push(...paginate(xs, offset, limit).page);
        expect(seen).toEqual(xs);
      }),
    );
  });
});

describe("byteLength", () => {
  test("counts UTF-8 bytes of the JSON text", () => {
    expect(byteLength({ a: 1 })).toBe(7);
    expect(byteLength("é")).toBe(4); // quotes + 2 bytes
    expect(byteLength("😀")).toBe(6); // quotes + 4 bytes
    expect(byteLength("世")).toBe(5);
    expect(byteLength("\ud800")).toBe(8); // JSON.stringify escapes a lone surrogate as \ud800
    expect(byteLength(undefined)).toBe(0);
    expect(byteLength(null)).toBe(4);
  });

  test("agrees with a real UTF-8 encoder (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "binary" }), (value, s) => {
        expect(byteLength(value)).toBe(new TextEncoder().encode(JSON.stringify(value)).length);
        expect(byteLength(s)).toBe(new TextEncoder().encode(JSON.stringify(s)).length);
      }),
    );
  });
});

describe("fitPage", () => {
  test("returns the rendering when it fits, exactly at the limit too", () => {
    const r = render(2, 0);
    const size = byteLength(r(["a", "b"]));
    expect(fitPage(["a", "b"], r, size, 2)).toEqual(r(["a", "b"]));
  });

  test("throws ResultTooLarge with total, limit_bytes, actual_bytes and a maximal fits", () => {
    const page = Array.from({ length: 40 }, (_, i) => `item-${i}-${"x".repeat(i)}`);
    const r = render(1000, 0);
    const e = errorOf(() => fitPage(page, r, 1500, 1000));
    expect(e.code).toBe("ResultTooLarge");
    const { fits } = e.details as { fits: number };
    expect(e.details).toEqual({ total: 1000, limit_bytes: 1500, actual_bytes: byteLength(r(page)), fits });
    expect(byteLength(r(page.slice(0, fits)))).toBeLessThanOrEqual(1500);
    expect(byteLength(r(page.slice(0, fits + 1)))).toBeGreaterThan(1500);
    // Asking again with limit = fits succeeds.
    expect(fitPage(page.slice(0, fits), r, 1500, 1000)).toEqual(r(page.slice(0, fits)));
  });

  test("reports fits 0 when not even one item (or the empty envelope) fits", () => {
    const r = render(1, 0);
    expect(errorOf(() => fitPage(["y".repeat(500)], r, 100, 1)).details).toMatchObject({ fits: 0 });
    expect(errorOf(() => fitPage(["a"], r, 5, 1)).details).toMatchObject({ fits: 0 });
  });

  test("fits is maximal and never exceeded (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 30 }), { maxLength: 60 }), fc.integer({ min: 0, max: 3000 }), (page, limit) => {
        const r = render(page.length, 0);
        let result: unknown;
        try {
          result = fitPage(page, r, limit, page.length);
        } catch (e) {
          if (!(e instanceof BridgeError)) throw e;
          const { fits, actual_bytes } = e.details as { fits: number; actual_bytes: number };
          expect(actual_bytes).toBeGreaterThan(limit);
          expect(fits).toBeLessThanOrEqual(Math.max(page.length - 1, 0));
          if (fits > 0) expect(byteLength(r(page.slice(0, fits)))).toBeLessThanOrEqual(limit);
          expect(byteLength(r(page.slice(0, fits + 1)))).toBeGreaterThan(limit);
          return;
        }
        expect(byteLength(result)).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 300 },
    );
  });
});
