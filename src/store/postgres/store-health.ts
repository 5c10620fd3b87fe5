/**
 * The PostgreSQL store's answers to `grk doctor` (store-health.ts): the same
 * row checks and safe repairs as a SQLite file's, as SQL on the collection's
 * schema. Foreign keys with ON DELETE CASCADE keep chunks and vectors tied to
 * their rows here, so orphans are found only where something bypassed them.
 * The server keeps the pgvector index and no file of ours: there is no file to
 * check and no derived structure doctor rebuilds (the BM25 segments are
 * caught up by every writer, lexical-segments.ts).
 */
import { chunkFault, MAX_NAMED, STALE, type ChunkRow } from "../chunk-fault.js";
import type { Store } from "../store.js";
import type { InconsistentDocument, StoreHealth, VectorCoverage } from "../store-health.js";
import type { PgRunner } from "./pg-pool.js";

/** Documents whose chunks are read per round trip by the consistency check. */
const DOCUMENT_PAGE = 200;

const ORPHAN_CHUNKS = "FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = c.doc_id)";
const ORPHAN_VECTORS = "FROM vectors v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk)";

/** `store` answers the vector counts; `tx` runs a write in one transaction. */
export function postgresHealth(
  db: PgRunner,
  store: Pick<Store, "vectorDimensions" | "countVectors" | "countChunksWithVectors" | "syncVectorIndex">,
  tx: <T>(fn: (db: PgRunner) => Promise<T>) => Promise<T>,
): StoreHealth {
  const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await db.query<{ n: number }>(sql, params)).rows[0]!.n);
  return {
    countOrphanChunks: () => count(`SELECT count(*) AS n ${ORPHAN_CHUNKS}`),
    // BM25's N and summed length are kept exact by every removal, this one included.
    deleteOrphanChunks: () =>
      tx(async (t) => {
        const gone = (await t.query<{ dl: number }>(`DELETE ${ORPHAN_CHUNKS} RETURNING c.dl`)).rows;
        if (gone.length > 0) {
          await t.query("UPDATE bm25_stats SET docs = docs - $1, total_len = total_len - $2 WHERE id = 1", [gone.length, gone.reduce((n, r) => n + r.dl, 0)]);
        }
        return gone.length;
      }),
    inconsistentDocuments: (maxNamed = MAX_NAMED) => inconsistentDocuments(db, maxNamed),
    markDocumentsStale: async (ids) =>
      (
        await db.query("UPDATE documents SET fingerprint = $1 || fingerprint WHERE document_id = ANY($2::text[]) AND left(fingerprint, $3) <> $1", [
          STALE,
          [...ids],
          STALE.length,
        ])
      ).rowCount,
    vectorCoverage: async (): Promise<VectorCoverage> => {
      const dimensions = await store.vectorDimensions();
      const missing = await count("SELECT count(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk = c.id)");
      if (dimensions === undefined) return { dimensions, vectors: 0, chunks_with_vectors: 0, missing, orphans: 0 };
      return {
        dimensions,
        vectors: await store.countVectors(),
        chunks_with_vectors: await store.countChunksWithVectors(),
        missing,
        orphans: await count(`SELECT count(*) AS n ${ORPHAN_VECTORS}`),
      };
    },
    sweepOrphanVectors: async () => (await db.query("DELETE FROM vectors WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = vectors.chunk)")).rowCount,
    recordedExtractors: async () =>
      (
        await db.query<{ extractor: string; documents: number }>(
          "SELECT extractor, count(*)::bigint AS documents FROM documents WHERE extractor IS NOT NULL GROUP BY extractor ORDER BY extractor COLLATE \"C\"",
        )
      ).rows,
    snapshotDocuments: async (after, limit) =>
      (
        await db.query<{ rowid: number; document_id: string; source: string; content_hash: string }>(
          "SELECT id AS rowid, document_id, source, content_hash FROM documents WHERE source_class = 'snapshot' AND id > $1 ORDER BY id LIMIT $2",
          [after, limit],
        )
      ).rows.map((r) => ({ ...r, rowid: Number(r.rowid) })),
    sampleChunkIds: async (cls, n) =>
      (
        await db.query<{ chunk_id: string }>(
          "SELECT c.chunk_id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.source_class = $1 ORDER BY random() LIMIT $2",
          [cls, n],
        )
      ).rows.map((r) => r.chunk_id),
    derivedStructures: () => [],
    damagedVectorIndexFiles: () => Promise.resolve([]),
    rebuildVectorIndex: async () => {
      const s = await store.syncVectorIndex();
      return { indexed_vectors: s.indexed_vectors, state: s.state };
    },
  };
}

/** Every document whose chunks are missing or disagree with it, a page of documents (and their chunks) per round trip. */
async function inconsistentDocuments(db: PgRunner, maxNamed: number): Promise<{ count: number; named: InconsistentDocument[] }> {
  let count = 0;
  const named: InconsistentDocument[] = [];
  for (let after = -1; ; ) {
    const docs = (
      await db.query<{ id: number; document_id: string; source: string; content_length: number; fingerprint: string }>(
        "SELECT id, document_id, source, content_length, fingerprint FROM documents WHERE id > $1 ORDER BY id LIMIT $2",
        [after, DOCUMENT_PAGE],
      )
    ).rows;
    if (docs.length === 0) return { count, named };
    after = Number(docs[docs.length - 1]!.id);
    const rows = (
      await db.query<ChunkRow & { doc_id: number }>(
        `SELECT doc_id, ordinal, text, start_offset, end_offset, start_line, end_line, text_hash FROM chunks
         WHERE doc_id = ANY($1::bigint[]) ORDER BY doc_id, ordinal`,
        [docs.map((d) => d.id)],
      )
    ).rows;
    const byDoc = new Map<number, ChunkRow[]>();
    for (const r of rows) byDoc.set(Number(r.doc_id), [...(byDoc.get(Number(r.doc_id)) ?? []), r]);
    for (const d of docs) {
      const chunks = byDoc.get(Number(d.id)) ?? [];
      let reason: string | undefined = chunks.length === 0 ? "it has no chunks" : undefined;
      for (let i = 0; reason === undefined && i < chunks.length; i++) reason = chunkFault(chunks[i]!, i, Number(d.content_length));
      if (reason === undefined) continue;
      count++;
      if (named.length < maxNamed) named.push({ document_id: d.document_id, source: d.source, reason, stale: d.fingerprint.startsWith(STALE) });
    }
  }
}
