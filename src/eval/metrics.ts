/**
 * Retrieval metrics: pure functions over one query's ranked results.
 *
 * Two families:
 *
 * - **Golden** (span level). A result `{doc, start, end}` is relevant when it is in the same
 *   document as a gold span and the half-open ranges overlap. recall@k is a *hit rate* (1 if any
 *   relevant result is in the top k), MRR@10 is 1/rank of the first relevant result in the top 10,
 *   nDCG@10 uses binary gains where each gold span can be found once (see {@link goldenGains}).
 * - **BEIR** (document level). The ranked chunk list is collapsed to first-seen distinct documents;
 *   recall@k is *set recall* |relevant ∩ top-k| / |relevant|, MRR@10 as above, nDCG@10 with the
 *   trec_eval / pytrec_eval definition (what published BEIR tables use): linear gain g = qrel
 *   score, DCG@k = Σ_{i=1..k} g_i / log2(i + 1), IDCG from the qrels sorted by gain descending.
 *
 * Ranking order is the order the stage returned: a stage must break score ties deterministically.
 * Queries with no relevant material (no_answer judgments, BEIR queries without a positive qrel)
 * have no metrics; aggregates exclude them.
 */

/** One ranked result: a span of a document (code-point offsets, half-open). */
export interface RankedSpan {
  doc: string;
  start: number;
  end: number;
}

/** Per-query metrics. `rank_of_first_relevant` is 1-based over everything returned, even past 10 (null if none). */
export interface QueryMetrics {
  recall_at_1: number;
  recall_at_5: number;
  recall_at_10: number;
  /** Reciprocal rank of the first relevant result within the top 10, else 0 (MRR@10). */
  mrr: number;
  ndcg_at_10: number;
  /** BEIR only. */
  recall_at_100?: number;
  rank_of_first_relevant: number | null;
}

/** The metric names that are averaged over queries (and compared with the bootstrap). */
export const GOLDEN_METRICS = ["recall_at_1", "recall_at_5", "recall_at_10", "mrr", "ndcg_at_10"] as const;
/** BEIR adds recall@100. */
export const BEIR_METRICS = [...GOLDEN_METRICS, "recall_at_100"] as const;
/** A metric name. */
export type MetricName = (typeof BEIR_METRICS)[number];

/**
 * Half-open overlap of `[a.start, a.end)` and `[b.start, b.end)` in the same document. Touching is
 * not overlapping, and an empty span overlaps nothing (it holds no text).
 */
export function spansOverlap(a: RankedSpan, b: RankedSpan): boolean {
  return a.doc === b.doc && a.start < a.end && b.start < b.end && a.start < b.end && b.start < a.end;
}

/** The position discount of trec_eval: rank i (1-based) is divided by log2(i + 1). */
export function discount(rank: number): number {
  return Math.log2(rank + 1);
}

/** DCG of gains listed in rank order: Σ g_i / log2(i + 1). */
export function dcg(gains: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < gains.length; i++) s += gains[i]! / discount(i + 1);
  return s;
}

/**
 * Binary gains for golden nDCG: each gold span can be *found* once. A result gains 1 when it can
 * be matched to a gold span it overlaps that no higher-ranked credited result is using (bipartite
 * matching with augmenting paths, so a chunk covering spans A and B followed by a chunk covering
 * only A credits both spans), and 0 otherwise — in particular a second chunk overlapping an
 * already-found answer earns nothing, so returning ten copies of one answer does not look like
 * finding ten answers. The ideal ranking is min(#gold, k) ones.
 */
export function goldenGains(results: readonly RankedSpan[], gold: readonly RankedSpan[]): number[] {
  const matchOfGold = new Array<number>(gold.length).fill(-1); // gold index -> result index
  const overlaps = results.map((r) => gold.map((g, gi) => (spansOverlap(r, g) ? gi : -1)).filter((gi) => gi >= 0));
  const tryAssign = (ri: number, visited: boolean[]): boolean => {
    for (const gi of overlaps[ri]!) {
      if (visited[gi]) continue;
      visited[gi] = true;
      const holder = matchOfGold[gi]!;
      if (holder < 0 || tryAssign(holder, visited)) {
        matchOfGold[gi] = ri;
        return true;
      }
    }
    return false;
  };
  return results.map((_, ri) => (tryAssign(ri, new Array<boolean>(gold.length).fill(false)) ? 1 : 0));
}

/**
 * Score one golden query. `gold` must be non-empty (no_answer queries are not scored).
 *
 * @example
 *   scoreGoldenQuery([{ doc: "a.md", start: 0, end: 10 }], [{ doc: "a.md", start: 5, end: 8 }]).mrr // 1
 */
export function scoreGoldenQuery(results: readonly RankedSpan[], gold: readonly RankedSpan[]): QueryMetrics {
  if (gold.length === 0) throw new RangeError("scoreGoldenQuery needs at least one gold span");
  const top = results.slice(0, 10);
  const first = results.findIndex((r) => gold.some((g) => spansOverlap(r, g)));
  const hitWithin = (k: number): number => (first >= 0 && first < k ? 1 : 0);
  const ideal = dcg(new Array<number>(Math.min(gold.length, 10)).fill(1));
  return {
    recall_at_1: hitWithin(1),
    recall_at_5: hitWithin(5),
    recall_at_10: hitWithin(10),
    mrr: first >= 0 && first < 10 ? 1 / (first + 1) : 0,
    ndcg_at_10: dcg(goldenGains(top, gold)) / ideal,
    rank_of_first_relevant: first >= 0 ? first + 1 : null,
  };
}

/** Collapse a ranked chunk list to distinct documents in first-seen order. */
export function collapseToDocuments(results: readonly { doc: string }[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of results) {
    if (!seen.has(r.doc)) {
      seen.add(r.doc);
      out.push(r.doc);
    }
  }
  return out;
}

/** True when a query has at least one relevant (gain > 0) document, i.e. can be scored. */
export function hasRelevant(qrels: ReadonlyMap<string, number>): boolean {
  for (const g of qrels.values()) if (g > 0) return true;
  return false;
}

/**
 * Score one BEIR query at document level. `rankedDocs` is already collapsed (distinct, in rank
 * order; see {@link collapseToDocuments}). Unjudged documents and negative scores gain 0.
 *
 * @example
 *   scoreBeirQuery(["d2", "d1"], new Map([["d1", 1]])).ndcg_at_10 // (1/log2 3) / 1 ≈ 0.631
 */
export function scoreBeirQuery(rankedDocs: readonly string[], qrels: ReadonlyMap<string, number>): QueryMetrics {
  const gainOf = (d: string): number => Math.max(0, qrels.get(d) ?? 0);
  let relevantCount = 0;
  const idealGains: number[] = [];
  for (const g of qrels.values()) {
    if (g > 0) {
      relevantCount++;
      idealGains.push(g);
    }
  }
  if (relevantCount === 0) throw new RangeError("scoreBeirQuery needs at least one document with gain > 0");
  idealGains.sort((a, b) => b - a);
  const setRecall = (k: number): number => {
    let hits = 0;
    for (const d of rankedDocs.slice(0, k)) if (gainOf(d) > 0) hits++;
    return hits / relevantCount;
  };
  const top10 = rankedDocs.slice(0, 10);
  const first = rankedDocs.findIndex((d) => gainOf(d) > 0);
  return {
    recall_at_1: setRecall(1),
    recall_at_5: setRecall(5),
    recall_at_10: setRecall(10),
    mrr: first >= 0 && first < 10 ? 1 / (first + 1) : 0,
    ndcg_at_10: dcg(top10.map(gainOf)) / dcg(idealGains.slice(0, 10)),
    recall_at_100: setRecall(100),
    rank_of_first_relevant: first >= 0 ? first + 1 : null,
  };
}

/** Aggregate metrics over a set of scored queries. */
export interface AggregateMetrics {
  query_count: number;
  recall_at_1: number;
  recall_at_5: number;
  recall_at_10: number;
  mrr: number;
  ndcg_at_10: number;
  recall_at_100?: number;
}

/** Arithmetic mean, summed in the given order (deterministic); 0 for an empty list. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/**
 * Average per-query metrics. An empty set gives query_count 0 and zero means (reports show the count).
 * recall_at_100 is included when every query carries it.
 */
export function aggregateMetrics(queries: readonly QueryMetrics[]): AggregateMetrics {
  const agg: AggregateMetrics = {
    query_count: queries.length,
    recall_at_1: mean(queries.map((q) => q.recall_at_1)),
    recall_at_5: mean(queries.map((q) => q.recall_at_5)),
    recall_at_10: mean(queries.map((q) => q.recall_at_10)),
    mrr: mean(queries.map((q) => q.mrr)),
    ndcg_at_10: mean(queries.map((q) => q.ndcg_at_10)),
  };
  if (queries.length > 0 && queries.every((q) => q.recall_at_100 !== undefined)) {
    agg.recall_at_100 = mean(queries.map((q) => q.recall_at_100!));
  }
  return agg;
}
