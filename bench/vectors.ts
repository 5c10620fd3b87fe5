/**
 * Vector search growth, measured on generated vectors written straight into a
 * sqlite-vec table through the store's own vector index
 * (src/store/sqlite/vector-index.ts: the `vec0` table, cosine ranking as l2 over
 * unit vectors, the KNN query the dense retriever runs) in a file opened the way
 * collections are (openDatabase: WAL, mmap), so 1M vectors take seconds to fill
 * instead of the hours a local model would need to embed 1M chunks. At each size
 * the same queries run exactly (sqlite-vec) and through the HNSW index
 * (src/store/sqlite/ann-index.ts), side by side: recall@10 against exact, latency,
 * build time, the rate new vectors are absorbed, memory and file size; at 100k,
 * filtered search at several selectivities, graph vs exact (the crossover).
 *
 * Vectors are 384-d (the default local model's width), unit length,
 * deterministic, and shaped like text embeddings rather than uniform noise: a
 * random 32-dimensional latent (one of N/200 topic centres plus spread) mapped
 * into 384 dimensions, plus a little full-width noise. Uniform random vectors in
 * 384-d have no neighbourhood structure (every distance is about the same), which
 * no real embedding model produces and on which any graph index's recall
 * collapses (measured in docs/decisions/0009-ann-vector-index.md). The table is
 * filled in batches of 10k (one transaction each, bounded memory); k = 10 (a
 * dense search's top 10) and k = 50 (hybrid's default candidate pool per side).
 */
import type { Db } from "../src/store/sqlite/db.js";
import { openDatabase } from "../src/store/sqlite/open-database.js";
import { deleteVectors, ensureVectorTable, knn, upsertVectors, type VectorHit, type VectorRow } from "../src/store/sqlite/vector-index.js";
import { AnnIndex } from "../src/store/sqlite/ann-index.js";
import { dataFileBytes, readAnnHeader, removeAnnFiles } from "../src/store/sqlite/ann-file.js";
import { mulberry32 } from "./corpus.js";
import { filesSize, mib, round, since, summarize, type Latency } from "./measure.js";

/** Vector width used (the default local embedding model's, all-MiniLM-L6-v2). */
export const VECTOR_DIMENSIONS = 384;

/** Vectors added after each build to time how fast the index absorbs new ones. */
const INCREMENT = 2_000;
/** Rowids of those vectors: above any filled one, deleted again after. */
const INCREMENT_BASE = 2_000_000_000;
/** Filter selectivities measured at 100k vectors (fraction of vectors passing). */
const SELECTIVITIES = [0.5, 0.1, 0.02, 0.005];
/** Point-read exact search is timed only up to this many passing vectors. */
const POINT_READS_MAX = 10_000;

const BATCH = 10_000;
/** Default queries timed through the HNSW index at each size. */
const ANN_TIMED_QUERIES = 500;

/** Arguments of {@link vectorsTask}. */
export interface VectorsArgs {
  /** SQLite file to create (removed by the caller). */
  file: string;
  /** Sizes to measure at, ascending. */
  sizes: number[];
  queries: number;
  /**
   * Queries the HNSW index is timed on (default {@link ANN_TIMED_QUERIES}): more than
   * the exact ones, which take a second each at 1M, so its p99 is not its maximum.
   */
  annQueries?: number;
  warmup: number;
}

/** Measurements at one size. */
export interface VectorPoint {
  vectors: number;
  /** The HNSW index at this size, on the same queries. */
  ann?: AnnPoint;
  /** Time to add the vectors since the previous size. */
  fill_ms: number;
  fill_vectors_per_s: number;
  file_mb: number;
  bytes_per_vector: number;
  knn10: Latency;
  knn50: Latency;
}

/** The HNSW index at one size. */
export interface AnnPoint {
  build_ms: number;
  build_vectors_per_s: number;
  file_mb: number;
  /** RSS added by building, saving and querying the index (MiB). */
  rss_mb: number;
  recall10: number;
  knn10: Latency;
  knn50: Latency;
  /** New vectors absorbed per second by a search (the log caught up in memory). */
  catch_up_vectors_per_s: number;
  /** Folding those new vectors into the saved index (load, apply, save). */
  sync_ms: number;
  filtered?: FilteredPoint[];
}

/** Filtered k = 10 search at one selectivity: exact (sqlite-vec) vs the widened graph. */
export interface FilteredPoint {
  selectivity: number;
  passing: number;
  exact_p50_ms: number;
  /** Exact by reading only the passing vectors (what the store does below its filter threshold). */
  exact_point_reads_p50_ms: number | null;
  ann_p50_ms: number;
  ann_recall10: number;
  /** Queries the graph could not fill within its widest candidate list (answered exactly). */
  ann_fallbacks: number;
}

/** What {@link vectorsTask} measured. */
export interface VectorsResult {
  dimensions: number;
  distance: string;
  points: VectorPoint[];
}

const LATENT = 32;

/** A deterministic embedding-like unit vector: a topic centre's latent plus spread, mapped to `dims`. */
export function embeddingLikeVector(seed: number, topics: number, dims = VECTOR_DIMENSIONS): Float32Array {
  const { mixing, centres } = latentModel(topics, dims);
  const rand = mulberry32(seed);
  const centre = centres[Math.floor(rand() * topics)]!;
  const z = new Float64Array(LATENT);
  for (let i = 0; i < LATENT; i++) z[i] = centre[i]! + 0.7 * gaussian(rand);
  const v = new Float32Array(dims);
  let norm = 0;
  for (let d = 0; d < dims; d++) {
    let x = 0.3 * gaussian(rand);
    for (let i = 0; i < LATENT; i++) x += mixing[d * LATENT + i]! * z[i]!;
    v[d] = x;
    norm += x * x;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let d = 0; d < dims; d++) v[d] = v[d]! * inv;
  return v;
}

let model: { key: string; mixing: Float64Array; centres: Float64Array[] } | undefined;

function latentModel(topics: number, dims: number): { mixing: Float64Array; centres: Float64Array[] } {
  const key = `${topics}/${dims}`;
  if (model?.key !== key) {
    const rand = mulberry32(7);
    const mixing = new Float64Array(dims * LATENT).map(() => gaussian(rand));
    const centres = Array.from({ length: topics }, () => new Float64Array(LATENT).map(() => gaussian(rand)));
    model = { key, mixing, centres };
  }
  return model;
}

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
}

/** Fill a vec0 table through the given sizes and time KNN at each. */
export function vectorsTask(args: VectorsArgs): VectorsResult {
  const db = openDatabase(args.file, { create: true });
  try {
    ensureVectorTable(db, VECTOR_DIMENSIONS);
    const points: VectorPoint[] = [];
    let filled = 0;
    const sizes = [...args.sizes].sort((a, b) => a - b);
    // One topic model for the whole run: every size draws from the same distribution.
    const topics = Math.max(16, Math.floor(sizes[sizes.length - 1]! / 200));
    const gen = (seed: number): Float32Array => embeddingLikeVector(seed, topics);
    for (const size of sizes) {
      const t0 = performance.now();
      while (filled < size) {
        const n = Math.min(BATCH, size - filled);
        const rows: VectorRow[] = [];
        for (let i = 0; i < n; i++) rows.push({ rowid: filled + i + 1, vector: gen(filled + i + 1) });
        upsertVectors(db, rows);
        filled += n;
      }
      const fillMs = since(t0);
      db.pragma("wal_checkpoint(TRUNCATE)");
      const file = filesSize([args.file, `${args.file}-wal`]);
      const queries = Array.from({ length: args.queries + args.warmup }, (_, i) => gen(1_000_000_000 + i));
      const exact10 = queries.map((q) => knn(db, q, 10).map((h) => h.rowid));
      points.push({
        vectors: size,
        fill_ms: round(fillMs, 1),
        fill_vectors_per_s: Math.round(fillMs > 0 ? (size - (points.at(-1)?.vectors ?? 0)) / (fillMs / 1000) : 0),
        file_mb: mib(file),
        bytes_per_vector: Math.round(file / size),
        knn10: timeKnn(db, queries, 10, args.warmup),
        knn50: timeKnn(db, queries, 50, args.warmup),
        ann: annPoint(db, args.file, queries, exact10, args.warmup, size, gen, args.annQueries ?? ANN_TIMED_QUERIES),
      });
    }
    return { dimensions: VECTOR_DIMENSIONS, distance: "cosine ranking: l2 over unit vectors", points };
  } finally {
    db.close();
  }
}

function timeKnn(db: Db, queries: Float32Array[], k: number, warmup: number): Latency {
  return timeSearch(queries, k, warmup, (q) => knn(db, q, k));
}

function timeSearch(queries: Float32Array[], k: number, warmup: number, search: (q: Float32Array) => VectorHit[]): Latency {
  for (let i = 0; i < warmup; i++) search(queries[i]!);
  const samples: number[] = [];
  for (let i = warmup; i < queries.length; i++) {
    const t0 = performance.now();
    const hits = search(queries[i]!);
    samples.push(since(t0));
    if (hits.length !== k) throw new Error(`search returned ${hits.length} of ${k}`);
  }
  return summarize(samples, warmup);
}

/** Share of the exact top 10 the graph found, over all queries. */
function recall(found: number[][], exact: number[][]): number {
  let hit = 0;
  let total = 0;
  found.forEach((f, i) => {
    const truth = new Set(exact[i]);
    total += truth.size;
    hit += f.filter((id) => truth.has(id)).length;
  });
  return round(total === 0 ? 1 : hit / total, 4);
}

/**
 * Build the HNSW index from scratch at this size (the saved files removed first),
 * time the same queries through it, then absorb {@link INCREMENT} new vectors
 * (caught up by a search, then folded into the saved file) and remove them again.
 */
function annPoint(
  db: Db,
  file: string,
  queries: Float32Array[],
  exact10: number[][],
  warmup: number,
  size: number,
  gen: (seed: number) => Float32Array,
  timed: number,
): AnnPoint {
  removeAnnFiles(file);
  const rss0 = process.memoryUsage().rss;
  // minVectors 0: measure the graph at every size, even where the store would search exactly.
  const ann = new AnnIndex(db, file, true, { minVectors: 0 });
  const t0 = performance.now();
  ann.sync();
  const buildMs = since(t0);
  const read = <T>(fn: () => T): T => db.transaction(fn)();
  const search = (q: Float32Array, k: number): VectorHit[] => read(() => ann.search(q, k) ?? []);
  // Timed on their own queries (same distribution, seeds no exact query uses); recall on the exact ones.
  const timedQueries = Array.from({ length: timed + warmup }, (_, i) => gen(1_500_000_000 + i));
  const knn10 = timeSearch(timedQueries, 10, warmup, (q) => search(q, 10));
  const knn50 = timeSearch(timedQueries, 50, warmup, (q) => search(q, 50));
  const recall10 = recall(queries.map((q) => search(q, 10).map((h) => h.rowid)), exact10);
  const rssMb = mib(Math.max(0, process.memoryUsage().rss - rss0));
  const header = readAnnHeader(file);
  const fileMb = header ? mib(dataFileBytes(file, header)) : 0;

  const added: VectorRow[] = Array.from({ length: INCREMENT }, (_, i) => ({ rowid: INCREMENT_BASE + i, vector: gen(INCREMENT_BASE + i) }));
  upsertVectors(db, added);
  const t1 = performance.now();
  search(queries[0]!, 10);
  const catchUpMs = since(t1);
  const t2 = performance.now();
  ann.sync();
  const syncMs = since(t2);
  deleteVectors(db, added.map((r) => r.rowid));

  const filtered = size === 100_000 ? filteredPoints(db, ann, queries, warmup, size) : undefined;
  return {
    build_ms: round(buildMs, 1),
    build_vectors_per_s: Math.round(size / (buildMs / 1000)),
    file_mb: fileMb,
    rss_mb: rssMb,
    recall10,
    knn10,
    knn50,
    catch_up_vectors_per_s: Math.round(INCREMENT / (catchUpMs / 1000)),
    sync_ms: round(syncMs, 1),
    ...(filtered ? { filtered } : {}),
  };
}

/** Filtered k = 10 at each selectivity: exact over the passing rowids vs the graph widened by selectivity. */
function filteredPoints(db: Db, ann: AnnIndex, queries: Float32Array[], warmup: number, size: number): FilteredPoint[] {
  return SELECTIVITIES.map((selectivity) => {
    const every = Math.round(1 / selectivity);
    const allowed = new Set<number>();
    for (let id = 1; id <= size; id += every) allowed.add(id);
    const exactTimes: number[] = [];
    const annTimes: number[] = [];
    const pointTimes: number[] = [];
    const exact: number[][] = [];
    const found: number[][] = [];
    let fallbacks = 0;
    queries.forEach((q, i) => {
      const t0 = performance.now();
      const e = knn(db, q, 10, { rowids: allowed });
      const te = since(t0);
      const t1 = performance.now();
      const a = db.transaction(() => ann.search(q, 10, allowed))();
      const ta = since(t1);
      // Point reads only where the store would use them (a read per passing vector).
      if (allowed.size <= POINT_READS_MAX) {
        const t2 = performance.now();
        db.transaction(() => ann.exactAmong(q, 10, allowed))();
        if (i >= warmup) pointTimes.push(since(t2));
      }
      if (i < warmup) return;
      if (a === undefined) fallbacks++;
      exactTimes.push(te);
      annTimes.push(ta);
      exact.push(e.map((h) => h.rowid));
      found.push((a ?? e).map((h) => h.rowid));
    });
    return {
      selectivity,
      passing: allowed.size,
      exact_p50_ms: summarize(exactTimes, warmup).p50_ms,
      exact_point_reads_p50_ms: pointTimes.length > 0 ? summarize(pointTimes, warmup).p50_ms : null,
      ann_p50_ms: summarize(annTimes, warmup).p50_ms,
      ann_recall10: recall(found, exact),
      ann_fallbacks: fallbacks,
    };
  });
}
