/**
 * The crash torture's check of the HNSW index (src/store/sqlite/ann-index.ts):
 * opened the way the next process opens it after a kill, dense search through
 * the graph must answer exactly what exact search answers: never a chunk that is
 * gone, never without a committed one. Queries are stored vectors (each must find
 * its own chunk) and a few generated ones. The corpus is small, so the graph's
 * search is exhaustive and any difference is an inconsistency, not recall.
 */
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { mixSeed, Rng } from "./rng.js";

/** Stored vectors used as queries per check. */
const OWN_QUERIES = 24;
const RANDOM_QUERIES = 4;
const K = 10;

/** Violations found; `afterRecovery`: a finished ingest synced the index, so it must also be current. */
export function annViolations(dbPath: string, round: number, afterRecovery: boolean): string[] {
  const out: string[] = [];
  const ann = SqliteStore.open(dbPath, { create: false, vectorIndex: { minVectors: 1, filterExactMax: 0 } });
  const exact = SqliteStore.open(dbPath, { create: false, vectorIndex: { mode: "exact" } });
  try {
    const dims = exact.vectorDimensions();
    if (dims === undefined || exact.countVectors() === 0) return out;
    const status = ann.vectorIndexStatus();
    if (status.kind !== "hnsw") out.push(`ANN index not in use (${status.reason ?? "?"})`);
    if (afterRecovery && status.state !== "current") out.push(`ANN index ${status.state} after a completed ingest`);
    const rows = exact.db
      .prepare("SELECT v.rowid AS rowid, v.embedding AS embedding, c.chunk_id AS chunk_id FROM chunk_vectors v JOIN chunks c ON c.id = v.rowid")
      .all() as Array<{ rowid: number; embedding: Buffer; chunk_id: string }>;
    const rng = new Rng(mixSeed(round, 0xa11));
    const queries: Array<{ vector: Float32Array; own?: string }> = [];
    for (let i = 0; i < Math.min(OWN_QUERIES, rows.length); i++) {
      const r = rows[rng.int(0, rows.length)]!;
      const v = new Float32Array(dims);
      new Uint8Array(v.buffer).set(r.embedding.subarray(0, dims * 4));
      queries.push({ vector: v, own: r.chunk_id });
    }
    for (let i = 0; i < RANDOM_QUERIES; i++) queries.push({ vector: Float32Array.from({ length: dims }, () => rng.float() * 2 - 1) });
    for (const q of queries) {
      const got = ann.searchVectors(q.vector, K).map((h) => h.chunk_id);
      const want = exact.searchVectors(q.vector, K).map((h) => h.chunk_id);
      if (got.join("|") !== want.join("|")) {
        out.push(`ANN answer differs from exact (${status.state}): got ${got.slice(0, 4).join(",")}… want ${want.slice(0, 4).join(",")}…`);
      }
      if (q.own !== undefined && !got.includes(q.own) && want.includes(q.own)) out.push(`ANN missed committed chunk ${q.own}`);
    }
  } finally {
    ann.close();
    exact.close();
  }
  return out.slice(0, 5);
}
