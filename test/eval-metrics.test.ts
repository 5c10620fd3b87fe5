import { describe, expect, it } from "vitest";
import {
  aggregateMetrics,
  collapseToDocuments,
  dcg,
  goldenGains,
  scoreBeirQuery,
  scoreGoldenQuery,
  spansOverlap,
  type RankedSpan,
} from "../src/eval/metrics.js";
import { percentile, summarizeLatency, timeRuns } from "../src/eval/latency.js";

// Reference values used below (log2(3) = 1.5849625, log2(4) = 2, log2(5) = 2.3219281):
//   1/log2(3) = 0.6309297535714575
//   1/log2(5) = 0.43067655807339306
const INV_LOG2_3 = 0.6309297535714575;
const INV_LOG2_5 = 0.43067655807339306;

const span = (doc: string, start: number, end: number): RankedSpan => ({ doc, start, end });

describe("spansOverlap", () => {
  it("uses half-open ranges in the same document", () => {
    expect(spansOverlap(span("a", 0, 10), span("a", 9, 12))).toBe(true);
    expect(spansOverlap(span("a", 0, 10), span("a", 10, 12))).toBe(false); // touching only
    expect(spansOverlap(span("a", 5, 6), span("a", 0, 100))).toBe(true); // contained
    expect(spansOverlap(span("a", 0, 10), span("b", 0, 10))).toBe(false); // other document
    expect(spansOverlap(span("a", 3, 3), span("a", 0, 10))).toBe(false); // empty result span
  });
});

describe("dcg", () => {
  it("divides rank i by log2(i + 1)", () => {
    // 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.2618595 + 0.5 = 4.7618595071429
    expect(dcg([3, 2, 1])).toBeCloseTo(3 + 2 * INV_LOG2_3 + 0.5, 12);
    expect(dcg([])).toBe(0);
  });
});

describe("scoreGoldenQuery (span level, hit rate)", () => {
  const gold = [span("g.md", 150, 160), span("g.md", 450, 470)];

  it("scores a ranking with a repeated hit on one gold span", () => {
    const results = [
      span("a.md", 0, 10), // rank 1: other doc
      span("g.md", 100, 200), // rank 2: overlaps gold 1
      span("g.md", 155, 300), // rank 3: overlaps gold 1 again -> gain 0 (already found)
      span("g.md", 400, 500), // rank 4: overlaps gold 2
    ];
    const m = scoreGoldenQuery(results, gold);
    expect(m.recall_at_1).toBe(0);
    expect(m.recall_at_5).toBe(1);
    expect(m.recall_at_10).toBe(1);
    expect(m.mrr).toBe(0.5); // first relevant at rank 2
    expect(m.rank_of_first_relevant).toBe(2);
    // gains [0, 1, 0, 1]: DCG = 1/log2(3) + 1/log2(5) = 0.6309298 + 0.4306766 = 1.0616063
    // IDCG = min(2 gold, 10) ones = 1 + 1/log2(3) = 1.6309298 -> nDCG = 0.6509209298
    expect(m.ndcg_at_10).toBeCloseTo(0.6509209298071326, 12);
    expect(m.ndcg_at_10).toBeCloseTo((INV_LOG2_3 + INV_LOG2_5) / (1 + INV_LOG2_3), 12);
  });

  it("gives 1.0 everywhere for a perfect ranking", () => {
    const m = scoreGoldenQuery([span("g.md", 150, 151), span("g.md", 460, 461)], gold);
    expect(m).toEqual({ recall_at_1: 1, recall_at_5: 1, recall_at_10: 1, mrr: 1, ndcg_at_10: 1, rank_of_first_relevant: 1 });
  });

  it("scores empty results as all zeros", () => {
    expect(scoreGoldenQuery([], gold)).toEqual({
      recall_at_1: 0,
      recall_at_5: 0,
      recall_at_10: 0,
      mrr: 0,
      ndcg_at_10: 0,
      rank_of_first_relevant: null,
    });
  });

  it("does not credit ten copies of one answer as ten answers", () => {
    // gains [1, 0, 0]; IDCG for 2 gold spans = 1 + 1/log2(3) -> nDCG = 1/1.6309298 = 0.6131471928
    const copies = [span("g.md", 140, 155), span("g.md", 150, 152), span("g.md", 158, 170)];
    expect(goldenGains(copies, gold)).toEqual([1, 0, 0]);
    expect(scoreGoldenQuery(copies, gold).ndcg_at_10).toBeCloseTo(0.6131471927654584, 12);
    // With a single gold span the same ranking is ideal: IDCG = min(1, 10) ones = 1.
    expect(scoreGoldenQuery(copies, [gold[0]!]).ndcg_at_10).toBe(1);
  });

  it("matches results to gold spans so a chunk covering two answers does not block a later one (tie on coverage)", () => {
    // Rank 1 covers both gold spans, rank 2 covers only gold 1. Greedy "first gold span" crediting
    // would give [1, 0]; matching reassigns rank 1 to gold 2, so both ranks gain: [1, 1].
    const both = span("g.md", 100, 500);
    const onlyFirst = span("g.md", 150, 155);
    expect(goldenGains([both, onlyFirst], gold)).toEqual([1, 1]);
    expect(scoreGoldenQuery([both, onlyFirst], gold).ndcg_at_10).toBe(1);
    // Reversed order: rank 1 takes gold 1, rank 2 can still take gold 2.
    expect(goldenGains([onlyFirst, both], gold)).toEqual([1, 1]);
    // A chunk covering both answers alone finds one of them: 1 / (1 + 1/log2(3)).
    expect(scoreGoldenQuery([both], gold).ndcg_at_10).toBeCloseTo(0.6131471927654584, 12);
  });

  it("ignores anything past rank 10 for MRR, recall and nDCG but reports the rank", () => {
    const results = Array.from({ length: 10 }, (_, i) => span("x.md", i * 10, i * 10 + 5));
    results.push(span("g.md", 150, 160)); // rank 11
    const m = scoreGoldenQuery(results, gold);
    expect(m.recall_at_10).toBe(0);
    expect(m.mrr).toBe(0);
    expect(m.ndcg_at_10).toBe(0);
    expect(m.rank_of_first_relevant).toBe(11);
  });

  it("scores recall@5 and MRR at the cut-off edge", () => {
    const results = [0, 1, 2, 3].map((i) => span("x.md", i, i + 1));
    results.push(span("g.md", 459, 461)); // rank 5
    const m = scoreGoldenQuery(results, gold);
    expect(m.recall_at_1).toBe(0);
    expect(m.recall_at_5).toBe(1);
    expect(m.mrr).toBe(0.2);
    // gains [0,0,0,0,1]: DCG = 1/log2(6) = 0.3868528; IDCG = 1.6309298 -> 0.2371977
    expect(m.ndcg_at_10).toBeCloseTo(1 / Math.log2(6) / (1 + INV_LOG2_3), 12);
    expect(m.ndcg_at_10).toBeCloseTo(0.23719771, 7);
  });

  it("refuses a query without gold (no_answer is not scored)", () => {
    expect(() => scoreGoldenQuery([], [])).toThrow(RangeError);
  });
});

describe("collapseToDocuments", () => {
  it("keeps first-seen distinct documents in rank order", () => {
    expect(collapseToDocuments([span("d1", 0, 1), span("d2", 0, 1), span("d1", 5, 9), span("d3", 0, 1), span("d2", 3, 4)])).toEqual([
      "d1",
      "d2",
      "d3",
    ]);
    expect(collapseToDocuments([])).toEqual([]);
  });
});

describe("scoreBeirQuery (document level, set recall, graded)", () => {
  it("uses linear graded gains with tied grades in the ideal ranking", () => {
    const qrels = new Map([
      ["d1", 2],
      ["d2", 2],
      ["d3", 1],
      ["d9", 0],
    ]);
    const m = scoreBeirQuery(["d3", "d1", "x", "d2"], qrels);
    // relevant = {d1, d2, d3} (gain > 0); d9 is judged non-relevant.
    expect(m.recall_at_1).toBeCloseTo(1 / 3, 12); // d3 in top 1
    expect(m.recall_at_5).toBe(1); // all three in top 5
    expect(m.recall_at_10).toBe(1);
    expect(m.recall_at_100).toBe(1);
    expect(m.mrr).toBe(1);
    // DCG = 1/log2(2) + 2/log2(3) + 0/log2(4) + 2/log2(5) = 1 + 1.2618595 + 0 + 0.8613531 = 3.1232126
    // IDCG (2, 2, 1) = 2 + 2/log2(3) + 1/log2(4) = 2 + 1.2618595 + 0.5 = 3.7618595 -> 0.8302310645
    expect(m.ndcg_at_10).toBeCloseTo(0.8302310645465178, 12);
  });

  it("keeps 0-score qrels as non-relevant", () => {
    const m = scoreBeirQuery(["d1", "d2"], new Map([["d1", 0], ["d2", 1]]));
    expect(m.recall_at_1).toBe(0);
    expect(m.recall_at_5).toBe(1);
    expect(m.mrr).toBe(0.5);
    // DCG = 0 + 1/log2(3); IDCG = 1 -> 0.6309297536
    expect(m.ndcg_at_10).toBeCloseTo(INV_LOG2_3, 12);
    expect(m.rank_of_first_relevant).toBe(2);
  });

  it("computes set recall at 10 and 100 separately", () => {
    // Two relevant documents: one at rank 3, one at rank 50.
    const ranked = Array.from({ length: 120 }, (_, i) => `n${i}`);
    ranked[2] = "r1";
    ranked[49] = "r2";
    const m = scoreBeirQuery(ranked, new Map([["r1", 1], ["r2", 1]]));
    expect(m.recall_at_1).toBe(0);
    expect(m.recall_at_5).toBe(0.5);
    expect(m.recall_at_10).toBe(0.5);
    expect(m.recall_at_100).toBe(1);
    expect(m.mrr).toBeCloseTo(1 / 3, 12);
    // DCG@10 = 1/log2(4) = 0.5; IDCG = 1 + 1/log2(3) = 1.6309298 -> 0.3065735964
    expect(m.ndcg_at_10).toBeCloseTo(0.5 / (1 + INV_LOG2_3), 12);
  });

  it("scores empty results as zeros", () => {
    const m = scoreBeirQuery([], new Map([["d1", 3]]));
    expect(m).toEqual({
      recall_at_1: 0,
      recall_at_5: 0,
      recall_at_10: 0,
      mrr: 0,
      ndcg_at_10: 0,
      recall_at_100: 0,
      rank_of_first_relevant: null,
    });
  });

  it("refuses a query with no relevant document", () => {
    expect(() => scoreBeirQuery(["d1"], new Map([["d1", 0]]))).toThrow(RangeError);
  });
});

describe("aggregateMetrics", () => {
  it("averages per-query metrics in order and counts queries", () => {
    const a = { recall_at_1: 1, recall_at_5: 1, recall_at_10: 1, mrr: 1, ndcg_at_10: 1, rank_of_first_relevant: 1 };
    const b = { recall_at_1: 0, recall_at_5: 1, recall_at_10: 1, mrr: 0.25, ndcg_at_10: 0.5, rank_of_first_relevant: 4 };
    const c = { recall_at_1: 0, recall_at_5: 0, recall_at_10: 0, mrr: 0, ndcg_at_10: 0, rank_of_first_relevant: null };
    // recall@1 = 1/3; recall@5 = 2/3; MRR = (1 + 0.25 + 0)/3 = 0.41667; nDCG = 1.5/3 = 0.5
    expect(aggregateMetrics([a, b, c])).toEqual({
      query_count: 3,
      recall_at_1: 1 / 3,
      recall_at_5: 2 / 3,
      recall_at_10: 2 / 3,
      mrr: 1.25 / 3,
      ndcg_at_10: 0.5,
    });
  });

  it("includes recall@100 only when every query has it, and handles the empty set", () => {
    const q = { recall_at_1: 0, recall_at_5: 0, recall_at_10: 0.5, mrr: 0, ndcg_at_10: 0, recall_at_100: 1, rank_of_first_relevant: 7 };
    expect(aggregateMetrics([q, { ...q, recall_at_100: 0 }]).recall_at_100).toBe(0.5);
    expect(aggregateMetrics([])).toEqual({ query_count: 0, recall_at_1: 0, recall_at_5: 0, recall_at_10: 0, mrr: 0, ndcg_at_10: 0 });
  });
});

describe("latency percentiles (nearest rank)", () => {
  it("picks the sample at rank ceil(p/100 * n)", () => {
    const samples = [35, 20, 15, 50, 40]; // sorted: 15 20 35 40 50
    expect(percentile(samples, 0)).toBe(15); // rank 1
    expect(percentile(samples, 30)).toBe(20); // ceil(1.5) = 2
    expect(percentile(samples, 40)).toBe(20); // ceil(2.0) = 2
    expect(percentile(samples, 50)).toBe(35); // ceil(2.5) = 3
    expect(percentile(samples, 100)).toBe(50); // rank 5
    // 100 samples 1..100: p95 -> rank 95, p99 -> rank 99
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(summarizeLatency(hundred)).toEqual({ p50_ms: 50, p95_ms: 95, p99_ms: 99, samples: 100 });
    expect(summarizeLatency([])).toEqual({ p50_ms: null, p95_ms: null, p99_ms: null, samples: 0 });
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it("times runs after untimed warm-up calls", async () => {
    let now = 0;
    let calls = 0;
    const durations = await timeRuns(
      () => {
        calls++;
        now += calls; // call i takes i ms on the fake clock
      },
      { warmup: 2, runs: 3, now: () => now },
    );
    expect(calls).toBe(5);
    expect(durations).toEqual([3, 4, 5]); // the two warm-up calls are not timed
    await expect(timeRuns(() => undefined, { warmup: -1, runs: 1 })).rejects.toThrow(RangeError);
  });
});
