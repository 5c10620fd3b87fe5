/**
 * The crash torture's check of the HNSW index (src/store/sqlite/ann-index.ts):
 * opened the way the next process opens it after a kill, dense search through
 * the graph must answer exactly what exact search answers: never a chunk that is
 * gone, never without a committed one. Queries are stored vectors (each must find
 * its own chunk) and a few generated ones. The corpus is small, so the graph's
 * search is exhaustive and any difference is an inconsistency, not recall.
 */
import { SqliteEngine } from "../src/store/sqlite/sqlite-engine.js";
import { chunkOfKeySql } from "../src/store/vector-keys.js";
import { mixSeed, Rng } from "./rng.js";

/** Stored vectors used as queries per check. */
const OWN_QUERIES = 24;
const RANDOM_QUERIES = 4;
const K = 10;
/** Scores closer than this are a tie (float32 rounding in sqlite-vec's distance). */
const TIE = 1e-5;

/** Violations found; `afterRecovery`: a finished ingest synced the index, so it must also be current. */
export function annViolations(dbPath: string, round: number, afterRecovery: boolean): string[] {
  const out: string[] = [];
  const ann = SqliteEngine.open(dbPath, { create: false, vectorIndex: { minVectors: 1, filterExactMax: 0 } });
  const exact = SqliteEngine.open(dbPath, { create: false, vectorIndex: { mode: "exact" } });
  try {
    const dims = exact.vectorDimensions();
    if (dims === undefined || exact.countVectors() === 0) return out;
    const status = ann.vectorIndexStatus();
    if (status.kind !== "hnsw") out.push(`ANN index not in use (${status.reason ?? "?"})`);
    if (afterRecovery && status.state !== "current") out.push(`ANN index ${status.state} after a completed ingest`);
    if (afterRecovery && status.rerank_vectors !== true) out.push("ANN index without its re-rank vectors file after a completed ingest");
    const rows = exact.db
      // Every window's vector is a query that must find its own chunk.
      .prepare(`SELECT v.rowid AS rowid, v.embedding AS embedding, c.chunk_id AS chunk_id FROM chunk_vectors v JOIN chunks c ON c.id = ${chunkOfKeySql("v.rowid")}`)
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
      const gotHits = ann.searchVectors(q.vector, K);
      const wantHits = exact.searchVectors(q.vector, K);
      const got = gotHits.map((h) => h.chunk_id);
      if (got.join("|") !== wantHits.map((h) => h.chunk_id).join("|")) {
        // sqlite-vec scores in float32 (l2, then cosine), the graph's re-rank in double: near-ties may swap.
        // Anything else is a real difference: a score list that differs, or a clearly better chunk left out.
        const scoresDiffer = gotHits.length !== wantHits.length || gotHits.some((h, i) => Math.abs(h.score - wantHits[i]!.score) > TIE);
        const kth = gotHits.at(-1)?.score ?? -Infinity;
        const missed = wantHits.filter((h) => h.score > kth + TIE && !got.includes(h.chunk_id));
        if (scoresDiffer || missed.length > 0) {
          const show = (hs: typeof gotHits): string => hs.slice(0, 5).map((h) => `${h.chunk_id.slice(0, 8)}@${h.score.toFixed(6)}`).join(",");
          out.push(`ANN answer differs from exact (${status.state}): got ${show(gotHits)}… want ${show(wantHits)}…`);
        }
      }
      if (q.own !== undefined && !got.includes(q.own) && wantHits.some((h) => h.chunk_id === q.own)) out.push(`ANN missed committed chunk ${q.own}`);
    }
  } finally {
    ann.close();
    exact.close();
  }
  return out.slice(0, 5);
}
