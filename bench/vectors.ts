/**
 * Vector search growth, measured on generated vectors written straight into a
 * sqlite-vec table through the store's own vector index
 * (src/store/sqlite/vector-index.ts: the `vec0` table, cosine ranking as l2 over
 * unit vectors, the KNN query the dense retriever runs) in a file opened the way
 * collections are (openDatabase: WAL, mmap), so 1M vectors take seconds to fill
 * instead of the hours a local model would need to embed 1M chunks.
 *
 * Vectors are 512-d (the local model's width), unit length, deterministic. The
 * table is filled in batches of 10k (one transaction each, bounded memory) and
 * grown through the requested sizes, measuring KNN latency at each; k = 10 (a
 * dense search's top 10) and k = 50 (hybrid's default candidate pool per side).
 */
import type { Db } from "../src/store/sqlite/db.js";
import { openDatabase } from "../src/store/sqlite/open-database.js";
import { ensureVectorTable, knn, upsertVectors, type VectorRow } from "../src/store/sqlite/vector-index.js";
import { mulberry32 } from "./corpus.js";
import { filesSize, mib, round, since, summarize, type Latency } from "./measure.js";

/** Vector width used (the local embedding model's). */
export const VECTOR_DIMENSIONS = 512;

const BATCH = 10_000;

/** Arguments of {@link vectorsTask}. */
export interface VectorsArgs {
  /** SQLite file to create (removed by the caller). */
  file: string;
  /** Sizes to measure at, ascending. */
  sizes: number[];
  queries: number;
  warmup: number;
}

/** Measurements at one size. */
export interface VectorPoint {
  vectors: number;
  /** Time to add the vectors since the previous size. */
  fill_ms: number;
  fill_vectors_per_s: number;
  file_mb: number;
  bytes_per_vector: number;
  knn10: Latency;
  knn50: Latency;
}

/** What {@link vectorsTask} measured. */
export interface VectorsResult {
  dimensions: number;
  distance: string;
  points: VectorPoint[];
}

/** A deterministic unit vector for `seed`. */
export function unitVector(seed: number, dims = VECTOR_DIMENSIONS): Float32Array {
  const rand = mulberry32(seed);
  const v = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    const x = rand() * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dims; i++) v[i] = v[i]! * inv;
  return v;
}

/** Fill a vec0 table through the given sizes and time KNN at each. */
export function vectorsTask(args: VectorsArgs): VectorsResult {
  const db = openDatabase(args.file, { create: true });
  try {
    ensureVectorTable(db, VECTOR_DIMENSIONS);
    const points: VectorPoint[] = [];
    let filled = 0;
    for (const size of [...args.sizes].sort((a, b) => a - b)) {
      const t0 = performance.now();
      while (filled < size) {
        const n = Math.min(BATCH, size - filled);
        const rows: VectorRow[] = [];
        for (let i = 0; i < n; i++) rows.push({ rowid: filled + i + 1, vector: unitVector(filled + i + 1) });
        upsertVectors(db, rows);
        filled += n;
      }
      const fillMs = since(t0);
      db.pragma("wal_checkpoint(TRUNCATE)");
      const file = filesSize([args.file, `${args.file}-wal`]);
      const queries = Array.from({ length: args.queries + args.warmup }, (_, i) => unitVector(1_000_000_000 + i));
      points.push({
        vectors: size,
        fill_ms: round(fillMs, 1),
        fill_vectors_per_s: Math.round(fillMs > 0 ? (size - (points.at(-1)?.vectors ?? 0)) / (fillMs / 1000) : 0),
        file_mb: mib(file),
        bytes_per_vector: Math.round(file / size),
        knn10: timeKnn(db, queries, 10, args.warmup),
        knn50: timeKnn(db, queries, 50, args.warmup),
      });
    }
    return { dimensions: VECTOR_DIMENSIONS, distance: "cosine ranking: l2 over unit vectors", points };
  } finally {
    db.close();
  }
}

function timeKnn(db: Db, queries: Float32Array[], k: number, warmup: number): Latency {
  for (let i = 0; i < warmup; i++) knn(db, queries[i]!, k);
  const samples: number[] = [];
  for (let i = warmup; i < queries.length; i++) {
    const t0 = performance.now();
    const hits = knn(db, queries[i]!, k);
    samples.push(since(t0));
    if (hits.length !== k) throw new Error(`knn returned ${hits.length} of ${k}`);
  }
  return summarize(samples, warmup);
}
