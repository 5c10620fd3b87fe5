import { describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import type { ResolvedJudgment } from "../src/eval/judgments.js";
import { compareReports, parseEvalReport, type EvalReport } from "../src/eval/report.js";
import { escapeHtml, renderReportHtml } from "../src/eval/report-html.js";
import { formatTable, renderComparisonText, renderProgressBar, renderReportText } from "../src/eval/report-text.js";
import { runGoldenEval, type EvalStage } from "../src/eval/runner.js";

/** 30 scored judgments (q00..q29, each with one gold span in its own doc) plus two no_answer ones. */
const judgments: ResolvedJudgment[] = [
  ...Array.from({ length: 30 }, (_, i) => ({
    query_id: `q${String(i).padStart(2, "0")}`,
    query: i === 0 ? `<script>alert("x")</script> & friends` : `query ${i}`,
    category: i % 3 === 0 ? ("ambiguous" as const) : ("normal" as const),
    gold: [{ doc: `d${i}.md`, quote: "x", start: 0, end: 10 }],
    notes: undefined,
  })),
  { query_id: "z-na1", query: "sourdough", category: "no_answer", gold: [], notes: undefined },
  { query_id: "z-na2", query: "levain", category: "no_answer", gold: [], notes: undefined },
];
const docOf = (q: string): string => `d${judgments.findIndex((j) => j.query === q)}.md`;

/** Finds the answer at rank 1 for queries whose index satisfies `hit`, nothing for no_answer queries. */
function stage(name: string, isBaseline: boolean, hit: (i: number) => boolean): EvalStage {
  return {
    name,
    isBaseline,
    async search(query: string) {
      const i = judgments.findIndex((j) => j.query === query);
      if (judgments[i]!.category === "no_answer") return [];
      return hit(i) ? [{ doc: docOf(query), start: 0, end: 5 }] : [{ doc: "other.md", start: 0, end: 5 }];
    },
  };
}

const at = (iso: string) => () => new Date(iso);

async function reports(): Promise<{ previous: EvalReport; current: EvalReport }> {
  const previous = await runGoldenEval(judgments, [stage("bm25", true, (i) => i % 2 === 0), stage("dense", false, () => false)], {
    latencyRuns: 0,
    now: at("2025-01-01T00:00:00Z"),
    config: { chunk_size: 512 },
  });
  const current = await runGoldenEval(
    judgments,
    [stage("bm25", true, (i) => i % 2 === 0), stage("dense", false, () => true), stage("hybrid & rerank", false, (i) => i < 20)],
    { latencyRuns: 1, now: at("2025-02-01T00:00:00Z"), config: { chunk_size: 1024 } },
  );
  return { previous, current };
}

describe("parseEvalReport", () => {
  it("round-trips a runner report through JSON", async () => {
    const { current } = await reports();
    expect(parseEvalReport(JSON.parse(JSON.stringify(current)))).toEqual(current);
  });

  it("refuses another schema version and non-reports", async () => {
    const { current } = await reports();
    const v2 = { ...JSON.parse(JSON.stringify(current)), schema_version: 2 };
    expect(() => parseEvalReport(v2)).toThrow(/schema_version 2/);
    expect(() => parseEvalReport({ schema_version: 1, kind: "golden" })).toThrow(GroundkitError);
    expect(() => parseEvalReport(null)).toThrow(/schema_version/);
  });
});

describe("compareReports", () => {
  it("computes per stage and metric deltas with paired CIs", async () => {
    const { previous, current } = await reports();
    const cmp = compareReports(current, previous);
    expect(cmp.kind).toBe("golden");
    expect(cmp.stages_only_in_current).toEqual(["hybrid & rerank"]);
    expect(cmp.stages_only_in_previous).toEqual([]);
    expect(cmp.warnings).toEqual(["config differs: chunk_size, latency_runs"]);

    const row = (s: string, m: string) => cmp.rows.find((x) => x.stage === s && x.metric === m)!;
    // dense went from 0/30 to 30/30 at rank 1: every per-query delta is +1.
    expect(row("dense", "recall_at_1")).toMatchObject({ previous: 0, current: 1, delta: 1, paired_queries: 30 });
    expect(row("dense", "recall_at_1").ci).toEqual({ mean: 1, ci_low: 1, ci_high: 1, verdict: "better" });
    // bm25 did not change.
    expect(row("bm25", "ndcg_at_10")).toMatchObject({ previous: 0.5, current: 0.5, delta: 0 });
    expect(row("bm25", "ndcg_at_10").ci!.verdict).toBe("indistinguishable");
    // abstention and latency rows: previous ran without latency, so its latency is null.
    expect(row("dense", "abstained")).toMatchObject({ previous: 2, current: 2, delta: 0 });
    expect(row("bm25", "latency_p95_ms")).toMatchObject({ previous: null, delta: null, higher_is_better: false });
    expect(cmp.rows.some((x) => x.stage === "hybrid & rerank")).toBe(false);

    const reverse = compareReports(previous, current);
    expect(reverse.rows.find((x) => x.stage === "dense" && x.metric === "mrr")!.ci!.verdict).toBe("worse");
    expect(reverse.stages_only_in_previous).toEqual(["hybrid & rerank"]);
  });

  it("refuses to compare golden with BEIR reports", async () => {
    const { previous, current } = await reports();
    expect(() => compareReports(current, { ...previous, kind: "beir" })).toThrow(/Cannot compare a golden report with a beir report/);
  });

  it("warns when the query sets differ", async () => {
    const { previous, current } = await reports();
    const trimmed = { ...previous, stages: previous.stages.map((s) => ({ ...s, queries: s.queries.slice(1) })) };
    const cmp = compareReports(current, trimmed);
    expect(cmp.warnings).toContain("bm25: 1 queries appear in only one report");
    expect(cmp.rows.find((x) => x.stage === "bm25" && x.metric === "mrr")!.paired_queries).toBe(29);
  });
});

describe("renderReportText", () => {
  it("shows a row per stage, the deltas and the category breakdown", async () => {
    const { current } = await reports();
    const text = renderReportText(current);
    const lines = text.split("\n");
    expect(lines[0]).toBe("golden eval · 32 queries · baseline bm25 · recall = hit rate");
    expect(lines[1]).toMatch(/^stage\s+scored\s+R@1\s+R@5\s+R@10\s+MRR@10\s+nDCG@10\s+abstained\s+p50 ms\s+p95 ms\s+p99 ms$/);
    expect(text).toMatch(/^bm25 \(baseline\)\s+30\s+0\.500\s+0\.500\s+0\.500\s+0\.500\s+0\.500\s+2\/2/m);
    expect(text).toMatch(/^dense\s+30\s+1\.000/m);
    expect(text).toMatch(/^hybrid & rerank\s+30\s+0\.667/m);
    expect(text).toContain("delta vs bm25 (paired bootstrap 95% CI, 10000 resamples)");
    expect(text).toMatch(/^dense\s+R@1\s+\+0\.500\s+\[\+0\.333, \+0\.667\]\s+better$/m);
    expect(text).toContain("by category (nDCG@10 / R@5 / queries)");
    expect(text).toMatch(/^stage\s+normal\s+ambiguous$/m); // canonical category order
    expect(text).toMatch(/^dense\s+1\.000 \/ 1\.000 \/ 20\s+1\.000 \/ 1\.000 \/ 10$/m);
  });

  it("renders a comparison table", async () => {
    const { previous, current } = await reports();
    const text = renderComparisonText(compareReports(current, previous));
    expect(text).toContain("compare golden reports: current 2025-02-01T00:00:00.000Z vs previous 2025-01-01T00:00:00.000Z");
    expect(text).toContain("warning: config differs: chunk_size, latency_runs");
    expect(text).toContain("only in current: hybrid & rerank");
    expect(text).toMatch(/^dense\s+R@1\s+0\.000\s+1\.000\s+\+1\.000\s+\[\+1\.000, \+1\.000\]\s+better$/m);
    expect(text).toMatch(/^bm25\s+p50 ms\s+—\s+[\d.]+\s+—$/m);
  });

  it("aligns tables and draws a progress bar", () => {
    expect(formatTable([["a", "n"], ["long", "1.5"]])).toBe("a       n\n----  ---\nlong  1.5");
    expect(renderProgressBar("bm25 score", 5, 10, 10)).toBe("bm25 score [#####.....]  5/10");
    expect(renderProgressBar("x", 0, 0, 4)).toBe("x [####] 0/0");
  });
});

describe("renderReportHtml", () => {
  it("is self-contained, escapes text and includes every stage", async () => {
    const { previous, current } = await reports();
    const html = renderReportHtml(current, { comparison: compareReports(current, previous) });
    expect(html.startsWith("<!doctype html>")).toBe(true);
    // No external resources of any kind: no http(s) URLs at all, no <link>, no @import, no url(), no scripts.
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<link\b|@import|url\(/i);
    expect(html).not.toMatch(/<script/i);
    // The query text is escaped, not executed.
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; friends");
    for (const s of current.stages) expect(html).toContain(escapeHtml(s.stage));
    expect(html).toContain("hybrid &amp; rerank");
    expect(html).not.toContain("hybrid & rerank");
    // Inline charts: one per metric, plus the latency plot and the CI glyphs.
    expect(html.match(/<svg /g)!.length).toBeGreaterThanOrEqual(5 + 1);
    for (const label of ["R@1", "R@5", "R@10", "MRR@10", "nDCG@10"]) expect(html).toContain(`aria-label="${label}"`);
    expect(html).toContain('aria-label="latency per stage"');
    expect(html).toContain("<h2>By category</h2>");
    expect(html).toMatch(/<td>ambiguous<\/td>/);
    expect(html).toContain("Compared with the report of 2025-01-01T00:00:00.000Z");
    expect(html).toContain("<style>");
  });

  it("says so when latency was not measured", async () => {
    const { previous } = await reports();
    expect(renderReportHtml(previous)).toContain("No latency samples");
  });

  it("escapes all five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});
