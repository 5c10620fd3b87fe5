/** Reciprocal-rank fusion. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { DEFAULT_RRF_K, rrfFuse, withTopRankBonus } from "../src/retrieve/fusion.js";
import { chunkIdFor } from "../src/core/ids.js";
import { sha256 } from "../src/core/text.js";
import { fuseHybrid, hybridPoolSize } from "../src/retrieve/hybrid.js";
import { convexFuse } from "../src/retrieve/score-fusion.js";
import type { ScoredChunk } from "../src/store/store.js";
import { scoredChunk } from "./support/scored-chunk.js";

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

describe("withTopRankBonus", () => {
  it("lifts a side's first (+0.05) and second/third (+0.02) ids above ids both sides hold lower down", () => {
    const lists = [{ ids: ["a", "x", "y", "b"] }, { ids: ["c", "d", "e", "b"] }];
    const plain = rrfFuse(lists);
    // "b" is 4th on both sides: plain RRF puts it first (2/64 > 1/61).
    expect(plain[0]!.id).toBe("b");
    const bonus = withTopRankBonus(plain, lists);
    expect(bonus.slice(0, 2).map((h) => h.id)).toEqual(["a", "c"]);
    expect(bonus.find((h) => h.id === "a")!.score).toBeCloseTo(1 / 61 + 0.05, 12);
    expect(bonus.find((h) => h.id === "x")!.score).toBeCloseTo(1 / 62 + 0.02, 12);
    expect(bonus.find((h) => h.id === "b")!.score).toBeCloseTo(2 / 64, 12);
  });

  it("gives one bonus per id (its best rank) and none from a side switched off", () => {
    const lists = [{ ids: ["a", "b"] }, { ids: ["b", "a"], weight: 0 }];
    const bonus = withTopRankBonus(rrfFuse(lists), lists);
    expect(bonus.map((h) => [h.id, h.score])).toEqual([
      ["a", 1 / 61 + 0.05],
      ["b", 1 / 62 + 0.02],
    ]);
  });
});

describe("convexFuse", () => {
  it("combines min-max normalised scores with the dense share w", () => {
    const lexical = { ids: ["a", "b", "c"], scores: [12, 7, 2] };
    const dense = { ids: ["c", "d"], scores: [0.9, 0.5] };
    const fused = convexFuse(lexical, dense, 0.3);
    const score = Object.fromEntries(fused.map((h) => [h.id, h.score]));
    expect(score["a"]).toBeCloseTo(0.7, 12);
    expect(score["b"]).toBeCloseTo(0.7 * 0.5, 12);
    expect(score["c"]).toBeCloseTo(0.3, 12);
    expect(score["d"]).toBeCloseTo(0, 12);
    expect(fused.map((h) => h.id)).toEqual(["a", "b", "c", "d"]);
  });

  it("keeps score gaps RRF ignores: a runaway lexical winner stays first at w = 0.5", () => {
    const lexical = { ids: ["a", "b"], scores: [30, 1] };
    const dense = { ids: ["b", "a"], scores: [0.62, 0.6] };
    expect(convexFuse(lexical, dense, 0.5)[0]!.id).toBe("a");
    // RRF sees only the ranks: a tie, broken by id.
    const rrf = rrfFuse([{ ids: lexical.ids }, { ids: dense.ids }]);
    expect(rrf[0]!.score).toBe(rrf[1]!.score);
  });

  it("scales a pool of equal scores to 1, keeps an id's first score, and is exact at w = 0 and w = 1", () => {
    expect(convexFuse({ ids: ["a", "a"], scores: [5, 1] }, { ids: [], scores: [] }, 0)).toEqual([{ id: "a", score: 1 }]);
    const lexical = { ids: ["a", "b"], scores: [2, 1] };
    const dense = { ids: ["b", "a"], scores: [0.8, 0.4] };
    expect(convexFuse(lexical, dense, 0).map((h) => h.id)).toEqual(["a", "b"]);
    expect(convexFuse(lexical, dense, 1).map((h) => h.id)).toEqual(["b", "a"]);
  });

  it("rejects a dense share outside [0, 1]", () => {
    const empty = { ids: [], scores: [] };
    expect(() => convexFuse(empty, empty, 1.5)).toThrow(GroundkitError);
    expect(() => convexFuse(empty, empty, Number.NaN)).toThrow(GroundkitError);
  });
});

describe("hybridPoolSize", () => {
  it("defaults to max(50, 4k) and a configured pool never drops below k", () => {
    expect(hybridPoolSize(10)).toBe(50);
    expect(hybridPoolSize(20)).toBe(80);
    expect(hybridPoolSize(10, 200)).toBe(200);
    expect(hybridPoolSize(30, 5)).toBe(30);
  });
});

/** A scored chunk of file `name` under `folder`, its id derived from the absolute path as ingest derives it. */
function chunkIn(folder: string, name: string, score: number): ScoredChunk {
  const source = `${folder}/${name}.txt`;
  const text = `text of ${name}`;
  const textHash = sha256(text);
  return scoredChunk({ chunk_id: chunkIdFor(source, 0, text.length, textHash), text, text_hash: textHash, source, score });
}

describe("fuseHybrid", () => {
  it("orders tied hits the same wherever the files are (ids derive from the absolute path)", () => {
    // Twenty documents only BM25 finds and twenty only the dense side finds, rank for rank: twenty ties.
    const ranked = (folder: string) => {
      const lexical = Array.from({ length: 20 }, (_, i) => chunkIn(folder, `lexical-${i}`, 20 - i));
      const dense = Array.from({ length: 20 }, (_, i) => chunkIn(folder, `dense-${i}`, 0.9 - i / 100));
      return fuseHybrid(lexical, dense, 40).map((c) => c.text);
    };
    const here = ranked("/tmp/grk-eval-a1b2c3/corpus");
    expect(ranked("/tmp/grk-eval-x9y8z7/corpus")).toEqual(here);
    expect(ranked("/home/someone/checkout/evals/corpus")).toEqual(here);
    // Each tie is still a pair at one rank: the fused scores fall in twos.
    expect(new Set(here.slice(0, 2))).toEqual(new Set(["text of lexical-0", "text of dense-0"]));
  });

  it("orders ties the same way under convex fusion", () => {
    const ranked = (folder: string) => {
      const lexical = [chunkIn(folder, "a", 5), chunkIn(folder, "b", 5), chunkIn(folder, "c", 1)];
      const dense = [chunkIn(folder, "d", 0.8), chunkIn(folder, "e", 0.8), chunkIn(folder, "c", 0.2)];
      return fuseHybrid(lexical, dense, 5, { fusion: "convex" }).map((c) => c.text);
    };
    expect(ranked("/srv/one")).toEqual(ranked("/srv/two"));
    expect(ranked("/srv/one")).toEqual(ranked("/var/three"));
  });
});
