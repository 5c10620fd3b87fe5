/**
 * Terminal rendering of eval reports: aligned plain-text tables (no colour codes, so the output
 * reads the same in a pipe), the comparison table, and a progress bar line for the CLI.
 */
import type { MetricName } from "./metrics.js";
import { reportMetrics, type EvalReport, type ReportComparison } from "./report.js";

/** Short column labels for metric names. */
export const METRIC_LABELS: Record<string, string> = {
  recall_at_1: "R@1",
  recall_at_5: "R@5",
  recall_at_10: "R@10",
  recall_at_100: "R@100",
  mrr: "MRR@10",
  ndcg_at_10: "nDCG@10",
  abstained: "abstained",
  latency_p50_ms: "p50 ms",
  latency_p95_ms: "p95 ms",
  latency_p99_ms: "p99 ms",
};

/**
 * Render rows as an aligned table; the first row is the header. A column whose body cells are all
 * numbers (or intervals, ratios, dashes) is right-aligned, header included.
 */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  const isNum = (c: string): boolean => /^[+-]?[\d.]+%?$|^\[.*\]$|^—$|^\d+\/\d+$|^$/.test(c);
  const body = rows.slice(1);
  const right = widths.map((_, i) => body.length > 0 && body.every((r) => isNum(r[i] ?? "")));
  const line = (r: readonly string[]): string =>
    r
      .map((c, i) => {
        const pad = " ".repeat(widths[i]! - [...c].length);
        return right[i] ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd();
  const out = [line(rows[0] ?? [])];
  out.push(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows.slice(1)) out.push(line(r));
  return out.join("\n");
}

const f3 = (v: number | null | undefined): string => (v === null || v === undefined ? "—" : v.toFixed(3));
const ms = (v: number | null | undefined): string => (v === null || v === undefined ? "—" : v.toFixed(2));
const signed = (v: number | null | undefined, digits = 3): string =>
  v === null || v === undefined ? "—" : `${v >= 0 ? "+" : ""}${v.toFixed(digits)}`;

/**
 * The report as terminal text: one row per stage, deltas against the baseline with their
 * confidence intervals, and the per-category breakdown.
 *
 * @example
 *   process.stdout.write(renderReportText(report) + "\n");
 */
export function renderReportText(report: EvalReport): string {
  const metrics = reportMetrics(report.kind);
  const queryCount = report.stages[0]?.queries.length ?? 0;
  const recallKind = report.stages[0]?.recall_kind === "set_recall" ? "set recall" : "hit rate";
  const parts: string[] = [];
  parts.push(
    `${report.kind} eval · ${queryCount} queries · baseline ${report.baseline ?? "none"} · recall = ${recallKind}`,
  );
  const t = report.timings;
  if (t !== undefined) {
    const s = (n: number) => `${(n / 1000).toFixed(1)} s`;
    const embedded = t.embed_cache_hits + t.embed_cache_misses > 0
      ? ` (embedding ${s(t.embed_ms)}: ${t.embed_cache_misses} chunks embedded, ${t.embed_cache_hits} from the cache)`
      : "";
    parts.push(`time: ingest ${s(t.ingest_ms)}${embedded} · retrieval ${s(t.retrieval_ms)}`);
  }
  const header = ["stage", "scored", ...metrics.map((m) => METRIC_LABELS[m]!)];
  const hasNoAnswer = report.stages.some((s) => s.abstention.no_answer_queries > 0);
  if (hasNoAnswer) header.push("abstained");
  header.push("p50 ms", "p95 ms", "p99 ms");
  const rows: string[][] = [header];
  for (const s of report.stages) {
    const row = [s.is_baseline ? `${s.stage} (baseline)` : s.stage, String(s.aggregate.query_count)];
    for (const m of metrics) row.push(f3(s.aggregate[m]));
    if (hasNoAnswer) row.push(`${s.abstention.abstained}/${s.abstention.no_answer_queries}`);
    row.push(ms(s.latency_p50_ms), ms(s.latency_p95_ms), ms(s.latency_p99_ms));
    rows.push(row);
  }
  parts.push(formatTable(rows));

  const withDeltas = report.stages.filter((s) => s.delta_vs_baseline);
  if (withDeltas.length > 0) {
    const cfg = report.config.bootstrap as { resamples?: number; confidence?: number } | undefined;
    const level = Math.round((cfg?.confidence ?? 0.95) * 100);
    parts.push(
      `\ndelta vs ${report.baseline} (paired bootstrap ${level}% CI, ${cfg?.resamples ?? "?"} resamples)`,
    );
    const drows: string[][] = [["stage", "metric", "delta", "CI", "verdict"]];
    for (const s of withDeltas) {
      for (const m of metrics) {
        const d = s.delta_vs_baseline?.[m];
        if (!d) continue;
        drows.push([s.stage, METRIC_LABELS[m]!, signed(d.mean), `[${signed(d.ci_low)}, ${signed(d.ci_high)}]`, d.verdict]);
      }
    }
    parts.push(formatTable(drows));
  }

  const categories = [...new Set(report.stages.flatMap((s) => Object.keys(s.by_category)))];
  if (report.kind === "golden" && categories.length > 0) {
    parts.push("\nby category (nDCG@10 / R@5 / queries)");
    const crow: string[][] = [["stage", ...categories]];
    for (const s of report.stages) {
      crow.push([
        s.stage,
        ...categories.map((c) => {
          const a = s.by_category[c];
          return a ? `${f3(a.ndcg_at_10)} / ${f3(a.recall_at_5)} / ${a.query_count}` : "—";
        }),
      ]);
    }
    parts.push(formatTable(crow));
  }
  return parts.join("\n");
}

/**
 * A comparison (see `compareReports`) as terminal text.
 *
 * @example
 *   console.log(renderComparisonText(compareReports(current, previous)));
 */
export function renderComparisonText(cmp: ReportComparison): string {
  const parts = [`compare ${cmp.kind} reports: current ${cmp.current_created_at} vs previous ${cmp.previous_created_at}`];
  for (const w of cmp.warnings) parts.push(`warning: ${w}`);
  if (cmp.stages_only_in_current.length) parts.push(`only in current: ${cmp.stages_only_in_current.join(", ")}`);
  if (cmp.stages_only_in_previous.length) parts.push(`only in previous: ${cmp.stages_only_in_previous.join(", ")}`);
  const rows: string[][] = [["stage", "metric", "previous", "current", "delta", "CI", "verdict"]];
  for (const r of cmp.rows) {
    const isLatency = r.metric.startsWith("latency_");
    const isCount = r.metric === "abstained";
    const fmt = isLatency ? ms : isCount ? (v: number | null) => (v === null ? "—" : String(v)) : f3;
    rows.push([
      r.stage,
      METRIC_LABELS[r.metric as MetricName] ?? r.metric,
      fmt(r.previous),
      fmt(r.current),
      isCount ? signed(r.delta, 0) : signed(r.delta, isLatency ? 2 : 3),
      r.ci ? `[${signed(r.ci.ci_low)}, ${signed(r.ci.ci_high)}]` : "",
      r.ci ? r.ci.verdict : "",
    ]);
  }
  parts.push(formatTable(rows));
  return parts.join("\n");
}

/**
 * One progress-bar line, e.g. `bm25 score [#########...........]  45/100`. The CLI redraws it
 * with `\r` on a TTY and prints nothing otherwise.
 *
 * @example
 *   process.stderr.write("\r" + renderProgressBar("bm25 score", 45, 100));
 */
export function renderProgressBar(label: string, done: number, total: number, width = 24): string {
  const frac = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(frac * width);
  const digits = String(total).length;
  return `${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(done).padStart(digits)}/${total}`;
}
