import { describe, expect, test } from "vitest";
import { matchEqualKeys } from "../../../src/diagnostics/findings/match-equal-keys.js";

describe("matchEqualKeys", () => {
  test("the k-th item of a key now is the k-th of that key then; the rest are new or untaken", () => {
    const match = matchEqualKeys(["a", "b", "a", "a", "c"], ["b", "a", "d", "a"]);
    expect(match.partnerOf).toEqual([1, 0, 3, -1, -1]);
    expect(match.untaken).toEqual([2]);
  });

  test("an item of then is taken once: two equal items now, one then, leave the second new", () => {
    expect(matchEqualKeys(["x", "x"], ["x"])).toEqual({ partnerOf: [0, -1], untaken: [] });
    expect(matchEqualKeys(["x"], ["x", "x"])).toEqual({ partnerOf: [0], untaken: [1] });
  });

  test("empty lists match nothing", () => {
    expect(matchEqualKeys([], ["a"])).toEqual({ partnerOf: [], untaken: [0] });
    expect(matchEqualKeys(["a"], [])).toEqual({ partnerOf: [-1], untaken: [] });
  });
});
