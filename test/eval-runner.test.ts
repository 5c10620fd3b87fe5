/**
 * The runner over in-memory stages. The stages are test doubles of the runner's own injected
 * seam (EvalStage), not of the index: the index is not involved in what is tested here.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { readBeirQrels, readBeirQueries, type BeirQuery } from "../src/eval/beir.js";
import { pairedBootstrap } from "../src/eval/bootstrap.js";
import type { ResolvedJudgment } from "../src/eval/judgments.js";
import { EvalReportSchema, type EvalReport } from "../src/eval/report.js";
import { runBeirEval, runGoldenEval, type EvalProgress, type EvalStage } from "../src/eval/runner.js";

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "beir-mini");
const INV_LOG2_3 = 0.6309297535714575; // 1/log2(3)

type Result = { doc: string; start: number; end: number };
const r = (doc: string, start: number, end: number): Result => ({ doc, start, end });

/** A stage answering from a table; optionally advances a fake clock by a per-query cost. */
function tableStage(
  name: string,
  isBaseline: boolean,
  table: Record<string, Result[]>,
  clock?: { now: number; cost: Record<string, number> },
): EvalStage & { calls: Array<[string, number]> } {
  const calls: Array<[string, number]> = [];
  return {
    name,
    isBaseline,
    calls,
    async search(query: string, k: number) {
      calls.push([query, k]);
      if (clock) clock.now += clock.cost[query] ?? 0;
      return (table[query] ?? []).slice(0, k);
    },
  };
}

const judgments: ResolvedJudgment[] = [
  { query_id: "adv1", query: "Q adv1", category: "adversarial", gold: [{ doc: "c.md", quote: "x", start: 50, end: 60 }], notes: undefined },
  {
    query_id: "amb1",
    query: "Q amb1",
    category: "ambiguous",
    gold: [
      { doc: "a.md", quote: "x", start: 100, end: 110 },
      { doc: "c.md", quote: "x", start: 0, end: 10 },
    ],
    notes: undefined,
  },
  { query_id: "n1", query: "Q n1", category: "normal", gold: [{ doc: "a.md", quote: "x", start: 10, end: 20 }], notes: undefined },
  { query_id: "n2", query: "Q n2", category: "normal", gold: [{ doc: "b.md", quote: "x", start: 0, end: 5 }], notes: undefined },
  { query_id: "na1", query: "Q na1", category: "no_answer", gold: [], notes: undefined },
  { query_id: "na2", query: "Q na2", category: "no_answer", gold: [], notes: undefined },
];

const bm25Table: Record<string, Result[]> = {
  "Q adv1": [], // nothing relevant: zeros
  "Q amb1": [r("c.md", 0, 10)], // finds one of two answers at rank 1
  "Q n1": [r("a.md", 0, 30)], // rank 1
  "Q n2": [r("x.md", 0, 5), r("b.md", 0, 5)], // rank 2
  "Q na1": [], // abstains
  "Q na2": [r("x.md", 0, 1)], // answers a no_answer query
};
const denseTable: Record<string, Result[]> = {
  "Q adv1": [r("c.md", 55, 56)],
  "Q amb1": [r("a.md", 105, 106), r("c.md", 5, 6)],
  "Q n1": [r("a.md", 15, 16)],
  "Q n2": [r("b.md", 1, 2)],
  "Q na1": [],
  "Q na2": [],
};

function stripVolatile(report: EvalReport): unknown {
  return {
    ...report,
    created_at: "-",
    stages: report.stages.map((s) => ({ ...s, latency_p50_ms: 0, latency_p95_ms: 0, latency_p99_ms: 0 })),
  };
}

describe("runGoldenEval", () => {
  it("scores each stage, excludes no_answer from metrics and counts abstention", async () => {
    const bm25 = tableStage("bm25", true, bm25Table);
    const dense = tableStage("dense", false, denseTable);
    const report = await runGoldenEval(judgments, [bm25, dense], { latencyRuns: 0, now: () => new Date("2025-01-02T03:04:05Z") });
    expect(EvalReportSchema.parse(report)).toEqual(report);
    expect(report.schema_version).toBe(1);
    expect(report.kind).toBe("golden");
    expect(report.created_at).toBe("2025-01-02T03:04:05.000Z");
    expect(report.baseline).toBe("bm25");
    expect(report.config).toMatchObject({ k: 10, judgments: 6, latency_runs: 0, bootstrap: { resamples: 10000, seed: 42, confidence: 0.95 } });

    const [b, d] = report.stages as [EvalReport["stages"][0], EvalReport["stages"][0]];
    expect(b.recall_kind).toBe("hit_rate");
    // Scored queries adv1, amb1, n1, n2 (no_answer excluded):
    //   recall@1 = (0 + 1 + 1 + 0) / 4 = 0.5; recall@5 = (0 + 1 + 1 + 1) / 4 = 0.75
    //   MRR = (0 + 1 + 1 + 0.5) / 4 = 0.625
    //   nDCG = (0 + 1/(1 + 1/log2 3) + 1 + 1/log2 3) / 4 = (0 + 0.6131472 + 1 + 0.6309298) / 4 = 0.5610192
    expect(b.aggregate.query_count).toBe(4);
    expect(b.aggregate.recall_at_1).toBe(0.5);
    expect(b.aggregate.recall_at_5).toBe(0.75);
    expect(b.aggregate.recall_at_10).toBe(0.75);
    expect(b.aggregate.mrr).toBe(0.625);
    expect(b.aggregate.ndcg_at_10).toBeCloseTo(0.561019236584229, 12);
    expect(b.aggregate.recall_at_100).toBeUndefined();
    // normal = n1, n2: nDCG (1 + 0.6309298) / 2 = 0.8154649; MRR (1 + 0.5) / 2
    expect(b.by_category.normal).toMatchObject({ query_count: 2, recall_at_1: 0.5, recall_at_5: 1, mrr: 0.75 });
    expect(b.by_category.normal!.ndcg_at_10).toBeCloseTo(0.8154648767857288, 12);
    expect(b.by_category.ambiguous).toMatchObject({ query_count: 1, recall_at_1: 1, mrr: 1 });
    expect(b.by_category.adversarial).toMatchObject({ query_count: 1, recall_at_1: 0, ndcg_at_10: 0 });
    expect(b.by_category.no_answer).toBeUndefined();
    expect(b.abstention).toEqual({ no_answer_queries: 2, abstained: 1 });
    expect(b.latency_p50_ms).toBeNull();
    expect(b.delta_vs_baseline).toBeUndefined();

    const n2 = b.queries.find((q) => q.query_id === "n2")!;
    expect(n2).toMatchObject({ category: "normal", rank_of_first_relevant: 2, recall_at_1: 0, mrr: 0.5, returned: 2 });
    expect(n2.ndcg_at_10).toBeCloseTo(INV_LOG2_3, 12);
    expect(n2.hits).toEqual([
      { rank: 1, doc: "x.md", start: 0, end: 5, gain: 0 },
      { rank: 2, doc: "b.md", start: 0, end: 5, gain: 1 },
    ]);
    const na2 = b.queries.find((q) => q.query_id === "na2")!;
    expect(na2).toMatchObject({ rank_of_first_relevant: null, recall_at_1: null, ndcg_at_10: null, returned: 1, abstained: false });
    expect(b.queries.find((q) => q.query_id === "na1")!.abstained).toBe(true);
    expect(b.queries.map((q) => q.query_id)).toEqual(["adv1", "amb1", "n1", "n2", "na1", "na2"]);

    expect(d.aggregate).toEqual({ query_count: 4, recall_at_1: 1, recall_at_5: 1, recall_at_10: 1, mrr: 1, ndcg_at_10: 1 });
    expect(d.abstention).toEqual({ no_answer_queries: 2, abstained: 2 });
    // Paired deltas over adv1, amb1, n1, n2 — recall@1: dense [1,1,1,1] − bm25 [0,1,1,0] -> mean 0.5.
    const delta = d.delta_vs_baseline!;
    expect(Object.keys(delta)).toEqual(["recall_at_1", "recall_at_5", "recall_at_10", "mrr", "ndcg_at_10"]);
    expect(delta.recall_at_1).toEqual(pairedBootstrap([1, 1, 1, 1], [0, 1, 1, 0]));
    expect(delta.recall_at_1!.mean).toBe(0.5);
    expect(delta.mrr!.mean).toBe(0.375); // 1 − 0.625
    expect(delta.ndcg_at_10!.mean).toBeCloseTo(1 - 0.561019236584229, 12);

    expect(bm25.calls).toHaveLength(6);
    expect(bm25.calls.every(([, k]) => k === 10)).toBe(true);
  });

  it("is reproducible: same inputs, same numbers (except created_at and latency)", async () => {
    const run = () => runGoldenEval(judgments, [tableStage("bm25", true, bm25Table), tableStage("dense", false, denseTable)], { latencyRuns: 2 });
    const a = await run();
    const b = await run();
    expect(stripVolatile(b)).toEqual(stripVolatile(a));
  });

  it("times repeated passes after the scoring pass and reports nearest-rank percentiles", async () => {
    const clock = { now: 0, cost: { "Q adv1": 1, "Q amb1": 2, "Q n1": 3, "Q n2": 4, "Q na1": 5, "Q na2": 6 } };
    const stage = tableStage("bm25", true, bm25Table, clock);
    const progress: EvalProgress[] = [];
    const report = await runGoldenEval(judgments, [stage], {
      latencyRuns: 3,
      k: 5,
      timer: () => clock.now,
      onProgress: (p) => progress.push(p),
    });
    const s = report.stages[0]!;
    // 6 queries x 3 timed passes = 18 samples: 1,1,1,2,2,2,...,6,6,6.
    // p50: rank ceil(0.50 * 18) = 9 -> 3; p95: rank ceil(17.1) = 18 -> 6; p99: rank ceil(17.82) = 18 -> 6.
    expect(s.latency_samples).toBe(18);
    expect([s.latency_p50_ms, s.latency_p95_ms, s.latency_p99_ms]).toEqual([3, 6, 6]);
    expect(stage.calls).toHaveLength(6 + 18);
    expect(stage.calls.every(([, k]) => k === 5)).toBe(true);
    expect(progress.filter((p) => p.phase === "score").map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.filter((p) => p.phase === "latency")).toHaveLength(18);
    expect(progress.at(-1)).toEqual({ stage: "bm25", phase: "latency", done: 18, total: 18 });
  });

  it("refuses duplicate stage names, two baselines, no stages and invalid results", async () => {
    const t = (name: string, base: boolean) => tableStage(name, base, bm25Table);
    await expect(runGoldenEval(judgments, [t("a", true), t("a", false)])).rejects.toThrow(/Duplicate stage name/);
    await expect(runGoldenEval(judgments, [t("a", true), t("b", true)])).rejects.toThrow(/At most one baseline/);
    await expect(runGoldenEval(judgments, [])).rejects.toThrow(GroundkitError);
    await expect(runGoldenEval(judgments, [t("a", true)], { k: 0 })).rejects.toThrow(/k must be/);
    const broken: EvalStage = { name: "broken", isBaseline: true, search: async () => [{ doc: "a.md", start: 5, end: 2 }] };
    await expect(runGoldenEval(judgments, [broken], { latencyRuns: 0 })).rejects.toThrow(/invalid result/);
  });

  it("runs without a baseline and reports no deltas", async () => {
    const report = await runGoldenEval(judgments, [tableStage("dense", false, denseTable)], { latencyRuns: 0 });
    expect(report.baseline).toBeNull();
    expect(report.stages[0]!.delta_vs_baseline).toBeUndefined();
  });
});

describe("runBeirEval", () => {
  async function fixture(): Promise<{ queries: BeirQuery[]; qrels: Awaited<ReturnType<typeof readBeirQrels>> }> {
    const queries: BeirQuery[] = [];
    for await (const q of readBeirQueries(FIXTURE)) queries.push(q);
    return { queries, qrels: await readBeirQrels(FIXTURE, "test") };
  }

  const table: Record<string, Result[]> = {
    // q1 relevant: d1 (2), d2 (1), d3 (1). Chunks collapse to documents [d3, d2, d9, d1].
    "which drugs reduce fever": [r("d3", 0, 20), r("d3", 20, 40), r("d2", 0, 30), r("d9", 0, 5), r("d1", 10, 50)],
    // q2 relevant: d4 (2); d6 is judged 0. Documents [d6, d4].
    "how does sleep affect memory": [r("d6", 0, 10), r("d4", 0, 10)],
    // q3 relevant: d5, d6. Nothing returned.
    "what improves sleep quality": [],
  };

  it("scores at document level over queries with a relevant qrel", async () => {
    const { queries, qrels } = await fixture();
    const stage = tableStage("bm25", true, table);
    const report = await runBeirEval(queries, qrels, [stage], { latencyRuns: 0 });
    expect(EvalReportSchema.parse(report)).toEqual(report);
    expect(report.kind).toBe("beir");
    // q4 has no qrels in the split (not evaluated); q5 has only a 0-score qrel (excluded, counted).
    expect(report.config).toMatchObject({ chunk_depth: 300, queries_evaluated: 3, queries_without_relevant: 1 });
    expect(stage.calls.map(([q]) => q)).toEqual(["which drugs reduce fever", "how does sleep affect memory", "what improves sleep quality"]);
    expect(stage.calls.every(([, k]) => k === 300)).toBe(true);

    const s = report.stages[0]!;
    expect(s.recall_kind).toBe("set_recall");
    const q1 = s.queries[0]!;
    // q1: recall@1 = |{d3}| / 3; recall@5 = 3/3; MRR = 1
    // DCG = 1/log2 2 + 1/log2 3 + 0/log2 4 + 2/log2 5 = 1 + 0.6309298 + 0 + 0.8613531 = 2.4922829
    // IDCG = 2 + 1/log2 3 + 1/log2 4 = 3.1309298 -> nDCG = 0.7960200534
    expect(q1.recall_at_1).toBeCloseTo(1 / 3, 12);
    expect(q1.recall_at_5).toBe(1);
    expect(q1.recall_at_100).toBe(1);
    expect(q1.mrr).toBe(1);
    expect(q1.ndcg_at_10).toBeCloseTo(0.7960200534283121, 12);
    expect(q1.returned).toBe(5);
    expect(q1.hits).toEqual([
      { rank: 1, doc: "d3", start: 0, end: 20, gain: 1 },
      { rank: 2, doc: "d2", start: 0, end: 30, gain: 1 },
      { rank: 3, doc: "d9", start: 0, end: 5, gain: 0 },
      { rank: 4, doc: "d1", start: 10, end: 50, gain: 2 },
    ]);
    // q2: d4 at document rank 2 -> recall@1 0, MRR 0.5, nDCG = (2/log2 3) / 2 = 0.6309298
    expect(s.queries[1]).toMatchObject({ query_id: "q2", recall_at_1: 0, recall_at_5: 1, mrr: 0.5, rank_of_first_relevant: 2 });
    expect(s.queries[1]!.ndcg_at_10).toBeCloseTo(INV_LOG2_3, 12);
    expect(s.queries[2]).toMatchObject({ query_id: "q3", recall_at_1: 0, ndcg_at_10: 0, returned: 0, rank_of_first_relevant: null });
    // Means over 3 queries: recall@1 = (1/3)/3; recall@5 = 2/3; MRR = 1.5/3; nDCG = (0.7960201 + 0.6309298 + 0)/3
    expect(s.aggregate.query_count).toBe(3);
    expect(s.aggregate.recall_at_1).toBeCloseTo(1 / 9, 12);
    expect(s.aggregate.recall_at_5).toBeCloseTo(2 / 3, 12);
    expect(s.aggregate.recall_at_100).toBeCloseTo(2 / 3, 12);
    expect(s.aggregate.mrr).toBe(0.5);
    expect(s.aggregate.ndcg_at_10).toBeCloseTo(0.4756499356665899, 12);
    expect(s.abstention).toEqual({ no_answer_queries: 0, abstained: 0 });
  });

  it("asks stages for the configured chunk depth and compares against the baseline with recall@100", async () => {
    const { queries, qrels } = await fixture();
    const base = tableStage("bm25", true, table);
    const other = tableStage("hybrid", false, { ...table, "what improves sleep quality": [r("d5", 0, 1), r("d6", 0, 1)] });
    const report = await runBeirEval(queries, qrels, [base, other], { depth: 50, latencyRuns: 0 });
    expect(base.calls.every(([, k]) => k === 50)).toBe(true);
    expect(report.config.chunk_depth).toBe(50);
    const delta = report.stages[1]!.delta_vs_baseline!;
    expect(Object.keys(delta)).toContain("recall_at_100");
    // Only q3 changes: recall@100 0 -> 1, so the mean delta is 1/3.
    expect(delta.recall_at_100!.mean).toBeCloseTo(1 / 3, 12);
  });

  it("fails closed when qrels name a query that queries.jsonl lacks", async () => {
    const { queries, qrels } = await fixture();
    const err = await runBeirEval(queries.filter((q) => q._id !== "q2"), qrels, [tableStage("bm25", true, table)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GroundkitError);
    expect((err as GroundkitError).code).toBe("DATASET_INVALID");
    expect((err as GroundkitError).message).toContain("q2");
  });
});
