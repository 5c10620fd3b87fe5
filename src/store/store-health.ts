/**
 * The row-level checks and safe repairs `grk doctor` runs on a collection's
 * store (collection/health.ts decides what they mean for a user). A backend
 * offers them through `Store.health()`; one that does not (PostgreSQL, for
 * now) returns undefined and doctor says so. Kept here so nothing above
 * store/ reaches into a backend's rows.
 */

/** One thing wrong, and what to do about it. */
export interface DoctorProblem {
  message: string;
  /** What the user should do (a command where there is one). */
  action: string;
  /** `grk doctor --repair` fixes it. */
  repairable: boolean;
}

/** The outcome of one check. */
export interface DoctorCheck {
  name: string;
  status: "ok" | "problem" | "skipped";
  detail: string;
  problems: DoctorProblem[];
}

/** What a store says of a collection's file before its rows are read. */
export interface FileChecks {
  checks: DoctorCheck[];
  /** The row checks can run on it. */
  usable: boolean;
  /** Damaged: nothing is repaired in it. */
  damaged: boolean;
  /** The older schema version it holds (opening it writable migrates it); undefined when current. */
  olderSchema: number | undefined;
  /** The schema version this groundkit writes. */
  schemaVersion: number;
}

/** A document whose chunk rows are inconsistent, and the first thing wrong with them. */
export interface InconsistentDocument {
  document_id: string;
  source: string;
  reason: string;
  /** Already marked for re-indexing. */
  stale: boolean;
}

/** How the vectors cover the chunks. */
export interface VectorCoverage {
  /** The vector table's dimensions; undefined when there is none (BM25-only). */
  dimensions: number | undefined;
  vectors: number;
  /** Chunks with a vector: fewer than `vectors` when chunks have one per window (window policy "max"). */
  chunks_with_vectors: number;
  /** Chunks without a vector. */
  missing: number;
  /** Vectors without a chunk. */
  orphans: number;
}

/** A structure derived from the rows (BM25 postings…): whether it is current, and how to rebuild it. */
export interface DerivedStructure {
  /** Short name shown by doctor (`postings`). */
  name: string;
  /** What it is, for people (`BM25 postings segments`). */
  description: string;
  /** Compare it with the rows; read-only. */
  check(): Promise<{ current: boolean; detail: string }>;
  /** Rebuild it from the rows; says what was done, in a sentence. */
  rebuild(): Promise<string>;
}

export interface StoreHealth {
  countOrphanChunks(): Promise<number>;
  /** Delete chunks that belong to no document; how many. */
  deleteOrphanChunks(): Promise<number>;
  /** Every document whose chunks are missing or disagree with it (count exact, at most `maxNamed` named). */
  inconsistentDocuments(maxNamed?: number): Promise<{ count: number; named: InconsistentDocument[] }>;
  /** Mark documents so the next ingest re-reads them; how many. */
  markDocumentsStale(documentIds: readonly string[]): Promise<number>;
  vectorCoverage(): Promise<VectorCoverage>;
  /** Delete vectors whose chunk is gone; how many. */
  sweepOrphanVectors(): Promise<number>;
  /** Extractor identities recorded on documents, with how many documents each. */
  recordedExtractors(): Promise<Array<{ extractor: string; documents: number }>>;
  /** Snapshot documents, a page at a time (row id order). */
  snapshotDocuments(afterRowid: number, limit: number): Promise<Array<{ rowid: number; document_id: string; source: string; content_hash: string }>>;
  /** Up to `n` random chunk ids of documents of a source class. */
  sampleChunkIds(sourceClass: string, n: number): Promise<string[]>;
  /** The derived structures doctor checks, in order. */
  derivedStructures(): readonly DerivedStructure[];
  /** Files of the ANN index that fail their checksum or header. */
  damagedVectorIndexFiles(): Promise<string[]>;
  /** Build the ANN index again from the vectors (a damaged one is discarded). */
  rebuildVectorIndex(): Promise<{ indexed_vectors: number; state: string }>;
}
