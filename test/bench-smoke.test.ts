/**
 * The benchmark suite's pieces on a tiny corpus: it must produce well-formed
 * results (JSON that round-trips, every stage present, no failed stage), a
 * Markdown summary and the generated docs page. No assertion on any timing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { documentPath, generateDocument, writeCorpus } from "../bench/corpus.js";
import { buildQueries } from "../bench/queries.js";
import { renderMarkdown } from "../bench/report.js";
import { runSuite, STAGES, type BenchResults, type SizePreset } from "../bench/suite.js";
import { inProcessRunner } from "../bench/tasks.js";
import { renderBenchmarksDoc } from "../bench/write-doc.js";

const TINY: SizePreset = {
  name: "smoke",
  unit: "documents",
  points: [120, 200],
  queries: { short: 12, long12: 3, paragraph: 3 },
  warmup: 2,
  queryBudgetS: null,
  vectors: [300, 600],
  vectorQueries: 3,
  verify: { textCitations: 20, pdfs: 2, pages: 1, urls: 3 },
  openRuns: 1,
  denseChunks: 8,
  embedSample: 2,
};

const work = mkdtempSync(join(tmpdir(), "grk-bench-smoke-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const isNum = (x: unknown) => typeof x === "number" && Number.isFinite(x);

function expectLatency(l: unknown): void {
  const lat = l as Record<string, unknown>;
  for (const k of ["p50_ms", "p95_ms", "p99_ms", "mean_ms", "max_ms"]) expect(isNum(lat[k]), k).toBe(true);
  expect(lat.p50_ms as number).toBeLessThanOrEqual(lat.p95_ms as number);
  expect(lat.p95_ms as number).toBeLessThanOrEqual(lat.p99_ms as number);
  expect(lat.runs as number).toBeGreaterThan(0);
}

describe("bench corpus and queries", () => {
  it("generates the same document for the same index, and different ones otherwise", () => {
    expect(generateDocument(42)).toBe(generateDocument(42));
    expect(generateDocument(42)).not.toBe(generateDocument(43));
    expect(generateDocument(42)).toMatch(/^(---\n[\s\S]*?\n---\n\n)?# /);
  });

  it("writes a corpus in increments that equal one run", () => {
    const a = join(work, "inc-a");
    const whole = writeCorpus(a, 0, (d) => d >= 30, { chunkSize: 2400, chunkOverlap: 200 });
    const b = join(work, "inc-b");
    const first = writeCorpus(b, 0, (d) => d >= 10, { chunkSize: 2400, chunkOverlap: 200 });
    const rest = writeCorpus(b, first.end_doc, (d) => d >= 20, { chunkSize: 2400, chunkOverlap: 200 });
    expect(first.chunks + rest.chunks).toBe(whole.chunks);
    expect(first.bytes + rest.bytes).toBe(whole.bytes);
    expect(readFileSync(documentPath(b, 25), "utf8")).toBe(readFileSync(documentPath(a, 25), "utf8"));
  });

  it("stops at a chunk count", () => {
    const s = writeCorpus(join(work, "by-chunks"), 0, (_d, c) => c >= 50, { chunkSize: 2400, chunkOverlap: 200 });
    expect(s.chunks).toBeGreaterThanOrEqual(50);
    expect(s.chunks).toBeLessThan(50 + 30);
  });

  it("builds the query mix: 1–8-term short queries, 12-term and paragraph queries", () => {
    const qs = buildQueries({ short: 200, long12: 5, paragraph: 5 }, 100);
    expect(qs).toEqual(buildQueries({ short: 200, long12: 5, paragraph: 5 }, 100));
    const short = qs.filter((q) => q.cls === "short");
    expect(short).toHaveLength(200);
    expect(Math.min(...short.map((q) => q.terms))).toBe(1);
    expect(Math.max(...short.map((q) => q.terms))).toBeLessThanOrEqual(8);
    expect(qs.filter((q) => q.cls === "long12").every((q) => q.text.split(" ").length === 12)).toBe(true);
    for (const q of qs.filter((q) => q.cls === "paragraph")) {
      expect(q.terms).toBeGreaterThanOrEqual(40);
      expect(q.terms).toBeLessThanOrEqual(80);
    }
  });
});

describe("bench suite on a tiny corpus", () => {
  let results: BenchResults;

  it("runs every stage in-process and produces well-formed results", async () => {
    results = await runSuite({
      preset: TINY,
      stages: new Set(STAGES),
      workDir: join(work, "suite"),
      runner: inProcessRunner,
      log: () => {},
    });
    expect(results.errors).toEqual([]);
    const round = JSON.parse(JSON.stringify(results)) as BenchResults;
    expect(round).toEqual(results);

    expect(results.points.map((p) => p.documents)).toEqual([120, 200]);
    for (const p of results.points) {
      expect(p.chunks).toBeGreaterThanOrEqual(p.documents);
      expect(p.increment!.ingest.failed).toBe(0);
      // The chunks counted while writing are the chunks ingest wrote.
      expect(p.increment!.ingest.chunks_written).toBe(p.increment!.corpus.chunks);
      expect(p.index!.bytes).toBeGreaterThan(0);
      for (const cls of ["short", "long12", "paragraph"] as const) {
        expectLatency(p.bm25!.classes[cls]!.latency);
        expectLatency(p.peer!.classes[cls]!.latency);
      }
      expect(p.peer!.chunks).toBe(p.chunks);
      expect(isNum(p.ratios!.ingest_time)).toBe(true);
      expect(isNum(p.ratios!.memory_rss)).toBe(true);
      expect(p.open!.script[0]!.hits).toBeGreaterThan(0);
      expect(p.increment!.ingest.memory.max_rss_mb).toBeGreaterThan(0);
      expect(isNum(p.increment!.ingest.cpu_user_s)).toBe(true);
    }
    expect(results.ingest_total!.documents).toBe(200);

    for (const cls of ["text", "extracted", "snapshot"] as const) {
      const v = results.verify![cls];
      expect(v.citations).toBeGreaterThan(0);
      expect(v.verdicts).toEqual({ verified: v.citations });
    }

    expect(results.vectors!.points.map((p) => p.vectors)).toEqual([300, 600]);
    for (const p of results.vectors!.points) {
      expectLatency(p.knn10);
      expectLatency(p.knn50);
    }

    const dense = results.dense!;
    expect(dense.bm25_only_probe!.map((p) => p.mode)).toEqual(["dense", "hybrid"]);
    for (const mode of ["dense", "hybrid"] as const) {
      const q = dense[mode]!;
      // Either measured, or honestly unavailable with the library's error code.
      if (q.unavailable === undefined) expectLatency(q.classes.short!.latency);
      else expect(q.unavailable).toMatch(/^[A-Z_]+$/);
    }
    if (dense.embedding && "sentences_per_s" in dense.embedding) expect(dense.embedding.sentences).toBe(TINY.embedSample);
    else expect(dense.embedding).toHaveProperty("unavailable");
    // MiniLM fp32 and int8 alternate on real texts, then on full windows.
    expect(dense.embedding_precisions!.map((e) => e && "model" in e && [e.model.split("@")[0], e.texts])).toEqual([
      ["all-MiniLM-L6-v2", "real"],
      ["all-MiniLM-L6-v2-int8", "real"],
      ["all-MiniLM-L6-v2", "full-window"],
      ["all-MiniLM-L6-v2-int8", "full-window"],
    ]);
    for (const t of results.targets) expect(typeof t.met).toBe("boolean");
    // Every stage in one process, the dense one loading seven embedding providers: minutes on a loaded 2-core machine.
  }, 600_000);

  it("renders the Markdown summary and the docs page from the results", () => {
    const md = renderMarkdown(results);
    expect(md).toContain("## BM25 query latency (ms)");
    expect(md).toContain("| 200 docs | short |");
    expect(md).toContain("## Verification throughput");
    const doc = renderBenchmarksDoc([results]);
    expect(doc).toContain("## Run: smoke");
    expect(doc).toContain("npm run bench");
  });
});
