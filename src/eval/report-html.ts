/**
 * A self-contained HTML eval report: inline CSS, inline SVG charts, no scripts, no external
 * resources (it opens offline from a file). All text from the report — stage names, query text,
 * document names, config values — is HTML-escaped.
 */
import type { MetricName } from "./metrics.js";
import { reportMetrics, type EvalReport, type ReportComparison, type StageReport } from "./report.js";
import { METRIC_LABELS } from "./report-text.js";

/** Escape text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#eeca3b", "#9d755d"];
const colour = (i: number): string => PALETTE[i % PALETTE.length]!;
const f3 = (v: number | null | undefined): string => (v === null || v === undefined ? "—" : v.toFixed(3));
const ms = (v: number | null | undefined): string => (v === null || v === undefined ? "—" : v.toFixed(2));
const signed = (v: number): string => `${v >= 0 ? "+" : ""}${v.toFixed(3)}`;
const px = (v: number): string => (Math.round(v * 10) / 10).toString();

const CSS = `
:root{color-scheme:light dark;--fg:#1d1f23;--muted:#5f6670;--bg:#fff;--line:#d9dde3;--soft:#f4f6f8}
@media (prefers-color-scheme:dark){:root{--fg:#e7e9ec;--muted:#a1a8b3;--bg:#16181c;--line:#343941;--soft:#1f2228}}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;padding:24px;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:14px;margin:12px 0 4px}
.meta{color:var(--muted);margin:0 0 12px}
table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}td.n{text-align:right;white-space:nowrap}
.better{color:#2f8a3b;font-weight:600}.worse{color:#c23b3b;font-weight:600}.indistinguishable{color:var(--muted)}
.charts{display:flex;flex-wrap:wrap;gap:16px}
.chart{border:1px solid var(--line);border-radius:6px;padding:8px;background:var(--soft)}
svg text{fill:var(--fg);font:12px system-ui,sans-serif}
svg .axis{stroke:var(--muted);stroke-width:1}
details{margin:6px 0}summary{cursor:pointer;font-weight:600}
td.q{max-width:520px}
pre{background:var(--soft);padding:8px;overflow:auto;border-radius:6px}
`;

/** A horizontal bar chart: one bar per stage, values in [0, max]. */
function barChart(title: string, bars: { label: string; value: number | null; colour: string }[], max: number): string {
  const labelW = 130;
  const barW = 220;
  const rowH = 22;
  const h = 24 + bars.length * rowH + 6;
  const w = labelW + barW + 60;
  const rows = bars
    .map((b, i) => {
      const y = 24 + i * rowH;
      const len = b.value === null || max <= 0 ? 0 : (Math.min(b.value, max) / max) * barW;
      return (
        `<text x="${labelW - 6}" y="${y + 14}" text-anchor="end">${escapeHtml(b.label)}</text>` +
        `<rect x="${labelW}" y="${y + 3}" width="${px(len)}" height="${rowH - 8}" fill="${b.colour}"><title>${escapeHtml(
          `${b.label}: ${b.value === null ? "—" : b.value.toFixed(4)}`,
        )}</title></rect>` +
        `<text x="${px(labelW + len + 4)}" y="${y + 14}">${b.value === null ? "—" : b.value.toFixed(3)}</text>`
      );
    })
    .join("");
  return (
    `<svg width="${w}" height="${h}" role="img" aria-label="${escapeHtml(title)}">` +
    `<text x="4" y="15" font-weight="600">${escapeHtml(title)}</text>` +
    `<line class="axis" x1="${labelW}" y1="22" x2="${labelW}" y2="${h - 4}"/>` +
    rows +
    `</svg>`
  );
}

/** Grouped bars of p50/p95/p99 per stage, on one shared millisecond scale. */
function latencyPlot(stages: readonly StageReport[]): string {
  const fields = [
    ["p50", "latency_p50_ms"],
    ["p95", "latency_p95_ms"],
    ["p99", "latency_p99_ms"],
  ] as const;
  const values = stages.flatMap((s) => fields.map(([, f]) => s[f]).filter((v): v is number => v !== null));
  if (values.length === 0) return `<p class="meta">No latency samples (latency runs disabled).</p>`;
  const max = Math.max(...values, 1e-9);
  const labelW = 130;
  const barW = 320;
  const rowH = 16;
  const groupH = fields.length * rowH + 10;
  const h = 30 + stages.length * groupH;
  const w = labelW + barW + 90;
  const shades = ["#72b7b2", "#4c78a8", "#1d3f63"];
  let body = "";
  stages.forEach((s, si) => {
    const y0 = 24 + si * groupH;
    body += `<text x="${labelW - 6}" y="${y0 + rowH + 10}" text-anchor="end">${escapeHtml(s.stage)}</text>`;
    fields.forEach(([name, f], fi) => {
      const v = s[f];
      const y = y0 + fi * rowH;
      const len = v === null ? 0 : (v / max) * barW;
      body +=
        `<rect x="${labelW}" y="${y + 2}" width="${px(len)}" height="${rowH - 4}" fill="${shades[fi]}">` +
        `<title>${escapeHtml(`${s.stage} ${name}: ${ms(v)} ms`)}</title></rect>` +
        `<text x="${px(labelW + len + 4)}" y="${y + rowH - 3}">${name} ${ms(v)} ms</text>`;
    });
  });
  return (
    `<svg width="${w}" height="${h}" role="img" aria-label="latency per stage">` +
    `<text x="4" y="15" font-weight="600">latency per query (ms, nearest-rank percentiles)</text>` +
    `<line class="axis" x1="${labelW}" y1="22" x2="${labelW}" y2="${h - 4}"/>${body}</svg>`
  );
}

/** A small interval plot of one CI against zero. */
function ciGlyph(low: number, high: number, mean: number, span: number): string {
  const w = 160;
  const h = 16;
  const x = (v: number): number => w / 2 + (Math.max(-span, Math.min(span, v)) / span) * (w / 2 - 4);
  return (
    `<svg width="${w}" height="${h}" aria-hidden="true">` +
    `<line class="axis" x1="${w / 2}" y1="0" x2="${w / 2}" y2="${h}"/>` +
    `<line x1="${px(x(low))}" y1="8" x2="${px(x(high))}" y2="8" stroke="#4c78a8" stroke-width="3"/>` +
    `<circle cx="${px(x(mean))}" cy="8" r="3.5" fill="#f58518"/></svg>`
  );
}

function aggregateTable(report: EvalReport, metrics: readonly MetricName[]): string {
  const hasNoAnswer = report.stages.some((s) => s.abstention.no_answer_queries > 0);
  let html = `<table><thead><tr><th>stage</th><th>scored queries</th>`;
  html += metrics.map((m) => `<th>${escapeHtml(METRIC_LABELS[m]!)}</th>`).join("");
  if (hasNoAnswer) html += `<th>abstained (no_answer)</th>`;
  html += `<th>p50 ms</th><th>p95 ms</th><th>p99 ms</th></tr></thead><tbody>`;
  for (const s of report.stages) {
    html += `<tr><td>${escapeHtml(s.stage)}${s.is_baseline ? " <em>(baseline)</em>" : ""}</td><td class="n">${s.aggregate.query_count}</td>`;
    html += metrics.map((m) => `<td class="n">${f3(s.aggregate[m])}</td>`).join("");
    if (hasNoAnswer) html += `<td class="n">${s.abstention.abstained} / ${s.abstention.no_answer_queries}</td>`;
    html += `<td class="n">${ms(s.latency_p50_ms)}</td><td class="n">${ms(s.latency_p95_ms)}</td><td class="n">${ms(s.latency_p99_ms)}</td></tr>`;
  }
  return html + `</tbody></table>`;
}

function deltaTable(report: EvalReport, metrics: readonly MetricName[]): string {
  const stages = report.stages.filter((s) => s.delta_vs_baseline);
  if (stages.length === 0) return `<p class="meta">No deltas: ${report.baseline ? "only the baseline stage ran" : "no baseline stage"}.</p>`;
  let html = `<table><thead><tr><th>stage</th><th>metric</th><th>delta</th><th>95% CI</th><th>CI vs 0</th><th>verdict</th></tr></thead><tbody>`;
  for (const s of stages) {
    for (const m of metrics) {
      const d = s.delta_vs_baseline?.[m];
      if (!d) continue;
      const span = Math.max(0.05, Math.abs(d.ci_low), Math.abs(d.ci_high));
      html +=
        `<tr><td>${escapeHtml(s.stage)}</td><td>${escapeHtml(METRIC_LABELS[m]!)}</td><td class="n">${signed(d.mean)}</td>` +
        `<td class="n">[${signed(d.ci_low)}, ${signed(d.ci_high)}]</td><td>${ciGlyph(d.ci_low, d.ci_high, d.mean, span)}</td>` +
        `<td class="${escapeHtml(d.verdict)}">${escapeHtml(d.verdict)}</td></tr>`;
    }
  }
  return html + `</tbody></table>`;
}

function categoryTable(report: EvalReport): string {
  const categories = [...new Set(report.stages.flatMap((s) => Object.keys(s.by_category)))];
  if (categories.length === 0) return `<p class="meta">No categories.</p>`;
  let html = `<table><thead><tr><th>category</th>`;
  html += report.stages.map((s) => `<th colspan="4">${escapeHtml(s.stage)}</th>`).join("");
  html += `</tr><tr><th></th>`;
  html += report.stages.map(() => `<th>n</th><th>R@1</th><th>R@5</th><th>nDCG@10</th>`).join("");
  html += `</tr></thead><tbody>`;
  for (const c of categories) {
    html += `<tr><td>${escapeHtml(c)}</td>`;
    for (const s of report.stages) {
      const a = s.by_category[c];
      html += a
        ? `<td class="n">${a.query_count}</td><td class="n">${f3(a.recall_at_1)}</td><td class="n">${f3(a.recall_at_5)}</td><td class="n">${f3(a.ndcg_at_10)}</td>`
        : `<td class="n">—</td><td class="n">—</td><td class="n">—</td><td class="n">—</td>`;
    }
    html += `</tr>`;
  }
  const na = report.stages.some((s) => s.abstention.no_answer_queries > 0);
  if (na) {
    html += `<tr><td>no_answer (abstained)</td>`;
    for (const s of report.stages) {
      html += `<td class="n" colspan="4">${s.abstention.abstained} / ${s.abstention.no_answer_queries}</td>`;
    }
    html += `</tr>`;
  }
  return html + `</tbody></table>`;
}

function queryTable(stage: StageReport): string {
  let html =
    `<details><summary>${escapeHtml(stage.stage)}: ${stage.queries.length} queries</summary>` +
    `<table><thead><tr><th>query_id</th><th>category</th><th>query</th><th>first relevant</th><th>MRR@10</th><th>nDCG@10</th><th>returned</th><th>top results</th></tr></thead><tbody>`;
  for (const q of stage.queries) {
    const top = q.hits
      .slice(0, 3)
      .map((h) => `${h.gain > 0 ? "✔" : "·"} ${h.doc} [${h.start}, ${h.end})`)
      .join("\n");
    const first = q.abstained === undefined ? (q.rank_of_first_relevant ?? "—") : q.abstained ? "abstained" : "answered";
    html +=
      `<tr><td>${escapeHtml(q.query_id)}</td><td>${escapeHtml(q.category)}</td><td class="q">${escapeHtml(q.query)}</td>` +
      `<td class="n">${escapeHtml(String(first))}</td><td class="n">${f3(q.mrr)}</td><td class="n">${f3(q.ndcg_at_10)}</td>` +
      `<td class="n">${q.returned}</td><td><pre>${escapeHtml(top)}</pre></td></tr>`;
  }
  return html + `</tbody></table></details>`;
}

function comparisonSection(cmp: ReportComparison): string {
  let html = `<h2>Compared with the report of ${escapeHtml(cmp.previous_created_at)}</h2>`;
  for (const w of cmp.warnings) html += `<p class="meta">warning: ${escapeHtml(w)}</p>`;
  if (cmp.stages_only_in_current.length) html += `<p class="meta">only in this report: ${escapeHtml(cmp.stages_only_in_current.join(", "))}</p>`;
  if (cmp.stages_only_in_previous.length) html += `<p class="meta">only in the previous report: ${escapeHtml(cmp.stages_only_in_previous.join(", "))}</p>`;
  html += `<table><thead><tr><th>stage</th><th>metric</th><th>previous</th><th>current</th><th>delta</th><th>95% CI (paired)</th><th>verdict</th></tr></thead><tbody>`;
  for (const r of cmp.rows) {
    const lat = r.metric.startsWith("latency_");
    const fmt = lat ? ms : r.metric === "abstained" ? (v: number | null) => (v === null ? "—" : String(v)) : f3;
    const delta = r.delta === null ? "—" : lat ? `${r.delta >= 0 ? "+" : ""}${r.delta.toFixed(2)}` : signed(r.delta);
    html +=
      `<tr><td>${escapeHtml(r.stage)}</td><td>${escapeHtml(METRIC_LABELS[r.metric] ?? r.metric)}</td>` +
      `<td class="n">${fmt(r.previous)}</td><td class="n">${fmt(r.current)}</td><td class="n">${delta}</td>` +
      `<td class="n">${r.ci ? `[${signed(r.ci.ci_low)}, ${signed(r.ci.ci_high)}]` : ""}</td>` +
      `<td class="${r.ci ? escapeHtml(r.ci.verdict) : ""}">${r.ci ? escapeHtml(r.ci.verdict) : ""}</td></tr>`;
  }
  return html + `</tbody></table>`;
}

/** Options for {@link renderReportHtml}. */
export interface HtmlReportOptions {
  title?: string;
  /** Adds a section with the delta table against an earlier report. */
  comparison?: ReportComparison;
}

/**
 * Render a report as one self-contained HTML page.
 *
 * @example
 *   await writeFile("evals/results/latest.html", renderReportHtml(report));
 */
export function renderReportHtml(report: EvalReport, options: HtmlReportOptions = {}): string {
  const metrics = reportMetrics(report.kind);
  const title = options.title ?? `groundkit ${report.kind} eval`;
  const recallKind = report.stages[0]?.recall_kind === "set_recall" ? "set recall (document level)" : "hit rate (span level)";
  const charts = metrics
    .map((m) =>
      barChart(
        METRIC_LABELS[m]!,
        report.stages.map((s, i) => ({ label: s.stage, value: s.aggregate[m] ?? null, colour: colour(i) })),
        1,
      ),
    )
    .map((svg) => `<div class="chart">${svg}</div>`)
    .join("");
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="meta">${escapeHtml(report.created_at)} · ${report.stages[0]?.queries.length ?? 0} queries · baseline ${escapeHtml(
      report.baseline ?? "none",
    )} · recall = ${escapeHtml(recallKind)} · schema v${report.schema_version}</p>`,
    `<h2>Summary</h2>`,
    aggregateTable(report, metrics),
    `<h2>Metrics per stage</h2><div class="charts">${charts}</div>`,
    `<h2>Delta vs baseline</h2>`,
    deltaTable(report, metrics),
    report.kind === "golden" ? `<h2>By category</h2>${categoryTable(report)}` : "",
    `<h2>Latency</h2><div class="chart">${latencyPlot(report.stages)}</div>`,
    options.comparison ? comparisonSection(options.comparison) : "",
    `<h2>Queries</h2>`,
    ...report.stages.map(queryTable),
    `<h2>Configuration</h2><pre>${escapeHtml(JSON.stringify(report.config, null, 2))}</pre>`,
  ].join("\n");
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head>\n<body>\n${body}\n</body></html>\n`
  );
}
