/**
 * The embedded store's engine: one SQLite file per collection, read and written
 * synchronously through better-sqlite3. Every write that touches a document
 * (row, chunks, BM25 postings, vectors) commits together, so a crash leaves
 * each document at its old or its new state. sqlite-store.ts puts the
 * asynchronous Store contract on it.
 */
import type { Statement } from "better-sqlite3";
import { GroundkitError } from "../../core/errors.js";
import { chunkTokens } from "../../analysis/chunk-tokens.js";
import type {
  ChunkFilter,
  DocumentListing,
  DocumentMove,
  DocumentRef,
  DocumentState,
  NewChunk,
  ScoredChunk,
  StoreStats,
  SharedChunks,
  StoredChunk,
  StoredDocument,
  VectorIndexStatus,
} from "../store.js";
import { CHUNK_COLUMNS, chunkMetadataJson, COUNTS_BY_CLASS_SQL, DOC_COLUMNS, joinedRowOfRaw, statsOf, toChunk, toDocument, toScoredChunk, type DocumentRow, type JoinedRow } from "../rows.js";
import { byScoreThenTie } from "../hit-order.js";
import type { Db } from "./db.js";
import { openDatabase } from "./open-database.js";
import { filteredChunkIds } from "./filter-sql.js";
import { registerFunctions, type SqlFunctions } from "./functions.js";
import { PostingsIndex } from "./postings.js";
import { AnnIndex } from "./ann-index.js";
import type { AnnOptions } from "./ann-options.js";
import type { BuiltGraph } from "./vector-index-thread.js";
import {
  checkK,
  chunkVectorRows,
  countChunksWithVectors,
  countVectors,
  deleteVectors,
  hasExtraWindows,
  MAX_KNN_K,
  windowKeysOf,
  type VectorRow,
  ensureVectorTable,
  knn,
  rowidsMissingVectors,
  prepareVector,
  requireTable,
  upsertVectors,
  vectorsByRowid,
  vectorTableDimensions,
  dropVectorTable,
  type VectorHit,
} from "./vector-index.js";
import { SCHEMA_VERSION } from "./schema.js";
import { SqliteHistory } from "./history.js";
import { nearestChunks } from "../vector-keys.js";
import type { ChunkVectors } from "../vectors.js";



/** Options of {@link SqliteEngine.open}. */
export interface SqliteStoreOptions {
  create: boolean;
  /** Never write the file (nor migrate it): `grk doctor` without `--repair`. */
  readonly?: boolean | undefined;
  /** How dense search uses the ANN index (default: HNSW from 10k vectors up). */
  vectorIndex?: AnnOptions | undefined;
}

/** Seen sources buffered before they are written to the walk's temp table. */
const SEEN_PAGE = 1000;





/**
 * The synchronous SQLite engine behind {@link SqliteStore} (sqlite-store.ts).
 *
 * @example
 *   const engine = SqliteEngine.open(".groundkit/default.sqlite3", { create: true });
 */
export class SqliteEngine {
  private readonly stmts: {
    docBySource: Statement;
    docStateBySource: Statement;
    docById: Statement;
    insertDoc: Statement;
    deleteDocRow: Statement;
    docsByFingerprint: Statement;
    heldFingerprints: Statement;
    moveDoc: Statement;
    chunksByTextHash: Statement;
    docsSharingChunks: Statement;
    chunkRowidsOfDoc: Statement;
    insertChunk: Statement;
    chunkById: Statement;
    chunksByRowid: Statement;
    getMeta: Statement;
    setMeta: Statement;
    bumpGeneration: Statement;
    listDocs: Statement;
    docIdsWithPrefix: Statement;
    chunkIdsWithPrefix: Statement;
    chunkIdAt: Statement;
  };
  private readonly postings: PostingsIndex;
  /** Statements over the walk's temp table, prepared once it exists. */
  private seenStmts: { clear: Statement; mark: Statement; unseenUnder: Statement } | undefined;
  /** Sources marked seen but not yet in the temp table: written a page per transaction, not one each. */
  private seenPending: string[] = [];
  private readonly functions: SqlFunctions;
  private readonly ann: AnnIndex;
  /** Previous versions of documents (store/history.ts). */
  readonly history: SqliteHistory;
  /** Archive a document's rows before replacing (with different content) or deleting them. */
  recordHistory = false;
  /** A deferred read transaction around `fn` (one snapshot), made once. */
  private readonly readTx: { deferred: (fn: () => unknown) => unknown };

  private constructor(
    readonly db: Db,
    path: string,
    vectorIndex: AnnOptions | undefined,
  ) {
    this.functions = registerFunctions(db);
    this.ann = new AnnIndex(db, path, !db.readonly, vectorIndex);
    this.postings = new PostingsIndex(db);
    this.history = new SqliteHistory(db);
    this.readTx = db.transaction((fn: () => unknown) => fn());
    this.stmts = {
      docBySource: db.prepare("SELECT * FROM documents WHERE source = ?"),
      docStateBySource: db.prepare("SELECT fingerprint, base_dir FROM documents WHERE source = ?"),
      docById: db.prepare("SELECT * FROM documents WHERE document_id = ?"),
      insertDoc: db.prepare(`INSERT INTO documents
        (document_id, source, source_class, extractor, base_dir, fingerprint, content_hash, content_length, ingested_at, metadata)
        VALUES (@document_id, @source, @source_class, @extractor, @base_dir, @fingerprint, @content_hash, @content_length, @ingested_at, @metadata)`),
      deleteDocRow: db.prepare("DELETE FROM documents WHERE id = ?"),
      docsByFingerprint: db.prepare(
        "SELECT id AS rowid, document_id, source, source_class FROM documents WHERE fingerprint = ? ORDER BY source LIMIT ?",
      ),
      // A page of the walk's lookahead at once (documents_by_fingerprint answers each).
      heldFingerprints: db
        .prepare("SELECT DISTINCT fingerprint FROM documents WHERE fingerprint IN (SELECT value FROM json_each(?))")
        .pluck(),
      moveDoc: db.prepare("UPDATE documents SET source = @source, base_dir = @base_dir, metadata = @metadata WHERE document_id = @document_id"),
      docsSharingChunks: db.prepare(
        `SELECT d.document_id, d.source, d.source_class, d.ingested_at, COUNT(DISTINCT c.text_hash) AS shared,
                (SELECT COUNT(DISTINCT c2.text_hash) FROM chunks c2 WHERE c2.doc_id = c.doc_id) AS distinct_chunks
         FROM chunks c JOIN documents d ON d.id = c.doc_id
         WHERE c.text_hash IN (SELECT value FROM json_each(?))
         GROUP BY c.doc_id HAVING COUNT(DISTINCT c.text_hash) >= ?
         ORDER BY shared DESC, d.document_id LIMIT ?`,
      ),
      chunksByTextHash: db.prepare(
        `SELECT ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id
         WHERE c.text_hash = ? ORDER BY c.chunk_id LIMIT ?`,
      ),
      chunkRowidsOfDoc: db.prepare("SELECT id FROM chunks WHERE doc_id = ?").pluck(),
      insertChunk: db.prepare(`INSERT INTO chunks
        (chunk_id, doc_id, ordinal, text, start_offset, end_offset, start_line, end_line, page_start, page_end, text_hash, metadata)
        VALUES (@chunk_id, @doc_id, @ordinal, @text, @start_offset, @end_offset, @start_line, @end_line, @page_start, @page_end, @text_hash, @metadata)`),
      chunkById: db.prepare(
        `SELECT ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.chunk_id = ?`,
      ),
      // Every search hydrates its hits with this: prepared once, not per query.
      // Raw rows, in the column order joinedRowOfRaw reads.
      chunksByRowid: db
        .prepare(
          `SELECT c.id AS rowid_, ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id
           WHERE c.id IN (SELECT value FROM json_each(?))`,
        )
        .raw(),
      getMeta: db.prepare("SELECT value FROM meta WHERE key = ?").pluck(),
      setMeta: db.prepare(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ),
      bumpGeneration: db.prepare(`INSERT INTO meta (key, value) VALUES ('generation', '1')
        ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`),
      // substr comparison rather than LIKE/GLOB: sources may contain wildcard characters.
      listDocs: db.prepare(`SELECT d.*, (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id) AS chunk_count
        FROM documents d WHERE substr(d.source, 1, length(@prefix)) = @prefix AND d.source > @after
        ORDER BY d.source LIMIT @limit`),
      // Ids are lowercase hex: every id starting with the prefix sorts between it and it + '~'.
      docIdsWithPrefix: db
        .prepare("SELECT document_id FROM documents WHERE document_id >= ? AND document_id < ? ORDER BY document_id LIMIT ?")
        .pluck(),
      chunkIdsWithPrefix: db
        .prepare("SELECT chunk_id FROM chunks WHERE chunk_id >= ? AND chunk_id < ? ORDER BY chunk_id LIMIT ?")
        .pluck(),
      chunkIdAt: db
        .prepare(
          `SELECT c.chunk_id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.document_id = @doc
           ORDER BY (c.start_offset <= @at AND c.end_offset > @at) DESC, (c.start_offset <= @at) DESC,
             CASE WHEN c.start_offset <= @at THEN -c.start_offset ELSE c.start_offset END LIMIT 1`,
        )
        .pluck(),
    };
  }

  /** Open a collection file; `create` allows making a new one, `readonly` never writes it (nor migrates it). */
  static open(path: string, opts: SqliteStoreOptions): SqliteEngine {
    return new SqliteEngine(openDatabase(path, { create: opts.create, readonly: opts.readonly ?? false }), path, opts.vectorIndex);
  }

  listDocuments(opts: { prefix?: string | undefined; after?: string | undefined; limit: number }): DocumentListing[] {
    const rows = this.stmts.listDocs.all({ prefix: opts.prefix ?? "", after: opts.after ?? "", limit: opts.limit }) as Array<
      DocumentRow & { chunk_count: number }
    >;
    return rows.map((r) => ({ ...toDocument(r), chunks: r.chunk_count }));
  }

  documentIdsWithPrefix(prefix: string, limit: number): string[] {
    return this.stmts.docIdsWithPrefix.all(prefix, prefix + "~", limit) as string[];
  }

  chunkIdsWithPrefix(prefix: string, limit: number): string[] {
    return this.stmts.chunkIdsWithPrefix.all(prefix, prefix + "~", limit) as string[];
  }

  chunkIdAt(documentId: string, offset: number): string | undefined {
    return this.stmts.chunkIdAt.get({ doc: documentId, at: offset }) as string | undefined;
  }

  getDocumentBySource(source: string): StoredDocument | undefined {
    const row = this.stmts.docBySource.get(source) as DocumentRow | undefined;
    return row ? toDocument(row) : undefined;
  }

  getDocument(documentId: string): StoredDocument | undefined {
    const row = this.stmts.docById.get(documentId) as DocumentRow | undefined;
    return row ? toDocument(row) : undefined;
  }

  /** Point lookups by the prepared statements: in process they cost microseconds each. */
  documentsAt(sources: readonly string[], documentIds: readonly string[]): StoredDocument[] {
    const found = new Map<string, StoredDocument>();
    for (const s of sources) {
      const doc = this.getDocumentBySource(s);
      if (doc) found.set(doc.document_id, doc);
    }
    for (const id of documentIds) {
      const doc = found.has(id) ? undefined : this.getDocument(id);
      if (doc) found.set(doc.document_id, doc);
    }
    return [...found.values()];
  }

  documentState(source: string): DocumentState | undefined {
    return this.stmts.docStateBySource.get(source) as DocumentState | undefined;
  }

  replaceDocument(doc: StoredDocument, chunks: NewChunk[], vectors?: readonly ChunkVectors[]): void {
    if (vectors && vectors.length !== chunks.length) {
      throw new GroundkitError("INTERNAL", `${vectors.length} vectors for ${chunks.length} chunks.`);
    }
    const tx = this.db.transaction(() => {
      this.removeDocumentRows(doc.source, { contentHash: doc.content_hash, at: doc.ingested_at });
      const info = this.stmts.insertDoc.run({ ...doc, metadata: JSON.stringify(doc.metadata) });
      const docRowid = Number(info.lastInsertRowid);
      const rows: VectorRow[] = [];
      chunks.forEach((ch, i) => {
        const { heading_path, source_start_line: _start, source_end_line: _end, location: _location, ...rest } = ch;
        const res = this.stmts.insertChunk.run({
          ...rest,
          doc_id: docRowid,
          metadata: chunkMetadataJson(ch),
        });
        this.postings.add(Number(res.lastInsertRowid), chunkTokens(ch.text, heading_path));
        if (vectors) rows.push(...chunkVectorRows(Number(res.lastInsertRowid), vectors[i]!));
      });
      if (rows.length > 0) {
        ensureVectorTable(this.db, rows[0]!.vector.length);
        upsertVectors(this.db, rows);
      }
      this.stmts.bumpGeneration.run();
    });
    // Inside an open transaction better-sqlite3 runs this as a savepoint.
    tx.immediate();
  }

  deleteDocument(documentId: string): boolean {
    const tx = this.db.transaction(() => {
      const doc = this.getDocument(documentId);
      if (!doc) return false;
      this.removeDocumentRows(doc.source, { contentHash: null, at: new Date().toISOString() });
      this.stmts.bumpGeneration.run();
      return true;
    });
    return tx.immediate();
  }

  documentsWithFingerprint(fingerprint: string, limit: number): DocumentRef[] {
    return this.stmts.docsByFingerprint.all(fingerprint, limit) as DocumentRef[];
  }

  /** Which of `fingerprints` some stored document has. */
  heldFingerprints(fingerprints: readonly string[]): string[] {
    return this.stmts.heldFingerprints.all(JSON.stringify(fingerprints)) as string[];
  }

  moveDocument(documentId: string, to: DocumentMove): boolean {
    const tx = this.db.transaction(() => {
      const moved = this.stmts.moveDoc.run({ document_id: documentId, source: to.source, base_dir: to.base_dir, metadata: JSON.stringify(to.metadata) });
      if (moved.changes === 0) return false;
      this.stmts.bumpGeneration.run();
      return true;
    });
    return tx.immediate();
  }

  documentsSharingChunks(textHashes: readonly string[], minShared: number, limit: number): SharedChunks[] {
    return this.stmts.docsSharingChunks.all(JSON.stringify([...new Set(textHashes)]), minShared, limit) as SharedChunks[];
  }

  chunksWithTextHash(textHash: string, limit: number): StoredChunk[] {
    return (this.stmts.chunksByTextHash.all(textHash, limit) as JoinedRow[]).map(toChunk);
  }

  /**
   * Delete a document's row, chunks and postings (caller holds the transaction); with history on, keep it as a
   * version first unless its replacement (`contentHash`; null when deleting) has the same content.
   */
  private removeDocumentRows(source: string, by: { contentHash: string | null; at: string }): void {
    const row = this.stmts.docBySource.get(source) as (DocumentRow & { id: number }) | undefined;
    if (!row) return;
    if (this.recordHistory && row.content_hash !== by.contentHash) {
      this.history.archive(row.id, by.contentHash === null ? "removed" : "replaced", by.at);
    }
    const chunkRowids = this.stmts.chunkRowidsOfDoc.all(row.id) as number[];
    for (const rowid of chunkRowids) this.postings.remove(rowid);
    if (chunkRowids.length > 0 && vectorTableDimensions(this.db) !== undefined) deleteVectors(this.db, chunkRowids);
    this.stmts.deleteDocRow.run(row.id); // chunks go by ON DELETE CASCADE
  }

  resetSeenSources(): void {
    this.seenPending = [];
    this.seenStatements().clear.run();
  }

  markSourceSeen(source: string): void {
    this.seenPending.push(source);
    if (this.seenPending.length >= SEEN_PAGE) this.flushSeen();
  }

  unseenDocumentsUnder(prefix: string, afterRowid: number, limit: number): DocumentRef[] {
    this.flushSeen();
    return this.seenStatements().unseenUnder.all(afterRowid, prefix, prefix, limit) as DocumentRef[];
  }

  /** A deferred transaction that touches only the temp table: no lock on the collection is taken. */
  private flushSeen(): void {
    if (this.seenPending.length === 0) return;
    const { mark } = this.seenStatements();
    const pending = this.seenPending;
    this.seenPending = [];
    this.db.transaction(() => {
      for (const source of pending) mark.run(source);
    })();
  }

  /**
   * A TEMP table is private to this connection and lives in SQLite's temp
   * store, a file here (SQLITE_TEMP_STORE=1) behind a small page cache, so its
   * size does not show in memory; writing it takes no lock on the collection.
   */
  private seenStatements(): NonNullable<SqliteEngine["seenStmts"]> {
    if (!this.seenStmts) {
      // A scratch record: its rollback journal can live in memory.
      this.db.pragma("temp.journal_mode = MEMORY");
      this.db.exec("CREATE TEMP TABLE IF NOT EXISTS walk_seen (source TEXT PRIMARY KEY) WITHOUT ROWID");
      this.seenStmts = {
        clear: this.db.prepare("DELETE FROM temp.walk_seen"),
        mark: this.db.prepare("INSERT OR IGNORE INTO temp.walk_seen (source) VALUES (?)"),
        // substr comparison rather than LIKE/GLOB: sources may contain wildcard characters.
        unseenUnder: this.db.prepare(`SELECT id AS rowid, document_id, source, source_class FROM documents d
          WHERE id > ? AND substr(source, 1, length(?)) = ?
            AND NOT EXISTS (SELECT 1 FROM temp.walk_seen s WHERE s.source = d.source)
          ORDER BY id LIMIT ?`),
      };
    }
    return this.seenStmts;
  }

  getChunk(chunkId: string): StoredChunk | undefined {
    const row = this.stmts.chunkById.get(chunkId) as JoinedRow | undefined;
    return row ? toChunk(row) : undefined;
  }

  searchLexical(terms: string[], limit: number, filter?: ChunkFilter): ScoredChunk[] {
    // One read snapshot for the filter, the postings and the hits' rows: they agree, and the snapshot
    // (the WAL read lock) is taken once per search rather than once per statement group.
    return this.lexicalRead(() => this.searchLexicalInSnapshot(terms, limit, filter));
  }

  /** Run `fn` in one read snapshot: a deferred transaction, or the caller's open one. */
  private lexicalRead<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : (this.readTx.deferred(fn) as T);
  }

  private searchLexicalInSnapshot(terms: string[], limit: number, filter: ChunkFilter | undefined): ScoredChunk[] {
    const allowed = filter ? this.filteredRowids(filter) : undefined;
    if (allowed?.size === 0) return [];
    const hits = this.postings.search(terms, limit, allowed ? { allow: (rowid) => allowed.has(rowid) } : {});
    if (hits.length === 0) return [];
    const rows = this.chunksByRowid(hits.map((h) => h.rowid));
    const out = hits.flatMap((h) => {
      const row = rows.get(h.rowid);
      return row ? [toScoredChunk(row, h.score)] : [];
    });
    return out.sort(byScoreThenTie);
  }

  /** Chunk rowids passing a filter, computed inside SQLite. */
  private filteredRowids(filter: ChunkFilter): Set<number> {
    const ids = filteredChunkIds(filter);
    return this.functions.metered(() => new Set(this.db.prepare(ids.sql).pluck().all(...ids.params) as number[]));
  }

  /** Chunks nearest to a query vector, score = cosine similarity (higher is better). */
  searchVectors(query: Float32Array, limit: number, filter?: ChunkFilter): ScoredChunk[] {
    // One read snapshot: the vector log the ANN index catches up from, the graph's answer and the chunk rows agree.
    return this.db.transaction(() => {
      const hits = this.functions.metered(() => this.nearest(query, limit, filter));
      if (hits.length === 0) return [];
      const rows = this.chunksByRowid(hits.map((h) => h.rowid));
      return hits
        .flatMap((h) => {
          const row = rows.get(h.rowid);
          return row ? [toScoredChunk(row, 1 - h.distance)] : [];
        })
        .sort(byScoreThenTie);
    })();
  }

  /**
   * The HNSW index when it can answer (large enough, library loaded, filter not
   * too selective), else exact KNN in sqlite-vec; a filter is applied inside either.
   */
  private nearest(query: Float32Array, k: number, filter?: ChunkFilter): VectorHit[] {
    const def = requireTable(this.db);
    const q = prepareVector(query, def);
    checkK(k);
    let allowed: Set<number> | undefined;
    if (filter) {
      allowed = this.filteredRowids(filter);
      if (allowed.size === 0) return [];
    }
    const unit = def.metric === "l2" ? q : prepareVector(query, { ...def, metric: "l2" });
    if (!hasExtraWindows(this.db)) {
      if (allowed !== undefined && allowed.size <= this.ann.filterExactMax) return this.ann.exactAmong(unit, k, allowed);
      return this.ann.search(unit, k, allowed) ?? knn(this.db, query, k, filter ? filteredChunkIds(filter) : undefined);
    }
    // Several vectors per chunk: search window keys, then keep each chunk's best window.
    const keys = allowed === undefined ? undefined : windowKeysOf(this.db, allowed);
    return nearestChunks(k, MAX_KNN_K, (kv) => {
      if (keys !== undefined && keys.size <= this.ann.filterExactMax) return this.ann.exactAmong(unit, kv, keys);
      return this.ann.search(unit, kv, keys) ?? knn(this.db, query, kv, keys === undefined ? undefined : { rowids: keys });
    });
  }

  /** Which vector index dense search uses, its size and whether it is current. */
  vectorIndexStatus(): VectorIndexStatus {
    return this.ann.status();
  }

  /** The saved HNSW index's state; kind `exact` when there is no graph to build (no or too few vectors, the index off, no ANN library). */
  savedVectorIndexStatus(): VectorIndexStatus {
    return this.ann.savedStatus();
  }

  /** Fold logged vector changes into the saved ANN index (or build it); the caller holds the writer lock. */
  syncVectorIndex(onProgress?: (done: number, total: number) => void): VectorIndexStatus {
    return this.ann.sync(onProgress);
  }

  /** A reader's graph of every committed vector, saved to `file` only (on a worker thread: vector-index-job.ts). */
  buildVectorGraph(file: string): BuiltGraph {
    return this.ann.buildGraphFile(file);
  }

  /** Problems of the saved ANN index's files, read whole (for `grk doctor`); empty when there are none. */
  damagedVectorIndexFiles(): string[] {
    return this.ann.damagedFiles();
  }

  /** Save the ANN index anew, discarding its files; the caller holds the writer lock. */
  rebuildVectorIndex(onProgress?: (done: number, total: number) => void): VectorIndexStatus {
    return this.ann.rebuild(onProgress);
  }

  /**
   * The rows of a search's hits, read in the search's snapshot after its other
   * reads. Read every time, not kept between searches: a row read here comes
   * from the page cache, and keeping rows cost more in young-generation
   * collections than reading them again saved (docs/decisions/0039-sqlite-hit-rows.md).
   */
  private chunksByRowid(rowids: number[]): Map<number, JoinedRow> {
    const out = new Map<number, JoinedRow>();
    for (const raw of this.stmts.chunksByRowid.all(JSON.stringify(rowids)) as unknown[][]) {
      const row = joinedRowOfRaw(raw);
      out.set(row.rowid_, row);
    }
    return out;
  }

  /** Every chunk's rowid and text, in rowid order (for re-embedding). */
  allChunkTexts(): Array<{ rowid: number; text: string }> {
    return this.db.prepare("SELECT id AS rowid, text FROM chunks ORDER BY id").all() as Array<{ rowid: number; text: string }>;
  }

  /** Width of the stored vectors, or undefined when the collection has none. */
  vectorDimensions(): number | undefined {
    return vectorTableDimensions(this.db);
  }

  countVectors(): number {
    return countVectors(this.db);
  }

  countChunksWithVectors(): number {
    return countChunksWithVectors(this.db);
  }

  /** Up to `limit` chunks that have no vector yet (for backfill), with their text. */
  chunksMissingVectors(limit: number): Array<{ rowid: number; text: string }> {
    const ids = rowidsMissingVectors(this.db, limit);
    if (ids.length === 0) return [];
    return this.db
      .prepare("SELECT id AS rowid, text FROM chunks WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id")
      .all(JSON.stringify(ids)) as Array<{ rowid: number; text: string }>;
  }

  /**
   * Write vectors for existing chunks in one transaction, each chunk's windows replacing any it had (rows whose
   * chunk vanished meanwhile are skipped).
   */
  writeVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>): void {
    if (rows.length === 0) return;
    const exists = this.db.prepare("SELECT 1 FROM chunks WHERE id = ?").pluck();
    const tx = this.db.transaction(() => {
      const live = rows.filter((r) => exists.get(r.rowid) !== undefined);
      if (live.length === 0) return;
      const stored = live.flatMap((r) => chunkVectorRows(r.rowid, r.vector));
      ensureVectorTable(this.db, stored[0]!.vector.length);
      deleteVectors(this.db, live.map((r) => r.rowid));
      upsertVectors(this.db, stored);
    });
    tx.immediate();
  }

  /** Replace every vector and the recorded identity in one transaction (re-embedding swaps atomically). */
  replaceAllVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>, meta: Record<string, string>): void {
    const exists = this.db.prepare("SELECT 1 FROM chunks WHERE id = ?").pluck();
    const tx = this.db.transaction(() => {
      dropVectorTable(this.db);
      const live = rows.filter((r) => exists.get(r.rowid) !== undefined).flatMap((r) => chunkVectorRows(r.rowid, r.vector));
      if (live.length > 0) {
        ensureVectorTable(this.db, live[0]!.vector.length);
        upsertVectors(this.db, live);
      }
      for (const [k, v] of Object.entries(meta)) this.setMeta(k, v);
      this.stmts.bumpGeneration.run();
    });
    tx.immediate();
  }

  documentsAfter(afterRowid: number, limit: number): DocumentRef[] {
    return this.db
      .prepare("SELECT id AS rowid, document_id, source, source_class FROM documents WHERE id > ? ORDER BY id LIMIT ?")
      .all(afterRowid, limit) as DocumentRef[];
  }

  chunksOf(documentId: string): Array<NewChunk & { rowid: number }> {
    const rows = this.db
      .prepare(
        `SELECT c.id AS rowid_, ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id
         WHERE d.document_id = ? ORDER BY c.ordinal`,
      )
      .all(documentId) as Array<JoinedRow & { rowid_: number }>;
    return rows.map((r) => {
      const { document: _document, ...chunk } = toChunk(r);
      return { ...chunk, rowid: r.rowid_ };
    });
  }

  vectorsOf(rowids: number[]): Map<number, Float32Array[]> {
    return vectorsByRowid(this.db, rowids);
  }

  allMeta(): Record<string, string> {
    const rows = this.db.prepare("SELECT key, value FROM meta").all() as Array<{ key: string; value: string }>;
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  getMeta(key: string): string | undefined {
    return this.stmts.getMeta.get(key) as string | undefined;
  }

  setMeta(key: string, value: string): void {
    this.stmts.setMeta.run(key, value);
  }

  stats(): StoreStats {
    const byClass = this.db.prepare(COUNTS_BY_CLASS_SQL).all() as Array<{ cls: string; docs: number; chunks: number }>;
    return statsOf(byClass, SCHEMA_VERSION, (k) => this.getMeta(k));
  }

  close(): void {
    this.ann.close();
    if (this.db.open) this.db.close();
  }
}
