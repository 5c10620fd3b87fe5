/**
 * Row-level checks of a collection file for `grk doctor`: every document's
 * chunks are consistent with it and with their own text, no chunk lacks its
 * document, and, in a dense collection, every chunk has exactly one vector.
 * All of it streams over the rows; nothing holds the collection in memory.
 */
import { chunkFault, MAX_NAMED, STALE, type ChunkRow } from "../chunk-fault.js";
import type { InconsistentDocument, VectorCoverage } from "../store-health.js";
import type { Db } from "./db.js";
import { chunkOfKeySql } from "../vector-keys.js";
import { countChunksWithVectors, countVectors, deleteOrphanVectors, loadVectorExtension, VECTOR_TABLE, vectorTableDimensions } from "./vector-index.js";


/** Every document whose chunks are missing or disagree with it (count exact, at most `maxNamed` named). */
export function inconsistentDocuments(db: Db, maxNamed = MAX_NAMED): { count: number; named: InconsistentDocument[] } {
  const docs = db.prepare("SELECT id, document_id, source, content_length, fingerprint FROM documents ORDER BY id");
  const chunks = db.prepare(
    "SELECT ordinal, text, start_offset, end_offset, start_line, end_line, text_hash FROM chunks WHERE doc_id = ? ORDER BY ordinal",
  );
  let count = 0;
  const named: InconsistentDocument[] = [];
  for (const d of docs.iterate() as IterableIterator<{ id: number; document_id: string; source: string; content_length: number; fingerprint: string }>) {
    const rows = chunks.all(d.id) as ChunkRow[];
    let reason: string | undefined = rows.length === 0 ? "it has no chunks" : undefined;
    for (let i = 0; reason === undefined && i < rows.length; i++) reason = chunkFault(rows[i]!, i, d.content_length);
    if (reason === undefined) continue;
    count++;
    if (named.length < maxNamed) named.push({ document_id: d.document_id, source: d.source, reason, stale: d.fingerprint.startsWith(STALE) });
  }
  return { count, named };
}

/** Chunks whose document row is gone (only possible when something deleted rows with foreign keys off). */
export function countOrphanChunks(db: Db): number {
  return Number(db.prepare("SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = c.doc_id)").pluck().get());
}

/** Delete chunks without a document (their postings go with the postings rebuild). Returns how many. */
export function deleteOrphanChunks(db: Db): number {
  return db.prepare("DELETE FROM chunks WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = chunks.doc_id)").run().changes;
}

/**
 * Make the next ingest of these documents re-read their sources (their chunks
 * are rebuilt then). The rows stay, and stay searchable, until that ingest.
 */
export function markDocumentsStale(db: Db, documentIds: readonly string[]): number {
  const mark = db.prepare("UPDATE documents SET fingerprint = ? || fingerprint WHERE document_id = ? AND substr(fingerprint, 1, ?) <> ?");
  return db.transaction(() => documentIds.reduce((n, id) => n + mark.run(STALE, id, STALE.length, STALE).changes, 0)).immediate();
}


export function vectorCoverage(db: Db): VectorCoverage {
  const dimensions = vectorTableDimensions(db);
  if (dimensions === undefined) {
    return { dimensions, vectors: 0, chunks_with_vectors: 0, missing: Number(db.prepare("SELECT count(*) FROM chunks").pluck().get()), orphans: 0 };
  }
  // The vec0 table needs sqlite-vec in this connection (loaded on first use: BM25-only installs lack it).
  loadVectorExtension(db);
  const missing = Number(
    db.prepare(`SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM ${VECTOR_TABLE} v WHERE v.rowid = c.id)`).pluck().get(),
  );
  const orphans = Number(
    db.prepare(`SELECT count(*) FROM ${VECTOR_TABLE}_rowids v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = ${chunkOfKeySql("v.rowid")})`).pluck().get(),
  );
  return { dimensions, vectors: countVectors(db), chunks_with_vectors: countChunksWithVectors(db), missing, orphans };
}

/** Delete vectors whose chunk is gone. Returns how many. */
export function sweepOrphanVectors(db: Db): number {
  return db.transaction(() => deleteOrphanVectors(db)).immediate();
}

/** Extractor identities recorded on documents, with how many documents each. */
export function recordedExtractors(db: Db): Array<{ extractor: string; documents: number }> {
  return db
    .prepare("SELECT extractor, count(*) AS documents FROM documents WHERE extractor IS NOT NULL GROUP BY extractor ORDER BY extractor")
    .all() as Array<{ extractor: string; documents: number }>;
}

/** Snapshot documents, a page at a time (row id order). */
export function snapshotDocuments(db: Db, afterRowid: number, limit: number): Array<{ rowid: number; document_id: string; source: string; content_hash: string }> {
  return db
    .prepare("SELECT id AS rowid, document_id, source, content_hash FROM documents WHERE source_class = 'snapshot' AND id > ? ORDER BY id LIMIT ?")
    .all(afterRowid, limit) as Array<{ rowid: number; document_id: string; source: string; content_hash: string }>;
}

/** Up to `n` random chunk ids of documents of a source class (a uniform sample without replacement). */
export function sampleChunkIds(db: Db, sourceClass: string, n: number): string[] {
  return db
    .prepare("SELECT c.chunk_id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.source_class = ? ORDER BY random() LIMIT ?")
    .pluck()
    .all(sourceClass, n) as string[];
}

/** The schema version and the BM25 postings format a file records. */
export function postingsFormat(db: Db): number | undefined {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'bm25_state'").get();
  return exists ? (db.prepare("SELECT format FROM bm25_state WHERE id = 1").pluck().get() as number | undefined) : undefined;
}
