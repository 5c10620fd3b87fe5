/**
 * The issues' performance targets, checked against one run's results. Only the
 * targets that the run measured are listed (a 5k run says nothing about 1M).
 */
import type { BenchResults, PointResult } from "./suite.js";

/** One target and how this run fared. */
export interface TargetCheck {
  id: string;
  /** Where the target comes from. */
  issue: number;
  description: string;
  /** "<= 5 ms", ">= 1000 docs/s", … */
  target: string;
  measured: number;
  unit: string;
  met: boolean;
}

function check(
  id: string,
  issue: number,
  description: string,
  measured: number,
  op: "<=" | ">=" | "<",
  bound: number,
  unit: string,
): TargetCheck {
  const met = op === "<=" ? measured <= bound : op === ">=" ? measured >= bound : measured < bound;
  return { id, issue, description, target: `${op} ${bound} ${unit}`.trim(), measured, unit, met };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Fresh-process time to open and answer a first query: the CLI's when measured, else the script's. */
export function openWallMs(p: PointResult): number | undefined {
  if (!p.open) return undefined;
  if (p.open.cli && p.open.cli.runs.every((r) => r.exit_code === 0)) return p.open.cli.median_wall_ms;
  return median(p.open.script.map((r) => r.wall_ms));
}

/** Evaluate every target this run has numbers for. */
export function evaluateTargets(r: BenchResults): TargetCheck[] {
  const out: TargetCheck[] = [];
  const last = r.points.at(-1);
  for (const c of r.startup?.cases ?? []) {
    if (c.name === "grk --version") out.push(check("cli-version-wall", 29, "`grk --version`, whole process, median", c.median_ms, "<=", 200, "ms"));
    if (c.name.startsWith("grk search")) out.push(check("cli-search-wall", 29, "BM25 `grk search`, whole process, median", c.median_ms, "<=", 350, "ms"));
  }
  for (const p of r.points) {
    const short = p.bm25?.classes.short?.latency;
    const long12 = p.bm25?.classes.long12?.latency;
    if (p.unit === "documents" && p.target === 5_000) {
      if (p === last && r.ingest_total) {
        out.push(check("ingest-5k-docs", 2, "ingest rate, 5,000-document corpus", r.ingest_total.docs_per_s, ">=", 1000, "docs/s"));
      }
      if (short) out.push(check("bm25-p50-5k-docs", 2, "BM25 p50 (1–8-term mix), 5,000 documents", short.p50_ms, "<=", 5, "ms"));
    }
    if (p.unit === "chunks" && p.target === 20_000 && long12) {
      out.push(check("long12-p50-20k", 7, "BM25 p50, 12-term queries, 20k chunks", long12.p50_ms, "<=", 2, "ms"));
    }
    if (p.unit === "chunks" && p.target === 1_000_000) {
      if (r.ingest_total && p === last) {
        out.push(check("ingest-1m-time", 7, "ingest 1M chunks, BM25 only", r.ingest_total.duration_s, "<=", 600, "s"));
        out.push(check("ingest-1m-rss", 7, "peak RSS while ingesting 1M chunks", r.ingest_total.peak_rss_mb, "<=", 1024, "MiB"));
      }
      if (short) {
        out.push(check("bm25-p50-1m", 7, "BM25 p50 (1–8-term mix), 1M chunks", short.p50_ms, "<=", 20, "ms"));
        out.push(check("bm25-p99-1m", 7, "BM25 p99 (1–8-term mix), 1M chunks", short.p99_ms, "<=", 100, "ms"));
      }
      const open = openWallMs(p);
      if (open !== undefined) out.push(check("open-1m", 7, "open a 1M-chunk collection + first query (fresh process)", open, "<=", 1000, "ms"));
    }
    if (p.unit === "chunks" && p.target >= 100_000 && p.ratios) {
      const q = p.ratios.query_p50.short;
      if (q !== undefined) out.push(check(`peer-query-${p.target}`, 7, `query p50 ours/MiniSearch (1–8 terms), ${p.label}`, q, "<", 1, "×"));
      out.push(check(`peer-memory-${p.target}`, 7, `memory ours/MiniSearch (RSS held), ${p.label}`, p.ratios.memory_rss, "<", 1, "×"));
    }
  }
  const v20 = r.vectors?.points.find((v) => v.vectors === 20_000);
  if (v20) out.push(check("vector-p50-20k", 5, "vector search p50 (k=10), 20k vectors", v20.knn10.p50_ms, "<=", 15, "ms"));
  const m1 = r.vectors?.points.find((v) => v.vectors === 1_000_000)?.ann;
  if (m1) {
    out.push(check("ann-recall-1m", 15, "ANN recall@10 against exact, 1M vectors", m1.recall10, ">=", 0.95, ""));
    out.push(check("ann-p50-1m", 15, "ANN p50 (k=10), 1M vectors", m1.knn10.p50_ms, "<=", 10, "ms"));
    out.push(check("ann-p99-1m", 15, "ANN p99 (k=10), 1M vectors", m1.knn10.p99_ms, "<=", 50, "ms"));
  }
  const hybrid = r.dense?.hybrid?.classes.short?.latency;
  const embed = r.dense?.embedding && "query_embedding" in r.dense.embedding ? r.dense.embedding.query_embedding : undefined;
  const denseChunks = r.dense?.collection?.ingest?.total_chunks ?? 0;
  if (hybrid && embed && denseChunks >= 20_000) {
    const excl = Math.max(0, hybrid.p50_ms - embed.p50_ms);
    out.push(check("hybrid-p50-20k", 5, "hybrid p50 excluding query embedding, 20k chunks", Number(excl.toFixed(3)), "<=", 25, "ms"));
  }
  return out;
}
