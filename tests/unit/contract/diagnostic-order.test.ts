import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { SEVERITY_NAMES } from "../../../src/contract/names.js";
import {
  compareDiagnostics,
  mergeDiagnostics,
  mergeServerDiagnostics,
  sortDiagnostics,
  type BridgeDiagnostic,
  type ChannelDiagnostic,
} from "../../../src/contract/ordering.js";

const range = (l1: number, c1: number, l2: number, c2: number) => ({
  start: { line: l1, column: c1 },
  end: { line: l2, column: c2 },
});
const diag = (over: Partial<ChannelDiagnostic> = {}): ChannelDiagnostic => ({
  path: "a.ts",
  range: range(1, 1, 1, 2),
  severity: "error",
  code: null,
  source: null,
  message: "m",
  ...over,
});

// Small value pools, so that generated lists have many near-ties.
const pos = fc.integer({ min: 1, max: 3 });
const text = fc.constantFrom("a", "B", "é", "Z", "aa", "😀", "\u{FF5E}");
const channelDiag: fc.Arbitrary<ChannelDiagnostic> = fc.record({
  path: fc.constantFrom("a.ts", "b.ts", "B.ts", "dir/a.ts"),
  range: fc.tuple(pos, pos, pos, pos).map(([a, b, c, d]) => range(a, b, c, d)),
  severity: fc.constantFrom(...SEVERITY_NAMES),
  code: fc.option(text),
  source: fc.option(text),
  message: text,
});
const bridgeDiag: fc.Arbitrary<BridgeDiagnostic> = fc
  .tuple(channelDiag, fc.constantFrom<BridgeDiagnostic["channels"]>(["pull"], ["push"], ["pull", "push"]))
  .map(([d, channels]) => ({ ...d, channels }));

const shuffled = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });

describe("diagnostic order", () => {
  test("follows CONTRACT §5 field by field", () => {
    const items: ChannelDiagnostic[] = [
      diag({ path: "b.ts" }),
      diag({ range: range(2, 1, 2, 1) }),
      diag({ range: range(1, 3, 1, 4) }),
      diag({ range: range(1, 1, 2, 1) }),
      diag({ severity: "hint" }),
      diag({ severity: "warning" }),
      diag({ source: "ts" }),
      diag({ source: null, code: "2322" }),
      diag({ message: "n" }),
      diag(),
    ];
    const sorted = mergeDiagnostics(items, null).map(({ channels: _c, ...d }) => d);
    expect(sorted).toEqual([
      diag(),
      diag({ message: "n" }),
      diag({ source: null, code: "2322" }),
      diag({ source: "ts" }),
      diag({ severity: "warning" }),
      diag({ severity: "hint" }),
      diag({ range: range(1, 1, 2, 1) }),
      diag({ range: range(1, 3, 1, 4) }),
      diag({ range: range(2, 1, 2, 1) }),
      diag({ path: "b.ts" }),
    ]);
  });

  test("compares strings by code units, not by locale", () => {
    const names = ["é.ts", "b.ts", "B.ts", "a.ts", "Z.ts"];
    const sorted = sortDiagnostics(names.map((path) => ({ ...diag({ path }), channels: ["push"] }))).map((d) => d.path);
    expect(sorted).toEqual(["B.ts", "Z.ts", "a.ts", "b.ts", "é.ts"]);
  });

  test("is total and independent of input order (property)", () => {
    fc.assert(
      fc.property(
        fc.array(bridgeDiag, { maxLength: 30 }).chain((items) => fc.tuple(fc.constant(items), shuffled(items))),
        ([items, permuted]) => {
          const a = sortDiagnostics(items);
          expect(JSON.stringify(sortDiagnostics(permuted))).toBe(JSON.stringify(a));
          for (let i = 1; i < a.length; i++) expect(compareDiagnostics(a[i - 1]!, a[i]!)).toBeLessThanOrEqual(0);
          // Antisymmetry, which a total order needs.
          for (const x of items) for (const y of items) expect(Math.sign(compareDiagnostics(x, y)) + Math.sign(compareDiagnostics(y, x)) === 0).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  test("sortDiagnostics does not change its input", () => {
    const items: BridgeDiagnostic[] = [
      { ...diag({ path: "b" }), channels: ["pull"] },
      { ...diag({ path: "a" }), channels: ["pull"] },
    ];
    sortDiagnostics(items);
    expect(items.map((d) => d.path)).toEqual(["b", "a"]);
  });
});

describe("mergeDiagnostics", () => {
  test("marks diagnostics seen on both channels once, and collapses repeats within a channel", () => {
    const a = diag({ message: "a" });
    const b = diag({ message: "b" });
    const c = diag({ message: "c" });
    const merged = mergeDiagnostics([b, a, a], [c, b, c]);
    expect(merged).toEqual([
      { ...a, channels: ["pull"] },
      { ...b, channels: ["pull", "push"] },
      { ...c, channels: ["push"] },
    ]);
  });

  test("treats null and the string 'null' as different codes", () => {
    expect(mergeDiagnostics([diag({ code: null })], [diag({ code: "null" })])).toHaveLength(2);
  });

  test("accepts a missing channel", () => {
    expect(mergeDiagnostics(null, null)).toEqual([]);
    expect(mergeDiagnostics(null, [diag()])).toEqual([{ ...diag(), channels: ["push"] }]);
  });

  test("emits keys in contract order, whatever the input's key order", () => {
    const scrambled = {
      message: "m",
      source: null,
      code: "1",
      severity: "error",
      range: { end: { column: 2, line: 1 }, start: { column: 1, line: 1 } },
      path: "a.ts",
    } as const;
    expect(JSON.stringify(mergeDiagnostics([scrambled], [scrambled])[0])).toBe(
      '{"path":"a.ts","range":{"start":{"line":1,"column":1},"end":{"line":1,"column":2}},"severity":"error","code":"1","source":null,"message":"m","channels":["pull","push"]}',
    );
  });

  test("one channel alone gives what the merge of both gives with the other empty, repeats included (property)", () => {
    // A small pool, so that repeats (and null beside "null") are drawn often.
    const pool = [diag(), diag({ code: null }), diag({ code: "null" }), diag({ message: "b" }), diag({ range: range(1, 1, 1, 1) })];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 12 }), (items) => {
        expect(JSON.stringify(mergeDiagnostics(items, null))).toBe(JSON.stringify(mergeDiagnostics(items, [])));
        expect(JSON.stringify(mergeDiagnostics(null, items))).toBe(JSON.stringify(mergeDiagnostics([], items)));
      }),
      { numRuns: 300 },
    );
  });

  test("gives the same bytes for any input order, with no duplicates (property)", () => {
    fc.assert(
      fc.property(
        fc.array(channelDiag, { maxLength: 20 }),
        fc.array(channelDiag, { maxLength: 20 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (pull, push, seed) => {
          const shuffle = <T>(xs: T[]): T[] => {
            const out = [...xs];
            let s = seed;
            for (let i = out.length - 1; i > 0; i--) {
              s = (s * 1103515245 + 12345) % 2 ** 31;
              const j = s % (i + 1);
              [out[i], out[j]] = [out[j]!, out[i]!];
            }
            return out;
          };
          const a = mergeDiagnostics(pull, push);
          expect(JSON.stringify(mergeDiagnostics(shuffle(pull), shuffle(push)))).toBe(JSON.stringify(a));
          const keys = a.map(({ channels: _c, ...d }) => JSON.stringify(d));
          expect(new Set(keys).size).toBe(keys.length);
          // Every input is represented, on exactly the channels that had it.
          const id = (d: ChannelDiagnostic) =>
            JSON.stringify(mergeDiagnostics([d], null)[0]!.range) + JSON.stringify([d.path, d.severity, d.code, d.source, d.message]);
          const pullIds = new Set(pull.map(id));
          const pushIds = new Set(push.map(id));
          expect(a.length).toBe(new Set([...pullIds, ...pushIds]).size);
          for (const d of a) {
            const expected = [...(pullIds.has(id(d)) ? ["pull"] : []), ...(pushIds.has(id(d)) ? ["push"] : [])];
            expect(d.channels).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("mergeServerDiagnostics", () => {
  const item = (source: string, line: number, channels: ("pull" | "push")[]) => ({
    path: "a.ts",
    range: { start: { line, column: 1 }, end: { line, column: 2 } },
    severity: "error" as const,
    code: null,
    source,
    message: "m",
    channels,
  });

  test("two servers' answers in canonical order; an identical item once, with both channels", () => {
    const merged = mergeServerDiagnostics([
      [item("typescript", 3, ["pull"]), item("same", 1, ["pull"])],
      [item("biome", 2, ["push"]), item("same", 1, ["push"])],
    ]);
    expect(merged).toEqual([item("same", 1, ["pull", "push"]), item("biome", 2, ["push"]), item("typescript", 3, ["pull"])]);
  });
});
