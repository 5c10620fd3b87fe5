/**
 * The eval report: a versioned JSON document (schema + types), and the comparison of two reports.
 *
 * Shape (schema_version 1; readers written against an earlier report keep working, fields are only added):
 *
 * ```
 * { schema_version: 1, kind: "golden" | "beir", created_at, config: {...}, baseline: "bm25" | null,
 *   stages: [{ stage, is_baseline, recall_kind, aggregate, by_category, abstention,
 *              latency_p50_ms, latency_p95_ms, latency_p99_ms, latency_samples,
 *              delta_vs_baseline?, queries: [...] }] }
 * ```
 *
 * Everything except `created_at` and the latency fields is a pure function of the inputs.
 */
import { z } from "zod";
import { GroundkitError } from "../core/errors.js";
import { pairedBootstrap, type BootstrapOptions, type DeltaCI } from "./bootstrap.js";
import { BEIR_METRICS, type MetricName } from "./metrics.js";
import { formatIssues } from "../core/validation.js";

/** The report schema version this module writes and reads. */
export const REPORT_SCHEMA_VERSION = 1;

const num = z.number();
const nullableNum = z.number().nullable();

/** Aggregate metrics over a set of scored queries. */
export const AggregateSchema = z.object({
  query_count: z.number().int().min(0),
  recall_at_1: num,
  recall_at_5: num,
  recall_at_10: num,
  mrr: num,
  ndcg_at_10: num,
  recall_at_100: num.optional(),
});
/** Aggregate metrics over a set of scored queries. */
export type Aggregate = z.infer<typeof AggregateSchema>;

/** A metric's delta against the baseline, with its paired-bootstrap CI. */
export const DeltaSchema = z.object({
  mean: num,
  ci_low: num,
  ci_high: num,
  verdict: z.enum(["better", "worse", "indistinguishable"]),
});

/** One of a query's top results. Golden: gain 1 if it overlaps a gold span; BEIR: the doc's qrel gain. */
export const HitSchema = z.object({
  rank: z.number().int().min(1),
  doc: z.string(),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  gain: num,
});
/** One of a query's top results. */
export type Hit = z.infer<typeof HitSchema>;

/** A query's outcome for one stage. Metric fields are null for queries that are not scored (no_answer). */
export const QueryReportSchema = z.object({
  query_id: z.string(),
  query: z.string(),
  category: z.string(),
  rank_of_first_relevant: z.number().int().min(1).nullable(),
  recall_at_1: nullableNum,
  recall_at_5: nullableNum,
  recall_at_10: nullableNum,
  mrr: nullableNum,
  ndcg_at_10: nullableNum,
  recall_at_100: nullableNum.optional(),
  /** Results the stage returned (before any truncation). */
  returned: z.number().int().min(0),
  /** no_answer queries only: true when the stage returned nothing. */
  abstained: z.boolean().optional(),
  hits: z.array(HitSchema),
});
/** A query's outcome for one stage. */
export type QueryReport = z.infer<typeof QueryReportSchema>;

/** One stage's results. */
export const StageReportSchema = z.object({
  stage: z.string().min(1),
  is_baseline: z.boolean(),
  /** Golden recall is a hit rate (any relevant in top k); BEIR recall is set recall. */
  recall_kind: z.enum(["hit_rate", "set_recall"]),
  aggregate: AggregateSchema,
  by_category: z.record(z.string(), AggregateSchema),
  abstention: z.object({ no_answer_queries: z.number().int().min(0), abstained: z.number().int().min(0) }),
  latency_p50_ms: nullableNum,
  latency_p95_ms: nullableNum,
  latency_p99_ms: nullableNum,
  latency_samples: z.number().int().min(0),
  delta_vs_baseline: z.record(z.string(), DeltaSchema).optional(),
  queries: z.array(QueryReportSchema),
});
/** One stage's results. */
export type StageReport = z.infer<typeof StageReportSchema>;

/** The whole report. */
export const EvalReportSchema = z.object({
  schema_version: z.literal(REPORT_SCHEMA_VERSION),
  kind: z.enum(["golden", "beir"]),
  created_at: z.string(),
  /** Echo of the settings that produced the run (k, depths, bootstrap, plus whatever the caller adds). */
  config: z.record(z.string(), z.unknown()),
  /** Name of the baseline stage, or null when no stage is the baseline. */
  baseline: z.string().nullable(),
  stages: z.array(StageReportSchema),
  /**
   * Where the time went (absent in older reports): corpus ingest (embedding included), the part of it
   * spent in the embedding model, texts answered by the embedding cache vs embedded, and the scoring
   * + latency passes.
   */
  timings: z
    .object({
      ingest_ms: z.number(),
      embed_ms: z.number(),
      embed_cache_hits: z.number().int(),
      embed_cache_misses: z.number().int(),
      retrieval_ms: z.number(),
    })
    .optional(),
});
/** The whole report. */
export type EvalReport = z.infer<typeof EvalReportSchema>;

/** The metrics a report's stages carry: BEIR reports add recall@100. */
export function reportMetrics(kind: EvalReport["kind"]): readonly MetricName[] {
  return kind === "beir" ? BEIR_METRICS : BEIR_METRICS.slice(0, 5);
}

/**
 * Validate a parsed JSON value as a report (e.g. an earlier `--output` file for `--compare`).
 * Unknown extra fields are ignored; another schema_version is refused rather than misread.
 *
 * @example
 *   const previous = parseEvalReport(JSON.parse(await readFile("evals/results/previous.json", "utf8")));
 */
export function parseEvalReport(value: unknown): EvalReport {
  const version = (value as { schema_version?: unknown } | null)?.schema_version;
  if (version !== REPORT_SCHEMA_VERSION) {
    throw new GroundkitError(
      "REPORT_INVALID",
      `Unsupported report schema_version ${JSON.stringify(version)} (this groundkit reads ${REPORT_SCHEMA_VERSION}).`,
    );
  }
  const parsed = EvalReportSchema.safeParse(value);
  if (!parsed.success) {
    throw new GroundkitError("REPORT_INVALID", `Not an eval report: ${formatIssues(parsed.error, { max: 5 })}`);
  }
  return parsed.data;
}

/** Latency fields compared (lower is better; no CI: timings are not paired per query). */
export const LATENCY_FIELDS = ["latency_p50_ms", "latency_p95_ms", "latency_p99_ms"] as const;

/** One row of a report comparison. */
export interface ComparisonRow {
  stage: string;
  metric: string;
  current: number | null;
  previous: number | null;
  /** current − previous, null when either side is missing. */
  delta: number | null;
  higher_is_better: boolean;
  /** Quality metrics only: paired bootstrap over the queries both reports scored. */
  ci?: DeltaCI;
  paired_queries?: number;
}

/** The delta table between two reports of the same kind. */
export interface ReportComparison {
  kind: EvalReport["kind"];
  current_created_at: string;
  previous_created_at: string;
  rows: ComparisonRow[];
  stages_only_in_current: string[];
  stages_only_in_previous: string[];
  /** Reasons the numbers may not be comparable (config or query-set differences). */
  warnings: string[];
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * Compare two reports stage by stage (stages matched by name): aggregate deltas, a paired
 * bootstrap CI per quality metric over the queries both scored (matched by query_id), latency
 * deltas, and abstention. Throws REPORT_INVALID when the kinds differ (golden vs BEIR).
 *
 * @example
 *   const cmp = compareReports(current, previous);
 *   cmp.rows.find((r) => r.stage === "bm25" && r.metric === "ndcg_at_10")?.delta
 */
export function compareReports(
  current: EvalReport,
  previous: EvalReport,
  bootstrap: BootstrapOptions = {},
): ReportComparison {
  if (current.kind !== previous.kind) {
    throw new GroundkitError(
      "REPORT_INVALID",
      `Cannot compare a ${current.kind} report with a ${previous.kind} report.`,
    );
  }
  const warnings: string[] = [];
  const keys = [...new Set([...Object.keys(current.config), ...Object.keys(previous.config)])].sort();
  const differing = keys.filter((k) => stableJson(current.config[k]) !== stableJson(previous.config[k]));
  if (differing.length > 0) warnings.push(`config differs: ${differing.join(", ")}`);

  const prevByName = new Map(previous.stages.map((s) => [s.stage, s]));
  const curNames = new Set(current.stages.map((s) => s.stage));
  const rows: ComparisonRow[] = [];
  const metrics = reportMetrics(current.kind);
  for (const cur of current.stages) {
    const prev = prevByName.get(cur.stage);
    if (!prev) continue;
    const prevQueries = new Map(prev.queries.map((q) => [q.query_id, q]));
    const curIds = new Set(cur.queries.map((q) => q.query_id));
    const onlyOne =
      cur.queries.filter((q) => !prevQueries.has(q.query_id)).length +
      prev.queries.filter((q) => !curIds.has(q.query_id)).length;
    if (onlyOne > 0) warnings.push(`${cur.stage}: ${onlyOne} queries appear in only one report`);
    for (const m of metrics) {
      const a = cur.aggregate[m];
      const b = prev.aggregate[m];
      const curVals: number[] = [];
      const prevVals: number[] = [];
      for (const q of cur.queries) {
        const p = prevQueries.get(q.query_id);
        const x = q[m];
        const y = p?.[m];
        if (typeof x === "number" && typeof y === "number") {
          curVals.push(x);
          prevVals.push(y);
        }
      }
      const row: ComparisonRow = {
        stage: cur.stage,
        metric: m,
        current: a ?? null,
        previous: b ?? null,
        delta: a !== undefined && b !== undefined ? a - b : null,
        higher_is_better: true,
      };
      if (curVals.length > 0) {
        row.ci = pairedBootstrap(curVals, prevVals, bootstrap);
        row.paired_queries = curVals.length;
      }
      rows.push(row);
    }
    if (cur.abstention.no_answer_queries > 0 || prev.abstention.no_answer_queries > 0) {
      rows.push({
        stage: cur.stage,
        metric: "abstained",
        current: cur.abstention.abstained,
        previous: prev.abstention.abstained,
        delta: cur.abstention.abstained - prev.abstention.abstained,
        higher_is_better: true,
      });
    }
    for (const f of LATENCY_FIELDS) {
      const a = cur[f];
      const b = prev[f];
      rows.push({
        stage: cur.stage,
        metric: f,
        current: a,
        previous: b,
        delta: a !== null && b !== null ? a - b : null,
        higher_is_better: false,
      });
    }
  }
  return {
    kind: current.kind,
    current_created_at: current.created_at,
    previous_created_at: previous.created_at,
    rows,
    stages_only_in_current: current.stages.filter((s) => !prevByName.has(s.stage)).map((s) => s.stage),
    stages_only_in_previous: previous.stages.filter((s) => !curNames.has(s.stage)).map((s) => s.stage),
    warnings,
  };
}
