/**
 * The store interface retrieval and ingest talk to. The embedded default is
 * SQLite (store/sqlite); PostgreSQL (store/postgres) implements the same shape.
 *
 * Every call returns a Promise, so a server-backed store keeps several queries
 * in flight without blocking the event loop; the SQLite store runs its
 * (synchronous) statements when called and hands back a settled Promise.
 * See docs/decisions/0019-async-store-contract.md.
 */
import type { ChunkCode } from "../core/code-languages.js";
import type { SourceClass } from "../core/contracts.js";
import type { HistoryChunk, HistoryHealth, HistoryPruned, HistoryRecord, HistoryRetention, HistorySpan, HistoryTotals, HistoryVersion } from "./history.js";
import type { StoreHealth } from "./store-health.js";
import type { ChunkVectors } from "./vectors.js";


/** A document row as persisted. */
export interface StoredDocument {
  document_id: string;
  source: string;
  source_class: SourceClass;
  extractor: string | null;
  base_dir: string | null;
  fingerprint: string;
  content_hash: string;
  content_length: number;
  ingested_at: string;
  metadata: Record<string, unknown>;
}

/** A chunk row to write. */
export interface NewChunk {
  chunk_id: string;
  ordinal: number;
  text: string;
  start_offset: number;
  end_offset: number;
  start_line: number;
  end_line: number;
  page_start: number | null;
  page_end: number | null;
  /**
   * Lines of the source file (HTML) the chunk's text came from, when its extractor
   * says; null otherwise (text sources, PDFs, chunks ingested before source lines existed).
   * Kept in the chunk's metadata JSON, so no schema changes.
   */
  source_start_line?: number | null | undefined;
  source_end_line?: number | null | undefined;
  /**
   * Where the chunk sits in an office document or e-book, as its reader names it
   * (`slide 3`, `Budget!A1:C7`, `chapter 2 (The Road)`, `Install > Linux`); null
   * otherwise. Kept in the chunk's metadata JSON, so no schema changes.
   */
  location?: string | null | undefined;
  text_hash: string;
  heading_path: string[];
  /** Code files: the language and the definitions the chunk holds; kept in the chunk's metadata JSON. */
  code?: ChunkCode | undefined;
}

/** A chunk row joined with its document, as read back. */
export interface StoredChunk extends NewChunk {
  source_start_line: number | null;
  source_end_line: number | null;
  location: string | null;
  document: StoredDocument;
}

/** One document to write: its row, its chunks and (dense collections) their vectors. */
export interface DocumentWrite {
  doc: StoredDocument;
  chunks: NewChunk[];
  vectors?: readonly ChunkVectors[] | undefined;
}

/** {@link Store.replaceDocuments} one document at a time (each in its own savepoint): what each threw. */
export async function replaceEach(store: Pick<Store, "replaceDocument">, writes: readonly DocumentWrite[]): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (const w of writes) {
    try {
      await store.replaceDocument(w.doc, w.chunks, w.vectors);
      errors.push(undefined);
    } catch (err) {
      errors.push(err);
    }
  }
  return errors;
}

/** A search hit: a chunk and its score (higher is better). */
export interface ScoredChunk extends StoredChunk {
  score: number;
}

/** What `grk status` shows about the vector index. */
export interface VectorIndexStatus {
  /** `hnsw` when dense search uses the ANN index, `exact` when it scans sqlite-vec. */
  kind: "hnsw" | "exact";
  /** Why search is exact, when it is. */
  reason: string | null;
  /** The ANN library (hnsw), or the engine of an exact scan other than sqlite-vec (`postgresql`). */
  library: string | null;
  /**
   * `current`: the saved index holds every committed vector; `behind`: the log holds
   * changes the next search applies in memory (and the next ingest folds in);
   * `stale`: the saved index is not an ancestor of the vectors (ahead, foreign or
   * pruned): it is rebuilt on first use; `missing`: none saved yet; `none`: exact search.
   */
  state: "current" | "behind" | "stale" | "missing" | "none";
  vectors: number;
  indexed_vectors: number;
  pending_changes: number;
  file_bytes: number;
  /**
   * SQLite's saved HNSW index only: whether its re-rank vectors file is there. Without it
   * searches re-rank from sqlite-vec (correct, slow at scale) until the next ingest or
   * `grk doctor --repair` writes it.
   */
  rerank_vectors?: boolean;
}

/** Counts for `grk status`. */
export interface StoreStats {
  documents: number;
  chunks: number;
  documents_by_class: Record<string, number>;
  chunks_by_class: Record<string, number>;
  schema_version: number;
  generation: number;
  last_ingest_at: string | null;
}

/**
 * One parsed restriction on a document, already validated (retrieve/filters.ts).
 * A backend compiles these into its own query language; none of them is SQL.
 */
export type FilterClause =
  /**
   * The document's filterable path (relative to its base dir; the URL for a snapshot) matches a glob
   * (core/glob.ts syntax); with `absolute`, its absolute source path does (the form the CLI prints).
   */
  | { kind: "path_glob"; glob: string; absolute?: boolean }
  /** The document's filterable path (with `absolute`: its absolute source) starts with a prefix. */
  | { kind: "path_prefix"; prefix: string; absolute?: boolean }
  | { kind: "class"; sourceClass: SourceClass }
  /** The file extension, lowercased with its dot (`.md`). */
  | { kind: "ext"; ext: string }
  /** Ingest time compared with an ISO-8601 UTC timestamp. */
  | { kind: "ingested"; op: ">=" | ">" | "<=" | "<"; at: string }
  /** Front matter `tags` (or `tag`) equals or contains the value. */
  | { kind: "tag"; value: string }
  /** Any other front-matter field equals, or (a list) contains, the value; `field` matches `[A-Za-z][A-Za-z0-9_-]*`. */
  | { kind: "metadata"; field: string; value: string }
  /**
   * A code chunk holds, or is a part of, a definition with this name (lowercased): its qualified
   * name or a dotted suffix of it (`collection.search`, `search`); see core/code-languages.ts symbolKeys.
   */
  | { kind: "symbol"; name: string };

/** Restrictions applied inside the query (not by trimming a result list): every clause must hold. */
export interface ChunkFilter {
  clauses: readonly FilterClause[];
}

/** What ingest needs to know of a stored document to skip or keep it: cheap to read. */
export interface DocumentState {
  fingerprint: string;
  base_dir: string | null;
}

/** A page entry of {@link Store.unseenDocumentsUnder}. */
export interface DocumentRef {
  rowid: number;
  document_id: string;
  source: string;
  source_class: SourceClass;
}

/** A stored document sharing chunk texts with a new one ({@link Store.documentsSharingChunks}). */
export interface SharedChunks {
  document_id: string;
  source: string;
  source_class: SourceClass;
  ingested_at: string;
  /** Distinct chunk text hashes it shares with the ones asked about. */
  shared: number;
  /** Distinct chunk text hashes it has. */
  distinct_chunks: number;
}

/** Where {@link Store.moveDocument} puts a document: its new source, base dir and metadata. */
export interface DocumentMove {
  source: string;
  base_dir: string | null;
  metadata: Record<string, unknown>;
}

/** A row of {@link Store.listDocuments}: a document and how many chunks it has. */
export interface DocumentListing extends StoredDocument {
  chunks: number;
}

export interface Store {
  /**
   * Up to `limit` documents whose source starts with `prefix` (all when empty),
   * in source order, after the source `after` (keyset paging: stable while
   * others write, unlike an offset).
   */
  listDocuments(opts: { prefix?: string | undefined; after?: string | undefined; limit: number }): Promise<DocumentListing[]>;
  /** Up to `limit` document ids starting with `prefix`, in id order (resolving a short id). */
  documentIdsWithPrefix(prefix: string, limit: number): Promise<string[]>;
  /** Up to `limit` chunk ids starting with `prefix`, in id order (resolving a short id). */
  chunkIdsWithPrefix(prefix: string, limit: number): Promise<string[]>;
  /** The chunk of a document whose span holds `offset` (else the last one starting before it; else its first). */
  chunkIdAt(documentId: string, offset: number): Promise<string | undefined>;
  getDocumentBySource(source: string): Promise<StoredDocument | undefined>;
  getDocument(documentId: string): Promise<StoredDocument | undefined>;
  /** The fingerprint and base dir of the document at `source`, if any. */
  documentState(source: string): Promise<DocumentState | undefined>;
  /**
   * The documents stored at any of `sources` or under any of `documentIds`, in no particular order:
   * what a folder walk asks about a page of files in one call (ingest/walk-lookahead.ts).
   */
  documentsAt(sources: readonly string[], documentIds: readonly string[]): Promise<StoredDocument[]>;
  /** Those of `fingerprints` some stored document has (a page of {@link Store.documentsWithFingerprint} in one call). */
  heldFingerprints(fingerprints: readonly string[]): Promise<string[]>;
  /**
   * Replace (or insert) a document with its chunks (and their vectors, when
   * given) in ONE transaction, or in a savepoint of the caller's
   * {@link Store.transaction}.
   */
  replaceDocument(doc: StoredDocument, chunks: NewChunk[], vectors?: readonly ChunkVectors[]): Promise<void>;
  /**
   * {@link replaceDocument} for each of `writes` in order, inside the caller's
   * {@link Store.transaction}: a document that fails rolls back alone. Returns
   * what each threw (undefined when written). A server-backed store writes
   * them with a few statements for the whole batch when none fails.
   */
  replaceDocuments(writes: readonly DocumentWrite[]): Promise<unknown[]>;
  /**
   * Optional: do now the work a later {@link replaceDocuments} of this same
   * array (not changed in between) needs that does not depend on what is
   * stored, so a caller writing behind (ingest, ADR 0035) does it while the
   * write before is still in flight instead of while the server waits.
   * Writes nothing; a store without it does the work in the write.
   */
  prepareWrites?(writes: readonly DocumentWrite[]): void;
  deleteDocument(documentId: string): Promise<boolean>;
  /**
   * Up to `limit` documents whose fingerprint is `fingerprint`, in source order:
   * where a new file's content was already indexed (move detection at ingest).
   */
  documentsWithFingerprint(fingerprint: string, limit: number): Promise<DocumentRef[]>;
  /**
   * Give a document another source (a file that moved), keeping its id, its
   * chunks (ids, text, offsets), their postings and vectors; one transaction, or
   * a savepoint of the caller's. False when no document has `documentId`.
   * Throws when another document already has `to.source`.
   */
  moveDocument(documentId: string, to: DocumentMove): Promise<boolean>;
  /** Up to `limit` chunks whose text hashes to `textHash`, in chunk id order (finding cited text elsewhere). */
  chunksWithTextHash(textHash: string, limit: number): Promise<StoredChunk[]>;
  /**
   * Up to `limit` documents holding at least `minShared` of the distinct chunk
   * text hashes `textHashes`, most shared first (then document id): where a new
   * file's content mostly was already (a rename with edits, ingest/moves.ts).
   */
  documentsSharingChunks(textHashes: readonly string[], minShared: number, limit: number): Promise<SharedChunks[]>;
  /**
   * Run `fn` in one write transaction, talking to the store through `tx`
   * (never through this handle: on PostgreSQL the transaction is one pooled
   * connection, which `tx` stands for). Writes inside it become savepoints, so
   * one that throws rolls back alone; the rest commit together with fewer,
   * larger commits. `tx.transaction` opens a savepoint. Other callers of this
   * handle meanwhile do not see the transaction's writes before it commits.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Run reads that must agree with each other (a search's statements, a
   * status's counts) through `tx`, and only reads: calls outside it read (and
   * write) the primary. On a PostgreSQL store with read replicas `tx` is one
   * READ ONLY REPEATABLE READ transaction on one connection of one replica
   * (the primary when none can answer): its reads see one snapshot, and a
   * write through it fails. Without replicas (and on SQLite, whose one
   * connection per process is shared with its writers) `tx` is this handle:
   * each call reads the latest commit, as outside it.
   */
  readSnapshot<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Start a new record of the sources a folder walk sees (see
   * {@link Store.unseenDocumentsUnder}). It is kept by the store, not in
   * memory: a walk of a million files must not hold a million paths.
   */
  resetSeenSources(): Promise<void>;
  /** Record that the current walk saw `source` (idempotent). */
  markSourceSeen(source: string): Promise<void>;
  /**
   * Up to `limit` documents whose source starts with `prefix`, was not
   * recorded by {@link Store.markSourceSeen} since the last reset, and whose
   * row id is above `afterRowid`, in row id order: what pruning a folder
   * removes, a page at a time. Decided by source, never by row id: another
   * writer's replacement of a document the walk saw has a new row id.
   */
  unseenDocumentsUnder(prefix: string, afterRowid: number, limit: number): Promise<DocumentRef[]>;
  getChunk(chunkId: string): Promise<StoredChunk | undefined>;
  /** BM25 over analyzed query terms (see analysis/analyzer). */
  searchLexical(terms: string[], limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]>;
  /** Nearest chunks to a query vector; score is cosine similarity. */
  searchVectors(query: Float32Array, limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]>;
  vectorDimensions(): Promise<number | undefined>;
  /** Stored vectors: one per chunk, or one per window of a chunk under window policy "max". */
  countVectors(): Promise<number>;
  /** Chunks that have a vector (what dense search can find). */
  countChunksWithVectors(): Promise<number>;
  chunksMissingVectors(limit: number): Promise<Array<{ rowid: number; text: string }>>;
  allChunkTexts(): Promise<Array<{ rowid: number; text: string }>>;
  /** Give existing chunks their vectors (a chunk's windows replace whatever it had). */
  writeVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>): Promise<void>;
  replaceAllVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>, meta: Record<string, string>): Promise<void>;
  /** Up to `limit` documents with a row id above `afterRowid`, in row id order (copying a collection a page at a time). */
  documentsAfter(afterRowid: number, limit: number): Promise<DocumentRef[]>;
  /** A document's chunks in ordinal order, with their row ids (for {@link Store.vectorsOf}). */
  chunksOf(documentId: string): Promise<Array<NewChunk & { rowid: number }>>;
  /** The stored vectors of these chunk row ids, each chunk's windows first window first (unit length); absent ids are left out. */
  vectorsOf(rowids: number[]): Promise<Map<number, Float32Array[]>>;
  /** Every meta key and value. */
  allMeta(): Promise<Record<string, string>>;
  /** Which vector index dense search uses (exact or HNSW), its size and whether it is current. */
  vectorIndexStatus(): Promise<VectorIndexStatus>;
  /**
   * Bring the indexes derived from the committed rows up to date after a write: the
   * saved ANN index (fold in logged changes, or build it), and on PostgreSQL the BM25
   * segments too (ADR 0020). Writers only, under the writer lock; `onProgress` reports
   * a build. Long builds never run on the caller's event loop (SQLite: a worker thread;
   * PostgreSQL: the server builds its index).
   */
  syncVectorIndex(onProgress?: (done: number, total: number) => void): Promise<VectorIndexStatus>;
  getMeta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
  stats(): Promise<StoreStats>;
  /**
   * Keep a document's previous version whenever this handle (and its transactions) replace it with different
   * content or delete it (store/history.ts). Off by default: then those writes read and write nothing more.
   */
  setHistoryRecording(on: boolean): Promise<void>;
  /** A document's previous versions, newest first (without text). */
  historyOf(documentId: string): Promise<HistoryVersion[]>;
  /** A previous version's chunk spans with their text, in ordinal order. */
  historySpans(versionId: number): Promise<HistorySpan[]>;
  /** The newest kept version holding a chunk no longer indexed, with that chunk (what an old citation pointed at). */
  historyChunk(chunkId: string): Promise<HistoryChunk | undefined>;
  /** Enforce a retention (disabled: drop all history) and drop unreferenced blocks; one transaction. */
  pruneHistory(retention: HistoryRetention, now: Date): Promise<HistoryPruned>;
  /** Totals and integrity of the history (dangling spans, blocks whose text does not hash to their key). */
  historyHealth(): Promise<HistoryHealth>;
  /** Counts and the oldest kept version's times, without reading any text (`grk status`). */
  historyTotals(): Promise<HistoryTotals>;
  /** Up to `limit` kept versions with an id above `afterVersionId`, oldest first, each with its spans and their text. */
  historyPage(afterVersionId: number, limit: number): Promise<HistoryRecord[]>;
  /**
   * Add kept versions (from {@link historyPage} of another collection) after the ones here, in order, their
   * text stored once per block; inside the caller's {@link transaction}.
   */
  writeHistory(records: readonly HistoryRecord[]): Promise<void>;
  /** The metadata field names any document has (front-matter fields, plus `rel_path` and `ext`), sorted. */
  metadataFields(): Promise<string[]>;
  /** The row-level checks and safe repairs of `grk doctor`; undefined when this store does not offer them. */
  health(): StoreHealth | undefined;
  close(): Promise<void>;
}
