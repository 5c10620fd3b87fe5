/**
 * The embedded store: the asynchronous {@link Store} contract over the
 * synchronous SQLite engine (sqlite-engine.ts). A call runs its statements at
 * once and hands back a settled Promise, so the embedded path costs one
 * Promise per call and never an extra turn of the event loop.
 *
 * A transaction is BEGIN IMMEDIATE … COMMIT on the engine's one connection,
 * held open across the callback's awaits. Every call that reaches this handle
 * (not the transaction's) while it is open waits for it to end: on the same
 * connection it would run inside the transaction and read its uncommitted
 * writes. See docs/decisions/0019-async-store-contract.md.
 */
import type { StoreHealth } from "../store-health.js";
import { sqliteHealth } from "./store-health.js";
import type { AnnOptions } from "./ann-options.js";
import type {
  ChunkFilter,
  DocumentListing,
  DocumentMove,
  DocumentRef,
  DocumentState,
  DocumentWrite,
  NewChunk,
  ScoredChunk,
  Store,
  StoreStats,
  SharedChunks,
  StoredChunk,
  StoredDocument,
  VectorIndexStatus,
} from "../store.js";
import { replaceEach } from "../store.js";
import type { HistoryChunk, HistoryHealth, HistoryPruned, HistoryRecord, HistoryRetention, HistorySpan, HistoryTotals, HistoryVersion } from "../history.js";
import type { ChunkVectors } from "../vectors.js";
import type { Db } from "./db.js";
import { settle } from "./settle.js";
import { SqliteEngine, type SqliteStoreOptions } from "./sqlite-engine.js";

export type { SqliteStoreOptions };

/** The transaction open on one engine, shared by the handle and its transaction's handle. */
interface TxGate {
  /** Settles when the open transaction ends; undefined when none is open. */
  open: Promise<void> | undefined;
  /** Savepoints open inside it. */
  depth: number;
}

/**
 * SQLite implementation of {@link Store}.
 *
 * @example
 *   const store = SqliteStore.open(".groundkit/default.sqlite3", { create: true });
 *   await store.transaction(async (tx) => tx.replaceDocument(doc, chunks));
 */
export class SqliteStore implements Store {
  private constructor(
    /** The synchronous engine, for the SQLite-only checks of `grk doctor` (store/sqlite). */
    readonly engine: SqliteEngine,
    private readonly gate: TxGate,
    /** This handle is a transaction's: its calls run inside it, never wait for it. */
    private readonly inTx: boolean,
    /** The file and ANN options, for the worker thread that builds the HNSW index (vector-index-thread.ts). */
    private readonly file: { path: string; vectorIndex: AnnOptions | undefined },
  ) {}

  /** Open a collection file; `create` allows making a new one, `readonly` never writes it (nor migrates it). */
  static open(path: string, opts: SqliteStoreOptions): SqliteStore {
    return new SqliteStore(SqliteEngine.open(path, opts), { open: undefined, depth: 0 }, false, { path, vectorIndex: opts.vectorIndex });
  }

  get db(): Db {
    return this.engine.db;
  }

  /** Run a synchronous engine call now (or after the open transaction, from outside it) as a settled Promise. */
  private run<T>(fn: () => T): Promise<T> {
    const open = this.gate.open;
    if (open !== undefined && !this.inTx) return open.then(() => this.run(fn));
    return settle(fn);
  }

  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTx) return this.savepoint(fn);
    const open = this.gate.open;
    if (open !== undefined) return open.then(() => this.transaction(fn));
    const db = this.engine.db;
    try {
      db.exec("BEGIN IMMEDIATE");
    } catch (err) {
      return Promise.reject(err as Error);
    }
    let ended!: () => void;
    this.gate.open = new Promise<void>((resolve) => (ended = resolve));
    const tx = new SqliteStore(this.engine, this.gate, true, this.file);
    return (async () => {
      try {
        const out = await fn(tx);
        db.exec("COMMIT");
        return out;
      } catch (err) {
        // A failed statement may have rolled the transaction back already.
        if (db.inTransaction) db.exec("ROLLBACK");
        throw err;
      } finally {
        this.gate.open = undefined;
        ended();
      }
    })();
  }

  /** Reads through this handle: a read transaction held across awaits would stall this process's writers (store.ts). */
  readSnapshot<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return fn(this);
  }

  /** A savepoint inside the open transaction: what `fn` wrote rolls back alone when it throws. */
  private async savepoint<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    const db = this.engine.db;
    const name = `grk_sp${++this.gate.depth}`;
    try {
      db.exec(`SAVEPOINT ${name}`);
      try {
        const out = await fn(this);
        db.exec(`RELEASE ${name}`);
        return out;
      } catch (err) {
        if (db.inTransaction) {
          db.exec(`ROLLBACK TO ${name}`);
          db.exec(`RELEASE ${name}`);
        }
        throw err;
      }
    } finally {
      this.gate.depth--;
    }
  }

  listDocuments(opts: { prefix?: string | undefined; after?: string | undefined; limit: number }): Promise<DocumentListing[]> {
    return this.run(() => this.engine.listDocuments(opts));
  }

  documentIdsWithPrefix(prefix: string, limit: number): Promise<string[]> {
    return this.run(() => this.engine.documentIdsWithPrefix(prefix, limit));
  }

  chunkIdsWithPrefix(prefix: string, limit: number): Promise<string[]> {
    return this.run(() => this.engine.chunkIdsWithPrefix(prefix, limit));
  }

  chunkIdAt(documentId: string, offset: number): Promise<string | undefined> {
    return this.run(() => this.engine.chunkIdAt(documentId, offset));
  }

  getDocumentBySource(source: string): Promise<StoredDocument | undefined> {
    return this.run(() => this.engine.getDocumentBySource(source));
  }

  getDocument(documentId: string): Promise<StoredDocument | undefined> {
    return this.run(() => this.engine.getDocument(documentId));
  }

  documentState(source: string): Promise<DocumentState | undefined> {
    return this.run(() => this.engine.documentState(source));
  }

  documentsAt(sources: readonly string[], documentIds: readonly string[]): Promise<StoredDocument[]> {
    return this.run(() => this.engine.documentsAt(sources, documentIds));
  }

  heldFingerprints(fingerprints: readonly string[]): Promise<string[]> {
    return this.run(() => this.engine.heldFingerprints(fingerprints));
  }

  replaceDocument(doc: StoredDocument, chunks: NewChunk[], vectors?: readonly ChunkVectors[]): Promise<void> {
    return this.run(() => this.engine.replaceDocument(doc, chunks, vectors));
  }

  replaceDocuments(writes: readonly DocumentWrite[]): Promise<unknown[]> {
    return replaceEach(this, writes);
  }

  deleteDocument(documentId: string): Promise<boolean> {
    return this.run(() => this.engine.deleteDocument(documentId));
  }

  documentsWithFingerprint(fingerprint: string, limit: number): Promise<DocumentRef[]> {
    return this.run(() => this.engine.documentsWithFingerprint(fingerprint, limit));
  }

  moveDocument(documentId: string, to: DocumentMove): Promise<boolean> {
    return this.run(() => this.engine.moveDocument(documentId, to));
  }

  documentsSharingChunks(textHashes: readonly string[], minShared: number, limit: number): Promise<SharedChunks[]> {
    return this.run(() => this.engine.documentsSharingChunks(textHashes, minShared, limit));
  }

  chunksWithTextHash(textHash: string, limit: number): Promise<StoredChunk[]> {
    return this.run(() => this.engine.chunksWithTextHash(textHash, limit));
  }

  resetSeenSources(): Promise<void> {
    return this.run(() => this.engine.resetSeenSources());
  }

  markSourceSeen(source: string): Promise<void> {
    return this.run(() => this.engine.markSourceSeen(source));
  }

  unseenDocumentsUnder(prefix: string, afterRowid: number, limit: number): Promise<DocumentRef[]> {
    return this.run(() => this.engine.unseenDocumentsUnder(prefix, afterRowid, limit));
  }

  getChunk(chunkId: string): Promise<StoredChunk | undefined> {
    return this.run(() => this.engine.getChunk(chunkId));
  }

  searchLexical(terms: string[], limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    return this.run(() => this.engine.searchLexical(terms, limit, filter));
  }

  searchVectors(query: Float32Array, limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    return this.run(() => this.engine.searchVectors(query, limit, filter));
  }

  vectorDimensions(): Promise<number | undefined> {
    return this.run(() => this.engine.vectorDimensions());
  }

  countVectors(): Promise<number> {
    return this.run(() => this.engine.countVectors());
  }

  countChunksWithVectors(): Promise<number> {
    return this.run(() => this.engine.countChunksWithVectors());
  }

  chunksMissingVectors(limit: number): Promise<Array<{ rowid: number; text: string }>> {
    return this.run(() => this.engine.chunksMissingVectors(limit));
  }

  allChunkTexts(): Promise<Array<{ rowid: number; text: string }>> {
    return this.run(() => this.engine.allChunkTexts());
  }

  writeVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>): Promise<void> {
    return this.run(() => this.engine.writeVectors(rows));
  }

  replaceAllVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>, meta: Record<string, string>): Promise<void> {
    return this.run(() => this.engine.replaceAllVectors(rows, meta));
  }

  documentsAfter(afterRowid: number, limit: number): Promise<DocumentRef[]> {
    return this.run(() => this.engine.documentsAfter(afterRowid, limit));
  }

  chunksOf(documentId: string): Promise<Array<NewChunk & { rowid: number }>> {
    return this.run(() => this.engine.chunksOf(documentId));
  }

  vectorsOf(rowids: number[]): Promise<Map<number, Float32Array[]>> {
    return this.run(() => this.engine.vectorsOf(rowids));
  }

  allMeta(): Promise<Record<string, string>> {
    return this.run(() => this.engine.allMeta());
  }

  vectorIndexStatus(): Promise<VectorIndexStatus> {
    return this.run(() => this.engine.vectorIndexStatus());
  }

  /**
   * Fold the vector log into the saved HNSW index (or build it). When there is a graph to build or fold,
   * that runs on a worker thread (vector-index-thread.ts), so this process keeps serving meanwhile;
   * below the ANN threshold there is nothing to build and it runs here.
   */
  async syncVectorIndex(onProgress?: (done: number, total: number) => void): Promise<VectorIndexStatus> {
    return this.indexJob(false, onProgress);
  }

  /** Discard the saved HNSW index and build it anew, on a worker thread (`grk doctor --repair` of a damaged one). */
  rebuildVectorIndex(onProgress?: (done: number, total: number) => void): Promise<VectorIndexStatus> {
    return this.indexJob(true, onProgress);
  }

  private async indexJob(rebuild: boolean, onProgress?: (done: number, total: number) => void): Promise<VectorIndexStatus> {
    // The saved index's state, not this handle's: a handle whose search is building a graph of its own
    // reports `exact` meanwhile, yet a sync still has a graph to build.
    const saved = await this.run(() => this.engine.savedVectorIndexStatus());
    if (this.inTx || this.engine.db.readonly || saved.kind === "exact") {
      return this.run(() => (rebuild ? this.engine.rebuildVectorIndex(onProgress) : this.engine.syncVectorIndex(onProgress)));
    }
    const { runVectorIndexJob } = await import("./vector-index-thread.js");
    await runVectorIndexJob({ path: this.file.path, vectorIndex: this.file.vectorIndex, rebuild }, onProgress);
    // This connection's view of the index is read again from the saved files.
    return this.vectorIndexStatus();
  }

  getMeta(key: string): Promise<string | undefined> {
    return this.run(() => this.engine.getMeta(key));
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.run(() => this.engine.setMeta(key, value));
  }

  stats(): Promise<StoreStats> {
    return this.run(() => this.engine.stats());
  }

  setHistoryRecording(on: boolean): Promise<void> {
    this.engine.recordHistory = on;
    return Promise.resolve();
  }

  historyOf(documentId: string): Promise<HistoryVersion[]> {
    return this.run(() => this.engine.history.versionsOf(documentId));
  }

  historySpans(versionId: number): Promise<HistorySpan[]> {
    return this.run(() => this.engine.history.spansOf(versionId));
  }

  historyChunk(chunkId: string): Promise<HistoryChunk | undefined> {
    return this.run(() => this.engine.history.chunkOf(chunkId));
  }

  pruneHistory(retention: HistoryRetention, now: Date): Promise<HistoryPruned> {
    return this.run(() => this.engine.history.prune(retention, now));
  }

  historyHealth(): Promise<HistoryHealth> {
    return this.run(() => this.engine.history.health());
  }

  historyTotals(): Promise<HistoryTotals> {
    return this.run(() => this.engine.history.totals());
  }

  historyPage(afterVersionId: number, limit: number): Promise<HistoryRecord[]> {
    return this.run(() => this.engine.history.page(afterVersionId, limit));
  }

  writeHistory(records: readonly HistoryRecord[]): Promise<void> {
    return this.run(() => this.engine.history.write(records));
  }

  health(): StoreHealth {
    return sqliteHealth(this.engine, this);
  }

  metadataFields(): Promise<string[]> {
    const sql = "SELECT DISTINCT j.key AS key FROM documents d, json_each(d.metadata) j ORDER BY j.key";
    return this.run(() => (this.engine.db.prepare(sql).all() as Array<{ key: string }>).map((r) => r.key));
  }

  close(): Promise<void> {
    return this.run(() => this.engine.close());
  }
}
