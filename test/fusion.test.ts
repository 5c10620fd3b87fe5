/** Reciprocal-rank fusion. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { DEFAULT_RRF_K, rrfFuse } from "../src/retrieve/fusion.js";

describe("rrfFuse", () => {
  it("sums weight / (k + rank) over lists", () => {
    const fused = rrfFuse([{ ids: ["a", "b", "c"] }, { ids: ["b", "d"], weight: 2 }], 60);
    expect(fused.map((h) => h.id)).toEqual(["b", "d", "a", "c"]);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 2 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(2 / 62, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 61, 12);
    expect(fused[3]!.score).toBeCloseTo(1 / 63, 12);
  });

  it("defaults k to 60, and k changes how much the top ranks dominate", () => {
    expect(DEFAULT_RRF_K).toBe(60);
    expect(rrfFuse([{ ids: ["x"] }])[0]!.score).toBeCloseTo(1 / 61, 12);
    // "a" is 1st and 4th; "b" is 2nd and 2nd. A small k favours the single top rank.
    const lists = [{ ids: ["a", "b"] }, { ids: ["c", "b", "d", "a"] }];
    expect(rrfFuse(lists, 1)[0]!.id).toBe("a");
    expect(rrfFuse(lists, 60)[0]!.id).toBe("b");
  });

  it("breaks ties by id, so the order is fully determined", () => {
    const fused = rrfFuse([{ ids: ["z", "m"] }, { ids: ["m", "z"] }]);
    expect(fused.map((h) => h.id)).toEqual(["m", "z"]);
    expect(fused[0]!.score).toBe(fused[1]!.score);
  });

  it("counts a repeated id at its best rank only, and a zero weight contributes nothing", () => {
    const fused = rrfFuse([{ ids: ["a", "a", "b"] }]);
    expect(fused.find((h) => h.id === "b")!.score).toBeCloseTo(1 / 62, 12);
    expect(fused.find((h) => h.id === "a")!.score).toBeCloseTo(1 / 61, 12);
    expect(rrfFuse([{ ids: ["a"], weight: 0 }, { ids: ["b"] }]).map((h) => h.id)).toEqual(["b"]);
    expect(rrfFuse([])).toEqual([]);
  });

  it("rejects a bad k or weight", () => {
    expect(() => rrfFuse([{ ids: ["a"] }], 0)).toThrow(GroundkitError);
    expect(() => rrfFuse([{ ids: ["a"] }], Number.NaN)).toThrow(GroundkitError);
    expect(() => rrfFuse([{ ids: ["a"], weight: -1 }])).toThrow(GroundkitError);
    expect(() => rrfFuse([{ ids: ["a"], weight: Number.POSITIVE_INFINITY }])).toThrow(GroundkitError);
  });

  it("is independent of the order of the lists and sorted by score, then id", () => {
    const id = fc.constantFrom("a", "b", "c", "d", "e", "f");
    const list = fc.record({ ids: fc.array(id, { maxLength: 6 }), weight: fc.constantFrom(0.5, 1, 2) });
    fc.assert(
      fc.property(fc.array(list, { maxLength: 4 }), (lists) => {
        const a = rrfFuse(lists);
        const b = rrfFuse([...lists].reverse());
        expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
        expect(a.map((h) => h.score)).toEqual(b.map((h) => h.score));
        for (let i = 1; i < a.length; i++) {
          const prev = a[i - 1]!;
          const cur = a[i]!;
          expect(prev.score > cur.score || (prev.score === cur.score && prev.id < cur.id)).toBe(true);
        }
        const everyId = new Set(lists.filter((l) => l.weight > 0).flatMap((l) => l.ids));
        expect(new Set(a.map((h) => h.id))).toEqual(everyId);
      }),
    );
  });
});
