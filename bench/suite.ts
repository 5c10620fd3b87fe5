/**
 * The benchmark suite: generate the corpus in increments, ingest each increment
 * and measure at every point of the size curve, then verification, vector
 * search and the dense side. Every stage that fails is recorded in `errors`
 * and the others still run, so one missing feature never hides the rest.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { DEFAULTS } from "../src/core/config.js";
import { DOC_LENGTH, VOCABULARY_SIZE, writeCorpus, ZIPF, type CorpusStats } from "./corpus.js";
import type { EmbeddingArgs, EmbeddingResult, DenseProbe } from "./dense.js";
import { mib, round } from "./measure.js";
import { measureCliOpen, type CliOpenResult, type OpenPhases } from "./open.js";
import { indexBytes, type IngestResult, type QueryResult } from "./ours.js";
import type { PeerResult } from "./peer.js";
import { measureStartup, type StartupResult } from "./startup.js";
import { measureMcpPayload, type McpPayloadResult } from "./mcp-payload.js";
import { QUERY_CLASSES, type QueryClass, type QueryCounts } from "./queries.js";
import { evaluateTargets, type TargetCheck } from "./targets.js";
import type { TaskRunner } from "./tasks.js";
import type { VectorsResult } from "./vectors.js";
import type { VerifyResult } from "./verify.js";

/** Stages that `--only` selects. */
export const STAGES = ["ingest", "query", "verify", "peer", "vectors", "dense", "open", "startup", "mcp"] as const;
export type Stage = (typeof STAGES)[number];

/** A size class: where the curve is measured and how much of everything. */
export interface SizePreset {
  name: string;
  /** Whether `points` count documents or chunks. */
  unit: "documents" | "chunks";
  /** Cumulative corpus sizes at which everything is measured, ascending. */
  points: number[];
  queries: QueryCounts;
  warmup: number;
  /** Per-class query timing budget in seconds (at least 10 queries are timed); null = time them all. */
  queryBudgetS: number | null;
  vectors: number[];
  vectorQueries: number;
  verify: { textCitations: number; pdfs: number; pages: number; urls: number };
  openRuns: number;
  /** Chunks in the dense collection (ingested with `dense: true`). */
  denseChunks: number;
  /** Chunks the embedding-throughput sample embeds. */
  embedSample: number;
}

const COMMON = {
  queries: { short: 300, long12: 60, paragraph: 40 },
  warmup: 20,
  queryBudgetS: null,
  vectorQueries: 30,
  verify: { textCitations: 500, pdfs: 10, pages: 3, urls: 30 },
  openRuns: 3,
  denseChunks: 300,
  embedSample: 64,
};

/** The named sizes of `--size`. */
export const SIZES: Record<string, SizePreset> = {
  "5k": { ...COMMON, name: "5k", unit: "documents", points: [5_000], vectors: [20_000, 100_000] },
  "10k": { ...COMMON, name: "10k", unit: "chunks", points: [10_000], vectors: [20_000, 100_000] },
  "100k": { ...COMMON, name: "100k", unit: "chunks", points: [10_000, 20_000, 100_000], vectors: [20_000, 100_000] },
  "1m": {
    ...COMMON,
    name: "1m",
    unit: "chunks",
    points: [10_000, 20_000, 100_000, 1_000_000],
    vectors: [20_000, 100_000, 1_000_000],
    // At 1M a pasted paragraph can take seconds (ours or the peer's): cap each class's timing.
    queryBudgetS: 60,
  },
};

/** Suite options. */
export interface SuiteOptions {
  preset: SizePreset;
  stages: ReadonlySet<Stage>;
  /** Scratch folder (corpus, indexes); the caller removes it. */
  workDir: string;
  runner: TaskRunner;
  log: (line: string) => void;
}

/** Measurements at one point of the size curve. */
export interface PointResult {
  label: string;
  target: number;
  unit: SizePreset["unit"];
  documents: number;
  chunks: number;
  corpus_bytes: number;
  /** The increment ingested to reach this point. */
  increment: { corpus: CorpusStats; ingest: IngestResult & { wall_ms: number } } | null;
  index: { bytes: number; mb: number; bytes_per_chunk: number } | null;
  bm25: QueryResult | null;
  open: { script: Array<OpenPhases & { wall_ms: number }>; method: string; cli: CliOpenResult | null } | null;
  peer: PeerResult | null;
  ratios: Ratios | null;
}

/** Ours / theirs, from the same run (below 1 means we are faster or smaller). */
export interface Ratios {
  ingest_time: number;
  query_p50: Partial<Record<QueryClass, number>>;
  memory_rss: number;
  memory_heap: number;
}

/** Everything one run measured: the JSON written to bench/results/<name>.json. */
export interface BenchResults {
  name: string;
  created_at: string;
  git: { commit: string; dirty: boolean } | null;
  machine: {
    cpus: number;
    cpu_model: string;
    memory_gb: number;
    node: string;
    platform: string;
    /** 1/5/15-minute load averages when the run started and ended: other work on the machine skews timings. */
    load_average_start: number[];
    load_average_end: number[];
  };
  config: {
    size: string;
    stages: Stage[];
    runner: string;
    chunker: { chunk_size: number; chunk_overlap: number };
    corpus: { vocabulary: number; zipf: typeof ZIPF; doc_length: typeof DOC_LENGTH };
    preset: SizePreset;
  };
  points: PointResult[];
  ingest_total: {
    documents: number;
    chunks: number;
    mb: number;
    duration_s: number;
    docs_per_s: number;
    chunks_per_s: number;
    mb_per_s: number;
    peak_rss_mb: number;
  } | null;
  verify: VerifyResult | null;
  vectors: VectorsResult | null;
  /** Whole-process CLI runs: `grk --version` and a BM25 `grk search` (startup.ts). */
  startup?: StartupResult | null;
  /** Bytes and estimated tokens of MCP's tools/list and typical results (mcp-payload.ts). */
  mcp?: McpPayloadResult | null;
  dense: {
    bm25_only_probe: DenseProbe[] | null;
    embedding: EmbeddingResult | { unavailable: string; message: string } | null;
    /** The same sample through USE-lite (`use-lite`, the pre-0.2 default), in the same run. */
    embedding_use_lite?: EmbeddingResult | { unavailable: string; message: string } | null;
    /** USE-lite on real ~1,000-character texts (about MiniLM's 256-token window), in the same run. */
    embedding_use_lite_long?: EmbeddingResult | { unavailable: string; message: string } | null;
    /** MiniLM fp32 and int8 interleaved on real ~1,000-character texts and on full windows, in the same run. */
    embedding_precisions?: Array<EmbeddingResult | { unavailable: string; message: string } | null>;
    collection: { chunks_target: number; ingest: (IngestResult & { wall_ms: number }) | null } | null;
    dense: QueryResult | null;
    hybrid: QueryResult | null;
  } | null;
  targets: TargetCheck[];
  errors: Array<{ stage: string; message: string }>;
  duration_s: number;
}

/** The commit of the working directory's repository (npm runs scripts from the repo root). */
function gitInfo(): BenchResults["git"] {
  try {
    const cwd = process.cwd();
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() !== "";
    return { commit, dirty };
  } catch {
    return null;
  }
}

function label(n: number, unit: SizePreset["unit"]): string {
  const s = n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);
  return `${s} ${unit === "documents" ? "docs" : "chunks"}`;
}

/** Run the suite. */
export async function runSuite(opts: SuiteOptions): Promise<BenchResults> {
  const started = performance.now();
  const { preset, stages, runner, log } = opts;
  const errors: BenchResults["errors"] = [];
  const attempt = async <T>(stage: string, fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await fn();
    } catch (err) {
      const message = (err as Error).message;
      log(`  ! ${stage}: ${message.split("\n")[0]}`);
      errors.push({ stage, message });
      return null;
    }
  };
  const results: BenchResults = {
    name: preset.name,
    created_at: new Date().toISOString(),
    git: gitInfo(),
    machine: {
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? "unknown",
      memory_gb: round(totalmem() / 1024 ** 3, 1),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      load_average_start: loadavg().map((x) => round(x, 2)),
      load_average_end: [],
    },
    config: {
      size: preset.name,
      stages: STAGES.filter((s) => stages.has(s)),
      runner: runner.kind,
      chunker: { chunk_size: DEFAULTS.chunkSize, chunk_overlap: DEFAULTS.chunkOverlap },
      corpus: { vocabulary: VOCABULARY_SIZE, zipf: ZIPF, doc_length: DOC_LENGTH },
      preset,
    },
    points: [],
    ingest_total: null,
    verify: null,
    vectors: null,
    dense: null,
    targets: [],
    errors,
    duration_s: 0,
  };

  const corpusRoot = join(opts.workDir, "corpus");
  const indexDir = join(opts.workDir, "index");
  mkdirSync(corpusRoot, { recursive: true });
  mkdirSync(indexDir, { recursive: true });
  const main = { indexDir, collection: "bench" };
  const needsCorpus = ["ingest", "query", "verify", "peer", "open"].some((s) => stages.has(s as Stage));

  if (needsCorpus) {
    const counting = { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap };
    const dirs: string[] = [];
    let documents = 0;
    let chunks = 0;
    let bytes = 0;
    let ingestMs = 0;
    let peakRss = 0;
    let queryDocs = 0;
    for (const [k, target] of preset.points.entries()) {
      const dir = join(corpusRoot, `inc-${k}`);
      dirs.push(dir);
      log(`- ${label(target, preset.unit)}: writing corpus increment`);
      const corpus = writeCorpus(
        dir,
        documents,
        (docs, ch) => (preset.unit === "documents" ? documents + docs >= target : chunks + ch >= target),
        counting,
      );
      documents += corpus.documents;
      bytes += corpus.bytes;
      if (k === 0) queryDocs = corpus.documents;
      log(`  ${corpus.documents} documents, ${mib(corpus.bytes)} MiB written in ${round(corpus.write_ms / 1000, 1)} s; ingesting`);
      const ingest = await attempt("ingest", () => runner.run<IngestResult>("ingest", { ...main, inputs: [dir] }));
      if (ingest === null) break;
      if (ingest.failed > 0) errors.push({ stage: "ingest", message: `${ingest.failed} files failed: ${JSON.stringify(ingest.first_failure)}` });
      chunks = ingest.total_chunks;
      ingestMs += ingest.duration_ms;
      peakRss = Math.max(peakRss, ingest.memory.max_rss_mb, ingest.memory.peak_rss_mb);
      log(`  ingested ${ingest.indexed} docs → ${ingest.chunks_written} chunks in ${round(ingest.duration_ms / 1000, 1)} s (peak RSS ${ingest.memory.max_rss_mb} MiB)`);
      const point: PointResult = {
        label: label(target, preset.unit),
        target,
        unit: preset.unit,
        documents,
        chunks,
        corpus_bytes: bytes,
        increment: { corpus, ingest },
        index: null,
        bm25: null,
        open: null,
        peer: null,
        ratios: null,
      };
      results.points.push(point);
      const size = await indexBytes(main);
      point.index = { bytes: size, mb: mib(size), bytes_per_chunk: Math.round(size / Math.max(1, chunks)) };

      if (stages.has("query")) {
        log("  BM25 query mix");
        point.bm25 = await attempt("query", () =>
          runner.run<QueryResult>("query", {
            ...main,
            counts: preset.queries,
            documents: queryDocs,
            warmup: preset.warmup,
            budgetS: preset.queryBudgetS ?? undefined,
          }),
        );
        if (point.bm25) log(`  ${describeClasses(point.bm25)}`);
      }
      if (stages.has("open")) {
        point.open = await attempt("open", async () => {
          const query = "data index query";
          const script: Array<OpenPhases & { wall_ms: number }> = [];
          const runs = runner.kind === "child" ? preset.openRuns : 1;
          for (let i = 0; i < runs; i++) script.push(await runner.run<OpenPhases>("open", { ...main, query }));
          const cli = runner.kind === "child" ? (measureCliOpen(main, query, preset.openRuns) ?? null) : null;
          return { script, method: runner.kind === "child" ? "fresh node process per run" : "in-process (no fresh process)", cli };
        });
        if (point.open) {
          const s = point.open.script.map((r) => r.open_and_first_query_ms);
          log(`  open + first query: ${s.join(", ")} ms in-library; cli median ${point.open.cli?.median_wall_ms ?? "n/a"} ms wall`);
        }
      }
      if (stages.has("peer")) {
        log("  peer (MiniSearch) over the same chunks");
        point.peer = await attempt("peer", () =>
          runner.run<PeerResult>(
            "peer",
            { dirs: [...dirs], counts: preset.queries, documents: queryDocs, warmup: preset.warmup, budgetS: preset.queryBudgetS ?? undefined },
            { nodeArgs: ["--max-old-space-size=16384"] },
          ),
        );
        if (point.peer) log(`  peer: ingest ${round(point.peer.ingest_ms / 1000, 1)} s; ${describeClasses(point.peer)}`);
      }
      if (point.peer && point.bm25) point.ratios = ratios(ingestMs, point.bm25, point.peer);
    }
    if (results.points.length > 0) {
      results.ingest_total = {
        documents,
        chunks,
        mb: mib(bytes),
        duration_s: round(ingestMs / 1000, 2),
        docs_per_s: Math.round(documents / (ingestMs / 1000)),
        chunks_per_s: Math.round(chunks / (ingestMs / 1000)),
        mb_per_s: round(bytes / (1024 * 1024) / (ingestMs / 1000), 2),
        peak_rss_mb: peakRss,
      };
    }
    if (stages.has("verify") && results.points.length > 0) {
      log("- verification throughput (text, extracted, snapshot)");
      results.verify = await attempt("verify", () =>
        runner.run<VerifyResult>("verify", { text: main, workDir: join(opts.workDir, "verify"), indexDir, ...preset.verify }),
      );
      if (results.verify) {
        const v = results.verify;
        log(`  text ${v.text.per_second}/s, extracted ${v.extracted.per_second}/s, snapshot ${v.snapshot.per_second}/s`);
      }
    }
  }

  if (stages.has("vectors")) {
    log(`- vector search on generated vectors: ${preset.vectors.join(", ")}`);
    results.vectors = await attempt("vectors", () =>
      runner.run<VectorsResult>("vectors", {
        file: join(opts.workDir, "vectors.sqlite3"),
        sizes: preset.vectors,
        queries: preset.vectorQueries,
        warmup: 3,
      }),
    );
    for (const p of results.vectors?.points ?? []) log(`  ${p.vectors} vectors: knn10 p50 ${p.knn10.p50_ms} ms, knn50 p50 ${p.knn50.p50_ms} ms`);
  }

  if (stages.has("dense")) results.dense = await denseStage(opts, main, attempt);

  if (stages.has("startup")) {
    log("start-up: whole-process CLI runs");
    results.startup = await attempt("startup", async () => measureStartup(opts.workDir));
    for (const c of results.startup?.cases ?? []) log(`  ${c.name}: median ${c.median_ms} ms (min ${c.min_ms}, max ${c.max_ms})`);
  }

  if (stages.has("mcp")) {
    log("mcp: tools/list and typical results over the SDK's stdio client");
    results.mcp = await attempt("mcp", async () => measureMcpPayload(opts.workDir));
    if (results.mcp) log(`  tools/list ${results.mcp.tools_list.read_only.bytes} B read-only, ${results.mcp.tools_list.with_token.bytes} B with the mutating tools`);
  }

  results.machine.load_average_end = loadavg().map((x) => round(x, 2));
  results.targets = evaluateTargets(results);
  results.duration_s = round((performance.now() - started) / 1000, 1);
  return results;
}

async function denseStage(
  opts: SuiteOptions,
  main: { indexDir: string; collection: string },
  attempt: <T>(stage: string, fn: () => Promise<T>) => Promise<T | null>,
): Promise<NonNullable<BenchResults["dense"]>> {
  const { preset, runner, log } = opts;
  log(`- dense: embedding throughput, then a ${preset.denseChunks}-chunk collection ingested with dense: true`);
  const out: NonNullable<BenchResults["dense"]> & { embedding_precisions: unknown[] } = {
    bm25_only_probe: null,
    embedding: null,
    embedding_use_lite: null,
    embedding_use_lite_long: null,
    embedding_precisions: [],
    collection: null,
    dense: null,
    hybrid: null,
  };
  const denseDir = join(opts.workDir, "dense-corpus");
  const corpus = writeCorpus(denseDir, 0, (_d, ch) => ch >= preset.denseChunks, {
    chunkSize: DEFAULTS.chunkSize,
    chunkOverlap: DEFAULTS.chunkOverlap,
  });
  if (opts.stages.has("ingest") || opts.stages.has("query")) {
    out.bm25_only_probe = await attempt("dense", () => runner.run<{ probes: DenseProbe[] }>("probe", main).then((r) => r.probes));
  }
  const embed = (args: Partial<EmbeddingArgs>): Promise<EmbeddingResult | null> =>
    attempt("dense", () =>
      runner.run<EmbeddingResult>("embedding", { corpusDir: denseDir, sample: preset.embedSample, queries: 20, warmup: 3, ...args }),
    );
  out.embedding = await embed({});
  out.embedding_use_lite = await embed({ config: { provider: "use-lite" } });
  out.embedding_use_lite_long = await embed({ config: { provider: "use-lite" }, texts: "real" });
  // fp32 and int8 alternate, so a change in the machine's load falls on both.
  for (const texts of ["real", "full-window"] as const) {
    for (const precision of ["fp32", "int8"] as const) {
      out.embedding_precisions.push(await embed({ config: { provider: "local", precision }, texts }));
    }
  }
  for (const e of [out.embedding, out.embedding_use_lite, out.embedding_use_lite_long, ...out.embedding_precisions]) {
    if (e && "sentences_per_s" in e) {
      log(
        `  ${e.model.split(";")[0]} (${e.texts}, mean ${e.mean_chars} chars): ${e.sentences_per_s} chunks/s, ${e.cpu_ms_per_sentence} CPU ms/chunk, ` +
          `query embedding p50 ${e.query_embedding.p50_ms} ms, peak RSS ${e.peak_rss_mb} MiB`,
      );
    }
  }
  const ref = { indexDir: main.indexDir, collection: "bench-dense" };
  const ingest = await attempt("dense", () => runner.run<IngestResult>("ingest", { ...ref, inputs: [denseDir], dense: true }));
  out.collection = { chunks_target: preset.denseChunks, ingest };
  if (ingest) {
    const counts = { short: 100, long12: 20, paragraph: 10 };
    for (const mode of ["dense", "hybrid"] as const) {
      const res = await attempt("dense", () =>
        runner.run<QueryResult>("query", { ...ref, counts, documents: corpus.documents, warmup: 5, mode }),
      );
      out[mode] = res;
      log(`  ${mode}: ${res?.unavailable ? `unavailable: ${res.unavailable}` : res ? describeClasses(res) : "failed"}`);
    }
  }
  return out;
}

function describeClasses(r: { classes: Partial<Record<QueryClass, { latency: { p50_ms: number; p95_ms: number } }>> }): string {
  return QUERY_CLASSES.filter((c) => r.classes[c])
    .map((c) => `${c} p50 ${r.classes[c]!.latency.p50_ms} ms / p95 ${r.classes[c]!.latency.p95_ms} ms`)
    .join("; ");
}

/** Three significant digits (ratios span 0.001× to 10×). */
const sig = (x: number): number => Number(x.toPrecision(3));

function ratios(oursIngestMs: number, ours: QueryResult, peer: PeerResult): Ratios {
  const query_p50: Ratios["query_p50"] = {};
  for (const c of QUERY_CLASSES) {
    const a = ours.classes[c]?.latency.p50_ms;
    const b = peer.classes[c]?.latency.p50_ms;
    if (a !== undefined && b !== undefined && b > 0) query_p50[c] = sig(a / b);
  }
  return {
    ingest_time: sig(oursIngestMs / peer.ingest_ms),
    query_p50,
    memory_rss: sig(ours.memory.rss_delta_mb / Math.max(0.1, peer.memory.rss_delta_mb)),
    memory_heap: sig(ours.memory.heap_delta_mb / Math.max(0.1, peer.memory.heap_delta_mb)),
  };
}
