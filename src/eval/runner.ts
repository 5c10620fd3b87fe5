/**
 * The eval runner: scores retrieval stages against golden judgments or a BEIR dataset and builds
 * the report. Stages are injected ({@link EvalStage}), so the harness does not depend on how the
 * index is built — the CLI wraps BM25, dense, hybrid and rerank retrievers as stages.
 *
 * Per stage: one scoring pass over all queries (which also warms caches), then `latencyRuns`
 * timed passes whose per-call durations give p50/p95/p99 (nearest rank). Every non-baseline stage
 * gets a paired bootstrap delta per metric against the baseline over the same queries.
 */
import { performance } from "node:perf_hooks";
import { GroundkitError } from "../core/errors.js";
import type { BeirQrels, BeirQuery } from "./beir.js";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, pairedBootstrap, type BootstrapOptions, type DeltaCI } from "./bootstrap.js";
import { JUDGMENT_CATEGORIES, type ResolvedJudgment } from "./judgments.js";
import { summarizeLatency } from "./latency.js";
import {
  aggregateMetrics,
  collapseToDocuments,
  hasRelevant,
  scoreBeirQuery,
  scoreGoldenQuery,
  spansOverlap,
  type MetricName,
  type QueryMetrics,
  type RankedSpan,
} from "./metrics.js";
import { REPORT_SCHEMA_VERSION, reportMetrics, type Aggregate, type EvalReport, type Hit, type QueryReport, type StageReport } from "./report.js";

/** A retrieval configuration under evaluation. */
export interface EvalStage {
  name: string;
  /** Exactly one stage (BM25) should be the baseline every other stage is compared against. */
  isBaseline: boolean;
  /**
   * Ranked results, best first. `doc` is the corpus-relative document path (golden) or the BEIR
   * `_id`; `start`/`end` are code-point offsets of the chunk in the document's content.
   */
  search(query: string, k: number): Promise<Array<{ doc: string; start: number; end: number }>>;
}

/** Progress callback payload. */
export interface EvalProgress {
  stage: string;
  phase: "score" | "latency";
  done: number;
  total: number;
}

/** Options shared by both evaluations. */
export interface EvalOptions {
  /** Timed passes over all queries after the scoring pass; 0 disables latency (fields null). */
  latencyRuns?: number;
  onProgress?: (p: EvalProgress) => void;
  /** Extra settings echoed into `report.config` (chunking, corpus hash…). */
  config?: Record<string, unknown>;
  bootstrap?: BootstrapOptions;
  /** Clock for `created_at`; injectable for tests. */
  now?: () => Date;
  /** Millisecond timer for latency; injectable for tests. */
  timer?: () => number;
}

/** Options for {@link runGoldenEval}. */
export interface GoldenEvalOptions extends EvalOptions {
  /** Results requested per query (default 10; metrics look at the top 10). */
  k?: number;
}

/** Options for {@link runBeirEval}. */
export interface BeirEvalOptions extends EvalOptions {
  /**
   * Chunks requested per query (default 300): deep enough that collapsing chunks to distinct
   * documents still fills a top-10 — and usually a top-100 — of documents.
   */
  depth?: number;
}

/** Default chunk depth for BEIR. */
export const DEFAULT_BEIR_DEPTH = 300;
/** Default timed passes for golden sets (small, so several passes are cheap). */
export const DEFAULT_GOLDEN_LATENCY_RUNS = 3;
/** Default timed passes for BEIR sets (hundreds of deep queries: one pass is enough samples). */
export const DEFAULT_BEIR_LATENCY_RUNS = 1;

/** One query as the runner sees it, before stage-specific scoring. */
interface EvalQuery {
  id: string;
  text: string;
  category: string;
  /** null: not scored (no_answer). */
  score: ((results: RankedSpan[]) => { metrics: QueryMetrics; hits: Hit[] }) | null;
}

interface RunShape {
  kind: EvalReport["kind"];
  recallKind: StageReport["recall_kind"];
  k: number;
  latencyRuns: number;
  config: Record<string, unknown>;
}

function checkStages(stages: readonly EvalStage[]): void {
  if (stages.length === 0) throw new GroundkitError("INVALID_ARGUMENT", "No stages to evaluate.");
  const names = new Set<string>();
  for (const s of stages) {
    if (!s.name) throw new GroundkitError("INVALID_ARGUMENT", "A stage has an empty name.");
    if (names.has(s.name)) throw new GroundkitError("INVALID_ARGUMENT", `Duplicate stage name ${JSON.stringify(s.name)}.`);
    names.add(s.name);
  }
  const baselines = stages.filter((s) => s.isBaseline);
  if (baselines.length > 1) {
    throw new GroundkitError("INVALID_ARGUMENT", `At most one baseline stage, got ${baselines.map((s) => s.name).join(", ")}.`);
  }
}

function checkInt(name: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min) throw new GroundkitError("INVALID_ARGUMENT", `${name} must be an integer >= ${min}.`);
  return v;
}

async function searchChecked(stage: EvalStage, query: string, k: number): Promise<RankedSpan[]> {
  const results = await stage.search(query, k);
  if (!Array.isArray(results)) throw new GroundkitError("INTERNAL", `Stage ${stage.name} returned a non-array.`);
  for (const r of results) {
    if (typeof r?.doc !== "string" || !Number.isInteger(r.start) || !Number.isInteger(r.end) || r.end < r.start || r.start < 0) {
      throw new GroundkitError("INTERNAL", `Stage ${stage.name} returned an invalid result ${JSON.stringify(r)}.`);
    }
  }
  return results.map((r) => ({ doc: r.doc, start: r.start, end: r.end }));
}

async function runStage(stage: EvalStage, queries: readonly EvalQuery[], shape: RunShape, opts: EvalOptions): Promise<StageReport> {
  const total = queries.length;
  const reports: QueryReport[] = [];
  const scored: QueryMetrics[] = [];
  const byCategory = new Map<string, QueryMetrics[]>();
  let noAnswer = 0;
  let abstained = 0;
  for (let i = 0; i < total; i++) {
    const q = queries[i]!;
    const results = await searchChecked(stage, q.text, shape.k);
    if (q.score === null) {
      noAnswer++;
      if (results.length === 0) abstained++;
      reports.push({
        query_id: q.id,
        query: q.text,
        category: q.category,
        rank_of_first_relevant: null,
        recall_at_1: null,
        recall_at_5: null,
        recall_at_10: null,
        mrr: null,
        ndcg_at_10: null,
        ...(shape.kind === "beir" ? { recall_at_100: null } : {}),
        returned: results.length,
        abstained: results.length === 0,
        hits: results.slice(0, 10).map((r, j) => ({ rank: j + 1, doc: r.doc, start: r.start, end: r.end, gain: 0 })),
      });
    } else {
      const { metrics, hits } = q.score(results);
      scored.push(metrics);
      const list = byCategory.get(q.category) ?? [];
      list.push(metrics);
      byCategory.set(q.category, list);
      reports.push({ query_id: q.id, query: q.text, category: q.category, ...metrics, returned: results.length, hits });
    }
    opts.onProgress?.({ stage: stage.name, phase: "score", done: i + 1, total });
  }

  const timer = opts.timer ?? (() => performance.now());
  const samples: number[] = [];
  const timedTotal = total * shape.latencyRuns;
  for (let run = 0; run < shape.latencyRuns; run++) {
    for (let i = 0; i < total; i++) {
      const t0 = timer();
      await stage.search(queries[i]!.text, shape.k);
      samples.push(timer() - t0);
      opts.onProgress?.({ stage: stage.name, phase: "latency", done: run * total + i + 1, total: timedTotal });
    }
  }
  const latency = summarizeLatency(samples);

  // Canonical category order (then any others alphabetically), so reports diff cleanly.
  const rank = (c: string): number => {
    const i = (JUDGMENT_CATEGORIES as readonly string[]).indexOf(c);
    return i < 0 ? JUDGMENT_CATEGORIES.length : i;
  };
  const cats = [...byCategory.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const by_category: Record<string, Aggregate> = {};
  for (const cat of cats) by_category[cat] = aggregateMetrics(byCategory.get(cat)!);
  return {
    stage: stage.name,
    is_baseline: stage.isBaseline,
    recall_kind: shape.recallKind,
    aggregate: aggregateMetrics(scored),
    by_category,
    abstention: { no_answer_queries: noAnswer, abstained },
    latency_p50_ms: latency.p50_ms,
    latency_p95_ms: latency.p95_ms,
    latency_p99_ms: latency.p99_ms,
    latency_samples: latency.samples,
    queries: reports,
  };
}

/** Per-metric paired bootstrap of `stage` against `baseline` over the queries both scored. */
function deltasAgainst(stage: StageReport, baseline: StageReport, metrics: readonly MetricName[], bootstrap: BootstrapOptions): Record<string, DeltaCI> {
  const base = new Map(baseline.queries.map((q) => [q.query_id, q]));
  const out: Record<string, DeltaCI> = {};
  for (const m of metrics) {
    const a: number[] = [];
    const b: number[] = [];
    for (const q of stage.queries) {
      const x = q[m];
      const y = base.get(q.query_id)?.[m];
      if (typeof x === "number" && typeof y === "number") {
        a.push(x);
        b.push(y);
      }
    }
    out[m] = pairedBootstrap(a, b, bootstrap);
  }
  return out;
}

async function run(stages: readonly EvalStage[], queries: readonly EvalQuery[], shape: RunShape, opts: EvalOptions): Promise<EvalReport> {
  checkStages(stages);
  const reports: StageReport[] = [];
  for (const s of stages) reports.push(await runStage(s, queries, shape, opts));
  const baseline = reports.find((r) => r.is_baseline);
  const metrics = reportMetrics(shape.kind);
  const bootstrap = opts.bootstrap ?? {};
  if (baseline) {
    for (const r of reports) if (r !== baseline) r.delta_vs_baseline = deltasAgainst(r, baseline, metrics, bootstrap);
  }
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    kind: shape.kind,
    created_at: (opts.now ?? (() => new Date()))().toISOString(),
    config: {
      ...opts.config,
      ...shape.config,
      latency_runs: shape.latencyRuns,
      bootstrap: {
        resamples: bootstrap.resamples ?? BOOTSTRAP_RESAMPLES,
        seed: bootstrap.seed ?? BOOTSTRAP_SEED,
        confidence: bootstrap.confidence ?? 0.95,
      },
    },
    baseline: baseline?.stage ?? null,
    stages: reports,
  };
}

/**
 * Evaluate stages against quote-anchored judgments (span-level, hit-rate recall). no_answer
 * judgments are not scored; they count toward abstention (a stage abstains by returning nothing).
 *
 * @example
 *   const judgments = await loadJudgments("evals/judgments.jsonl", "evals/corpus");
 *   const report = await runGoldenEval(judgments, [bm25Stage, hybridStage], { latencyRuns: 3 });
 */
export async function runGoldenEval(
  judgments: readonly ResolvedJudgment[],
  stages: readonly EvalStage[],
  opts: GoldenEvalOptions = {},
): Promise<EvalReport> {
  const k = checkInt("k", opts.k ?? 10, 1);
  const latencyRuns = checkInt("latencyRuns", opts.latencyRuns ?? DEFAULT_GOLDEN_LATENCY_RUNS, 0);
  const queries: EvalQuery[] = judgments.map((j) => ({
    id: j.query_id,
    text: j.query,
    category: j.category,
    score:
      j.gold.length === 0
        ? null
        : (results) => {
            const gold = j.gold.map((g) => ({ doc: g.doc, start: g.start, end: g.end }));
            const hits = results.slice(0, 10).map((r, i) => ({
              rank: i + 1,
              doc: r.doc,
              start: r.start,
              end: r.end,
              gain: gold.some((g) => spansOverlap(r, g)) ? 1 : 0,
            }));
            return { metrics: scoreGoldenQuery(results, gold), hits };
          },
  }));
  return run(stages, queries, { kind: "golden", recallKind: "hit_rate", k, latencyRuns, config: { k, judgments: judgments.length } }, opts);
}

/**
 * Evaluate stages on a BEIR dataset at document level (set recall, graded nDCG). Evaluated
 * queries are those with at least one qrel of gain > 0, in `queries` order; qrels naming a query
 * missing from `queries` are an error (the dataset is inconsistent).
 *
 * @example
 *   const queries = []; for await (const q of readBeirQueries(dir)) queries.push(q);
 *   const report = await runBeirEval(queries, await readBeirQrels(dir, "test"), [bm25Stage]);
 */
export async function runBeirEval(
  queries: readonly BeirQuery[],
  qrels: BeirQrels,
  stages: readonly EvalStage[],
  opts: BeirEvalOptions = {},
): Promise<EvalReport> {
  const depth = checkInt("depth", opts.depth ?? DEFAULT_BEIR_DEPTH, 1);
  const latencyRuns = checkInt("latencyRuns", opts.latencyRuns ?? DEFAULT_BEIR_LATENCY_RUNS, 0);
  const known = new Set(queries.map((q) => q._id));
  const missing = [...qrels.keys()].filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw new GroundkitError(
      "DATASET_INVALID",
      `${missing.length} qrels queries are missing from queries.jsonl (e.g. ${missing.slice(0, 5).join(", ")}).`,
      { missing: missing.slice(0, 20) },
    );
  }
  let withoutRelevant = 0;
  const evalQueries: EvalQuery[] = [];
  for (const q of queries) {
    const rels = qrels.get(q._id);
    if (!rels) continue;
    if (!hasRelevant(rels)) {
      withoutRelevant++;
      continue;
    }
    evalQueries.push({
      id: q._id,
      text: q.text,
      category: "beir",
      score: (results) => {
        const docs = collapseToDocuments(results);
        const firstChunk = new Map<string, RankedSpan>();
        for (const r of results) if (!firstChunk.has(r.doc)) firstChunk.set(r.doc, r);
        const hits = docs.slice(0, 10).map((d, i) => {
          const c = firstChunk.get(d)!;
          return { rank: i + 1, doc: d, start: c.start, end: c.end, gain: Math.max(0, rels.get(d) ?? 0) };
        });
        return { metrics: scoreBeirQuery(docs, rels), hits };
      },
    });
  }
  return run(
    stages,
    evalQueries,
    {
      kind: "beir",
      recallKind: "set_recall",
      k: depth,
      latencyRuns,
      config: { chunk_depth: depth, queries_evaluated: evalQueries.length, queries_without_relevant: withoutRelevant },
    },
    opts,
  );
}
