import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BridgeError } from "../../../src/contract/errors.js";
import { LineIndex, type PositionEncoding } from "../../../src/contract/positions.js";

const ENCODINGS: PositionEncoding[] = ["utf-8", "utf-16", "utf-32"];

// A reference model built the slow, obvious way: split on LSP's terminators, count with Array.from.
function modelLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
function modelOffset(line: string, column: number, enc: PositionEncoding): number {
  const prefix = Array.from(line)
    .slice(0, column - 1)
    .join("");
  if (enc === "utf-32") return column - 1;
  if (enc === "utf-16") return prefix.length;
  return Buffer.byteLength(prefix, "utf8");
}

// Pieces that exercise every width and every terminator, including a lone surrogate.
const piece = fc.constantFrom("a", "Z", " ", "é", "ß", "€", "世", "😀", "👍🏽", "𝔸", "\n", "\r\n", "\r", "\t", "\ud800", "e\u0301");
const doc = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));

function errorOf(f: () => unknown): BridgeError {
  try {
    f();
  } catch (e) {
    if (e instanceof BridgeError) return e;
    throw e;
  }
  throw new Error("expected a BridgeError");
}

describe("LineIndex", () => {
  test("counts lines with \\n, \\r\\n and lone \\r terminators", () => {
    expect(new LineIndex("").lineCount).toBe(1);
    expect(new LineIndex("a").lineCount).toBe(1);
    expect(new LineIndex("a\n").lineCount).toBe(2);
    expect(new LineIndex("a\r\nb").lineCount).toBe(2);
    expect(new LineIndex("a\rb\rc").lineCount).toBe(3);
    expect(new LineIndex("\n\n\r\n\r").lineCount).toBe(5);
    expect(new LineIndex("\r\r\n").lineCount).toBe(3);
  });

  test("an emoji is one column, two UTF-16 units, four UTF-8 bytes", () => {
    const ix = new LineIndex("const s = '😀'; let x = 1;");
    const x = { line: 1, column: 18 }; // the "x" after the emoji
    expect(ix.toLsp(x, "utf-16")).toEqual({ line: 0, character: 18 });
    expect(ix.toLsp(x, "utf-8")).toEqual({ line: 0, character: 20 });
    expect(ix.toLsp(x, "utf-32")).toEqual({ line: 0, character: 17 });
    for (const enc of ENCODINGS) expect(ix.fromLsp(ix.toLsp(x, enc), enc)).toEqual(x);
  });

  test("round-trips every valid position in every encoding (property, against a model)", () => {
    fc.assert(
      fc.property(doc, (text) => {
        const ix = new LineIndex(text);
        const lines = modelLines(text);
        expect(ix.lineCount).toBe(lines.length);
        lines.forEach((lineText, i) => {
          const points = Array.from(lineText).length;
          expect(ix.lineLength(i + 1)).toBe(points);
          for (let column = 1; column <= points + 1; column++) {
            for (const enc of ENCODINGS) {
              const lsp = ix.toLsp({ line: i + 1, column }, enc);
              expect(lsp).toEqual({ line: i, character: modelOffset(lineText, column, enc) });
              expect(ix.fromLsp(lsp, enc)).toEqual({ line: i + 1, column });
            }
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  test("fromLsp never throws and rounds an offset inside a character down to its start (property)", () => {
    fc.assert(
      fc.property(doc, fc.integer({ min: -2, max: 50 }), fc.integer({ min: -2, max: 200 }), fc.constantFrom(...ENCODINGS), (text, line, character, enc) => {
        const ix = new LineIndex(text);
        const got = ix.fromLsp({ line, character }, enc);
        expect(got.line).toBeGreaterThanOrEqual(1);
        expect(got.line).toBeLessThanOrEqual(ix.lineCount);
        expect(got.column).toBeGreaterThanOrEqual(1);
        expect(got.column).toBeLessThanOrEqual(ix.lineLength(got.line) + 1);
        if (line < 0 || line >= ix.lineCount) return;
        // The answer is the last character boundary at or before the asked offset.
        const at = ix.toLsp(got, enc).character;
        expect(at).toBeLessThanOrEqual(Math.max(character, 0));
        if (got.column <= ix.lineLength(got.line)) {
          const next = ix.toLsp({ line: got.line, column: got.column + 1 }, enc).character;
          expect(next).toBeGreaterThan(Math.max(character, 0));
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("fromLsp clamps past the end of a line and of the document", () => {
    const ix = new LineIndex("ab😀\r\ncd\n");
    expect(ix.fromLsp({ line: 0, character: 99 }, "utf-16")).toEqual({ line: 1, column: 4 });
    expect(ix.fromLsp({ line: 5, character: 0 }, "utf-16")).toEqual({ line: 3, column: 1 });
    expect(new LineIndex("x😀").fromLsp({ line: 9, character: 9 }, "utf-8")).toEqual({ line: 1, column: 3 });
    expect(ix.fromLsp({ line: -1, character: -5 }, "utf-8")).toEqual({ line: 1, column: 1 });
    expect(ix.fromLsp({ line: Number.NaN, character: 1.7 }, "utf-16")).toEqual({ line: 1, column: 2 });
    expect(ix.fromLsp({ line: 0, character: Number.POSITIVE_INFINITY }, "utf-8")).toEqual({ line: 1, column: 4 });
  });

  test("fromLsp rounds inside a surrogate pair or a UTF-8 sequence to the character's start", () => {
    const ix = new LineIndex("a😀b€c");
    expect(ix.fromLsp({ line: 0, character: 2 }, "utf-16")).toEqual({ line: 1, column: 2 });
    for (const c of [2, 3, 4]) expect(ix.fromLsp({ line: 0, character: c }, "utf-8")).toEqual({ line: 1, column: 2 });
    expect(ix.fromLsp({ line: 0, character: 5 }, "utf-8")).toEqual({ line: 1, column: 3 });
    expect(ix.fromLsp({ line: 0, character: 7 }, "utf-8")).toEqual({ line: 1, column: 4 }); // inside "€"
  });

  test("rangeFromLsp converts both ends and never inverts", () => {
    const ix = new LineIndex("😀x\ny");
    expect(ix.rangeFromLsp({ start: { line: 0, character: 2 }, end: { line: 1, character: 1 } }, "utf-16")).toEqual({
      start: { line: 1, column: 2 },
      end: { line: 2, column: 2 },
    });
    expect(ix.rangeFromLsp({ start: { line: 1, character: 1 }, end: { line: 0, character: 0 } }, "utf-16")).toEqual({
      start: { line: 2, column: 2 },
      end: { line: 2, column: 2 },
    });
  });

  test("toLsp refuses positions outside the document with InvalidArguments and details", () => {
    const ix = new LineIndex("ab😀\n\nxyz");
    const cases: [number, number, number | null][] = [
      [0, 1, null],
      [4, 1, null],
      [-1, 1, null],
      [1.5, 1, null],
      [1, 0, 3],
      [1, 5, 3],
      [2, 2, 0],
      [3, 1.5, 3],
      [3, Number.NaN, 3],
    ];
    for (const [line, column, lineLength] of cases) {
      const e = errorOf(() => ix.toLsp({ line, column }, "utf-16"));
      expect(e.code).toBe("InvalidArguments");
      expect(e.details).toEqual({ line, column, line_count: 3, line_length: lineLength });
    }
    expect(ix.toLsp({ line: 1, column: 4 }, "utf-16")).toEqual({ line: 0, character: 4 });
    expect(ix.toLsp({ line: 2, column: 1 }, "utf-8")).toEqual({ line: 1, character: 0 });
    expect(new LineIndex("").toLsp({ line: 1, column: 1 }, "utf-8")).toEqual({ line: 0, character: 0 });
    expect(errorOf(() => ix.lineLength(9)).code).toBe("InvalidArguments");
  });

  test("lineText is a line without its terminator, for every terminator", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }).filter((t) => !/[\r\n]/.test(t)),
        fc.constantFrom("\n", "\r\n", "\r"),
        (text, eol) => {
          const lines = [text, "", text + "x"];
          const ix = new LineIndex(lines.join(eol));
          lines.forEach((line, i) => expect(ix.lineText(i + 1)).toBe(line));
        },
      ),
    );
    expect(errorOf(() => new LineIndex("a").lineText(2)).code).toBe("InvalidArguments");
  });

  test("a large file indexes once and converts quickly", () => {
    const line = "const value😀 = compute(a, b, 'é');";
    const text = Array.from({ length: 200_000 }, () => line).join("\r\n");
    // CPU time, which a loaded machine does not add to: conversions that each scanned the text
    // would cost many seconds of it here; ones that look their line up, well under one.
    const started = process.cpuUsage();
    const ix = new LineIndex(text);
    for (let i = 1; i <= 200_000; i += 97) {
      const lsp = ix.toLsp({ line: i, column: 20 }, "utf-16");
      expect(ix.fromLsp(lsp, "utf-16")).toEqual({ line: i, column: 20 });
    }
    expect(ix.lineCount).toBe(200_000);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });
});
