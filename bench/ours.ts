/**
 * Benchmark tasks that drive groundkit through its library API, in-process:
 * ingest (with peak-RSS sampling), the query mix, and index size on disk.
 * Each is meant to run in a fresh child process (see `child.ts`) so that memory
 * figures belong to that task alone.
 */
import { openCollection, type Collection, type SearchMode } from "../src/index.js";
import { GroundkitError } from "../src/core/errors.js";
import { filesSize, mib, round, RssSampler, settledMemory, since, summarize, type Latency, type RssReport } from "./measure.js";
import { buildQueries, QUERY_CLASSES, type BenchQuery, type QueryClass, type QueryCounts } from "./queries.js";

/** Where a benchmark collection lives. */
export interface CollectionRef {
  indexDir: string;
  collection: string;
}

/** Arguments of {@link ingestTask}. */
export interface IngestArgs extends CollectionRef {
  inputs: string[];
  /** Ask for vectors too (`ingest(…, { dense: true })`), where the library supports it. */
  dense?: boolean;
}

/** What one ingest run measured. */
export interface IngestResult {
  duration_ms: number;
  files_seen: number;
  indexed: number;
  unchanged: number;
  chunks_written: number;
  failed: number;
  /** First failure, when any (a benchmark corpus should have none). */
  first_failure: { source: string; code: string; message: string } | null;
  /** Chunks in the collection after the run. */
  total_chunks: number;
  total_documents: number;
  memory: RssReport;
  /**
   * CPU seconds this process spent (user, system) during the ingest: less
   * sensitive than wall time to other work sharing the machine's cores.
   */
  cpu_user_s: number;
  cpu_system_s: number;
}

/** Ingest `inputs` into the collection (created when missing), sampling RSS throughout. */
export async function ingestTask(args: IngestArgs): Promise<IngestResult> {
  const sampler = new RssSampler(100);
  const col = await openCollection({ indexDir: args.indexDir, collection: args.collection, create: true });
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    // `dense` is passed through untyped: it is honoured once the library grows it, ignored before.
    const opts = (args.dense ? { dense: true } : {}) as Parameters<Collection["ingest"]>[1];
    let lastSample = 0;
    const summary = await col.ingest(args.inputs, {
      ...opts,
      onProgress: () => {
        // Event-loop turns are rare during ingest; sample on progress too.
        const now = performance.now();
        if (now - lastSample >= sampler.intervalMs) {
          sampler.sample();
          lastSample = now;
        }
      },
    });
    const duration = since(t0);
    const cpu = process.cpuUsage(cpu0);
    const status = await col.status();
    return {
      duration_ms: round(duration, 1),
      files_seen: summary.files_seen,
      indexed: summary.indexed,
      unchanged: summary.unchanged,
      chunks_written: summary.chunks_written,
      failed: summary.failed.length,
      first_failure: summary.failed[0] ?? null,
      total_chunks: status.chunks,
      total_documents: status.documents,
      memory: sampler.stop(),
      cpu_user_s: round(cpu.user / 1e6, 2),
      cpu_system_s: round(cpu.system / 1e6, 2),
    };
  } finally {
    await col.close();
  }
}

/** Arguments of {@link queryTask}. */
export interface QueryArgs extends CollectionRef {
  counts: QueryCounts;
  /** Documents in the corpus (pasted paragraphs come from these). */
  documents: number;
  mode?: SearchMode;
  topK?: number;
  /** Untimed calls (the first queries of each class) before timing. */
  warmup: number;
  /** Stop timing a class after this many seconds (at least 10 queries run); default: no limit. */
  budgetS?: number;
}

/** Latency of one query class plus what the queries returned. */
export interface ClassResult {
  latency: Latency;
  queries: number;
  /** Mean hits per query (top-k bounded). */
  mean_hits: number;
  /** Queries that returned nothing (BM25 abstains when no term occurs). */
  empty: number;
}

/** What {@link queryTask} measured. */
export interface QueryResult {
  mode: string;
  top_k: number;
  classes: Partial<Record<QueryClass, ClassResult>>;
  /** Memory held by the open collection after the queries (RSS/heap after GC, minus before opening). */
  memory: { rss_delta_mb: number; heap_delta_mb: number; rss_mb: number };
  /** When the mode is unavailable: the error code, e.g. NO_VECTORS. */
  unavailable?: string;
}

/** Time each query of the mix, after warm-up, through `Collection.search`. */
export async function queryTask(args: QueryArgs): Promise<QueryResult> {
  const queries = buildQueries(args.counts, args.documents);
  const mode = args.mode ?? "bm25";
  const topK = args.topK ?? 10;
  const before = settledMemory();
  const col = await openCollection({ indexDir: args.indexDir, collection: args.collection });
  try {
    const search = (q: BenchQuery) => col.search(q.text, { topK, mode });
    const classes: Partial<Record<QueryClass, ClassResult>> = {};
    for (const cls of QUERY_CLASSES) {
      const set = queries.filter((q) => q.cls === cls);
      if (set.length === 0) continue;
      try {
        classes[cls] = await timeQueries(set, search, args.warmup, args.budgetS);
      } catch (err) {
        if (err instanceof GroundkitError) return { mode, top_k: topK, classes, memory: memoryDelta(before), unavailable: err.code };
        throw err;
      }
    }
    return { mode, top_k: topK, classes, memory: memoryDelta(before) };
  } finally {
    await col.close();
  }
}

function memoryDelta(before: { heap: number; rss: number }): QueryResult["memory"] {
  const after = settledMemory();
  return { rss_delta_mb: mib(after.rss - before.rss), heap_delta_mb: mib(after.heap - before.heap), rss_mb: mib(after.rss) };
}

/**
 * Warm up on the first `warmup` queries (untimed), then time every query once,
 * in order, until the optional budget (seconds) runs out — at least 10 are timed,
 * and the number timed is reported with the result. With a budget, warm-up also
 * stops after a quarter of it (at least one call).
 */
export async function timeQueries(
  set: readonly BenchQuery[],
  run: (q: BenchQuery) => Promise<readonly unknown[]> | readonly unknown[],
  warmup: number,
  budgetS = Infinity,
): Promise<ClassResult> {
  const warmStart = performance.now();
  let warmed = 0;
  while (warmed < Math.min(warmup, set.length)) {
    if (warmed >= 1 && since(warmStart) > (budgetS * 1000) / 4) break;
    await run(set[warmed++]!);
  }
  const samples: number[] = [];
  let hits = 0;
  let empty = 0;
  const started = performance.now();
  // Queries not used for warm-up come first, so a budget cut times fresh queries.
  for (const q of [...set.slice(warmed), ...set.slice(0, warmed)]) {
    if (samples.length >= 10 && since(started) > budgetS * 1000) break;
    const t0 = performance.now();
    const res = await run(q);
    samples.push(since(t0));
    hits += res.length;
    if (res.length === 0) empty++;
  }
  return { latency: summarize(samples, warmed), queries: samples.length, mean_hits: round(hits / samples.length, 2), empty };
}

/** Size of a collection on disk: the SQLite file and its WAL/SHM (after a clean close). */
export async function indexBytes(ref: CollectionRef): Promise<number> {
  const col = await openCollection(ref);
  const path = col.path;
  await col.close();
  return filesSize([path, `${path}-wal`, `${path}-shm`]);
}
