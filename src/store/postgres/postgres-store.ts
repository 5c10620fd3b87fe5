/**
 * The server store: one PostgreSQL schema per collection, so any number of
 * `grk serve` processes on any number of machines share one index. Every write
 * that touches a document (row, chunks, BM25 postings, vectors, generation)
 * commits in one transaction; reads that take several statements run in one
 * REPEATABLE READ snapshot, so a reader sees a document's old or new state,
 * never a mix.
 *
 * Asynchronous (store/store.ts): statements go to a `pg` pool (pg-pool.ts),
 * so any number of searches are in flight at once and the event loop never
 * waits on the server. A transaction (and a multi-statement read snapshot)
 * holds one pooled connection for its duration; a handle bound to it runs
 * the transaction's statements.
 */
import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { chunkTokens } from "../../analysis/chunk-tokens.js";
import { compileGlob } from "../../core/glob.js";
import { GroundkitError } from "../../core/errors.js";
import { countQueryTerms } from "../bm25.js";
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
import { bulkInsertStatement, type BulkDocument } from "./bulk-write.js";
import { CHUNK_COLUMNS, chunkMetadataJson, COUNTS_BY_CLASS_SQL, DOC_COLUMNS, statsOf, toChunk, toDocument, toScoredChunk, type DocumentRow, type JoinedRow } from "../rows.js";
import { checkDimensions, checkVector, unitCopy, windowsOf, type ChunkVectors } from "../vectors.js";
import { resolvePoolSettings, type PostgresStoreConfig } from "./connection-settings.js";
import { collectionSchema, schemaPrefix } from "./schema-name.js";
import { compileChunkFilter, globKey, globsOf, Params, PATH_OF_DOCUMENT } from "./filter-sql.js";
import { dropSchema, lockKey, openSchema, quoteIdent } from "./open-schema.js";
import { ChunkRowCache } from "../chunk-row-cache.js";
import { byScoreThenTie } from "../hit-order.js";
import { searchLexicalRows } from "./lexical-rows.js";
import { MOVES_KEY, PgLexicalSearch, type AllowedChunksSql } from "./lexical-search.js";
import { syncLexicalSegments as syncLexicalSegmentsOn } from "./lexical-segments.js";
import { postingsOf, type ChunkPostings } from "./postings.js";
import { SCHEMA_VERSION } from "./schema.js";
import * as history from "./history.js";
import { postgresHealth } from "./store-health.js";
import type { StoreHealth } from "../store-health.js";
import type { HistoryChunk, HistoryHealth, HistoryPruned, HistoryRecord, HistoryRetention, HistorySpan, HistoryTotals, HistoryVersion } from "../history.js";
import { PgPool, runAll, type PgClient, type PgRunner, type Statement } from "./pg-pool.js";
import { ReplicaSet } from "./replica-set.js";
import type { ReplicaStatus } from "../backend.js";
import {
  DEFAULT_FILTER_EXACT_MAX,
  EXACT_SCORE,
  extensionAvailable,
  HNSW_INDEX,
  hnswBlocker,
  hnswSettings,
  INDEX_BUILD_TIMEOUT_MS,
  migrationStatements,
  pgvectorCandidates,
  planOf,
  readVectorColumn,
  replaceAllStatements,
  RESCORE_MARGIN,
  tryCreateExtension,
  type PgVectorOptions,
  type VectorColumn,
} from "./vector-engine.js";
import type { WriterLockOptions } from "../writer-lock-holder.js";
import { releaseAdvisoryLock, tryAdvisoryLock, withAdvisoryWriterLock } from "./writer-lock.js";

const BUMP_GENERATION: Statement = {
  sql: `INSERT INTO meta (key, value) VALUES ('generation', '1')
    ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text`,
};

/** Seen sources buffered before they are written to walk_seen. */
const SEEN_PAGE = 1000;

/** Glob matching steps one filtered statement may spend (as store/sqlite/functions.ts). */
const GLOB_STEPS_PER_STATEMENT = 50_000_000;


/** A float4[] literal; float32 values print exactly enough to read back bit-identical. */
function vectorLiteral(v: Float32Array): string {
  return `{${Array.from(v).join(",")}}`;
}

/** What a collection's handle and the handles of its transactions share. */
interface SharedState {
  /** This handle's folder walk, in walk_seen. */
  readonly walker: string;
  seenPending: string[];
  /** Why this process could not install extension vector, for `status`. */
  extensionError: string | undefined;
  readonly vectorOptions: PgVectorOptions;
  /** BM25 over the segments, with this process's cache of their blocks (lexical-search.ts). */
  readonly lexical: PgLexicalSearch;
  /** The rows BM25 hits were read from (store/chunk-row-cache.ts). */
  readonly hitRows: ChunkRowCache;
  /** The read replicas {@link PostgresStore.readSnapshot} reads from; none configured: undefined. */
  readonly replicas: ReplicaSet | undefined;
  /** Keep a document's previous version when it is replaced or deleted (store/history.ts). */
  recordHistory: boolean;
  /** Batch statements being built ahead of their write ({@link PostgresStore.prepareWrites}), by the writes' array; undefined when that failed. */
  readonly prepared: WeakMap<readonly DocumentWrite[], Promise<Statement | undefined>>;
}

/** How a read snapshot begins (store.ts readSnapshot). */
const READ_SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

/** Where a store warns (a replica passed over) when its opener gives no other place: stderr, never stdout. */
function warnOnStderr(message: string): void {
  process.stderr.write(`groundkit: warning: ${message}\n`);
}

/**
 * PostgreSQL implementation of {@link Store}.
 *
 * @example
 *   const store = await PostgresStore.open({ kind: "postgres" }, "default", { create: true });
 */
export class PostgresStore implements Store {
  /** Savepoints open on this transaction's connection. */
  private savepoints = 0;

  private constructor(
    readonly pool: PgPool,
    /** The collection's schema name (unquoted). */
    readonly schema: string,
    private readonly shared: SharedState,
    /** The connection of the transaction (or read snapshot) this handle belongs to; none for the collection's own handle. */
    private readonly client: PgClient | undefined = undefined,
  ) {}

  /** Open (with `create`, make) the collection `name` in the configured server. */
  static async open(
    config: PostgresStoreConfig,
    name: string,
    opts: { create: boolean; vectors?: PgVectorOptions; warn?: ((message: string) => void) | undefined },
  ): Promise<PostgresStore> {
    const settings = resolvePoolSettings(config);
    const schema = collectionSchema(config, name);
    const pool = await PgPool.create(settings, quoteIdent(schema));
    let replicas: ReplicaSet | undefined;
    try {
      await openSchema(pool, schema, { create: opts.create, collection: name });
      replicas = await ReplicaSet.open(config, quoteIdent(schema), pool, { warn: opts.warn ?? warnOnStderr });
    } catch (err) {
      await pool.close();
      throw err;
    }
    const shared = { walker: randomUUID(), seenPending: [], extensionError: undefined, vectorOptions: opts.vectors ?? {}, lexical: new PgLexicalSearch(), hitRows: new ChunkRowCache(), replicas, recordHistory: false, prepared: new WeakMap() };
    return new PostgresStore(pool, schema, shared);
  }

  /** Where this handle's statements run: its transaction's connection, or any of the pool's. */
  private get db(): PgRunner {
    return this.client ?? this.pool;
  }

  /** host:port/database, for messages and `status`. */
  get target(): string {
    return this.pool.target;
  }

  /** Where the index is, for `status`: server and schema, never the credentials. */
  get location(): string {
    return `postgres://${this.target} schema ${quoteIdent(this.schema)}`;
  }

  /** Names of the collections in the configured server (the schemas under the prefix). */
  static async list(config: PostgresStoreConfig): Promise<string[]> {
    const prefix = schemaPrefix(config);
    const pool = await PgPool.create(resolvePoolSettings({ ...config, pool_max: 1 }), "pg_catalog");
    try {
      return (
        await pool.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname COLLATE \"C\"", [prefix])
      ).rows.map((r) => r.nspname.slice(prefix.length));
    } finally {
      await pool.close();
    }
  }

  /** Drop a collection: refused with COLLECTION_BUSY while a writer holds it (this call does not wait). */
  static async drop(config: PostgresStoreConfig, name: string): Promise<void> {
    const store = await PostgresStore.open(config, name, { create: false });
    try {
      const key = lockKey(store.schema, "writer");
      const held = await tryAdvisoryLock(store.pool, key);
      if (!held) {
        throw new GroundkitError("COLLECTION_BUSY", `Collection '${name}' is busy: another writer is changing it.`, { collection: name });
      }
      try {
        await dropSchema(held, store.schema);
      } finally {
        await releaseAdvisoryLock(held, key);
      }
    } finally {
      await store.pool.close();
    }
  }

  /** Run a writing call holding the collection's writer lock (an advisory lock: writers on every machine take turns). */
  withWriterLock<T>(opts: WriterLockOptions, fn: () => Promise<T>): Promise<T> {
    return withAdvisoryWriterLock(this.pool, lockKey(this.schema, "writer"), opts, fn);
  }

  /** Run `fn` in a transaction on a connection of its own (given to `fn` as a handle), or in a savepoint of this handle's. */
  private async tx<T>(fn: (s: PostgresStore) => Promise<T>, begin = "BEGIN", pool = this.pool): Promise<T> {
    if (this.client) return this.savepoint(fn);
    const client = await pool.connect();
    try {
      await client.query(begin);
      const out = await fn(new PostgresStore(pool, this.schema, this.shared, client));
      await client.query("COMMIT");
      return out;
    } catch (err) {
      // A connection that cannot roll back is closed instead: the server rolls back with it.
      await client.query("ROLLBACK").catch(() => client.release(true));
      throw err;
    } finally {
      client.release();
    }
  }

  private async savepoint<T>(fn: (s: PostgresStore) => Promise<T>): Promise<T> {
    const name = `grk_sp${++this.savepoints}`;
    try {
      await this.db.query(`SAVEPOINT ${name}`);
      try {
        const out = await fn(this);
        await this.db.query(`RELEASE SAVEPOINT ${name}`);
        return out;
      } catch (err) {
        try {
          await this.db.query(`ROLLBACK TO SAVEPOINT ${name}`);
          await this.db.query(`RELEASE SAVEPOINT ${name}`);
        } catch {
          // The transaction itself is lost (server gone); the outer level rolls back.
        }
        throw err;
      }
    } finally {
      this.savepoints--;
    }
  }

  /** Several reads from one snapshot (one statement needs none). */
  private snapshot<T>(fn: (s: PostgresStore) => Promise<T>): Promise<T> {
    if (this.client) return fn(this);
    return this.tx(fn, READ_SNAPSHOT);
  }

  /**
   * Reads that must agree. With read replicas: one READ ONLY REPEATABLE READ
   * transaction on one connection of one replica that can answer (read-pools.ts
   * passes a failing one over; the primary last), so a search never mixes two
   * replicas' states. Without: this handle, as before replicas existed (each
   * call reads one snapshot of the one server; no BEGIN/COMMIT round trips
   * added to every search). Inside a transaction or snapshot: its own.
   */
  readSnapshot<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    const replicas = this.shared.replicas;
    if (this.client || !replicas) return fn(this);
    return replicas.read((pool) => this.tx(fn, READ_SNAPSHOT, pool));
  }

  /** The read replicas' lag behind the primary, each bounded by `waitMs` (none configured: []). */
  replicaStatus(waitMs: number): Promise<ReplicaStatus[]> {
    return this.shared.replicas?.status(waitMs) ?? Promise.resolve([]);
  }

  /**
   * Which dense search this collection runs: pgvector HNSW, or an exact scan
   * and why (read from the catalog; see vector-engine.ts).
   */
  vectorIndexStatus(): Promise<VectorIndexStatus> {
    return this.snapshot(async (s) => {
      const col = await readVectorColumn(s.db);
      const vectors = await s.countVectors();
      const base = { vectors, indexed_vectors: 0, pending_changes: 0, file_bytes: 0 };
      const exact = (reason: string, library = "postgresql"): VectorIndexStatus => ({ kind: "exact", reason, library, state: "none", ...base });
      if (col.extensionSchema === undefined) {
        if (!(await extensionAvailable(s.db))) return exact("extension vector not available on this server: every dense search scans all vectors");
        return exact(
          this.shared.extensionError ??
            "extension vector is available but not installed in this database: the next ingest that finds vectors runs CREATE EXTENSION vector (it needs a superuser); until then every dense search scans all vectors",
        );
      }
      const library = `pgvector ${col.extensionVersion}`;
      const blocker = hnswBlocker(col);
      if (blocker) return exact(blocker, library);
      if (col.type === "array" && vectors > 0) {
        return exact("the vectors were written before extension vector was installed: the next ingest moves them to a pgvector HNSW index; until then every dense search scans all vectors");
      }
      const hnsw = { kind: "hnsw" as const, library };
      if (vectors === 0) return { ...hnsw, reason: "no vectors yet: the ingest that writes them builds the index", state: "missing", ...base };
      if (col.index !== "valid") {
        return {
          ...hnsw,
          reason: "the index is not built yet (built by the next ingest); until then every dense search scans all vectors",
          state: col.index === "invalid" ? "stale" : "missing",
          ...base,
        };
      }
      // The index is transactional: it holds every committed vector.
      const bytes = (await s.db.query<{ n: number }>(`SELECT pg_relation_size(to_regclass('${HNSW_INDEX}')) AS n`)).rows[0]!.n;
      return { ...hnsw, reason: null, state: "current", ...base, indexed_vectors: vectors, file_bytes: bytes };
    });
  }

  /**
   * The writer's BM25 step (ADR 0020), run first by {@link syncVectorIndex},
   * which every writer calls under its lock after writing: turn the chunks
   * newer than every segment into a segment once there are enough of them, and
   * merge segments when there are too many (lexical-segments.ts).
   */
  private async syncLexicalSegments(): Promise<void> {
    // A build is a transaction of its own: never inside a caller's.
    if (this.client) return;
    const client = await this.pool.connect();
    try {
      await syncLexicalSegmentsOn(client);
    } finally {
      client.release();
    }
  }

  /**
   * The writer's step after an ingest, a copy or a re-embed (under the writer
   * lock): install the extension if the server has it and this role may, move
   * vectors written before it to a `vector(d)` column, and build the HNSW index.
   * The build runs in the server; this process only awaits it.
   */
  async syncVectorIndex(): Promise<VectorIndexStatus> {
    await this.syncLexicalSegments();
    let col = await readVectorColumn(this.db);
    // Only a collection with vectors installs it: a BM25-only ingest leaves the database as it found it.
    if (col.extensionSchema === undefined && col.dims !== undefined && (await extensionAvailable(this.db))) {
      this.shared.extensionError = await tryCreateExtension(this.db);
      col = await readVectorColumn(this.db);
    }
    const statements = migrationStatements(col);
    if (statements.length > 0) await this.tx((s) => runAll(s.db, statements, INDEX_BUILD_TIMEOUT_MS + 60_000));
    return this.vectorIndexStatus();
  }

  async listDocuments(opts: { prefix?: string | undefined; after?: string | undefined; limit: number }): Promise<DocumentListing[]> {
    // Byte-wise order and comparison (COLLATE "C"), as SQLite pages them, whatever the server's locale.
    const rows = (
      await this.db.query<DocumentRow & { chunk_count: string }>(
        `SELECT ${DOC_COLUMNS}, (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id) AS chunk_count
       FROM documents d WHERE starts_with(d.source COLLATE "C", $1) AND d.source COLLATE "C" > $2
       ORDER BY d.source COLLATE "C" LIMIT $3`,
        [opts.prefix ?? "", opts.after ?? "", opts.limit],
      )
    ).rows;
    return rows.map((r) => ({ ...toDocument(r), chunks: Number(r.chunk_count) }));
  }

  async documentIdsWithPrefix(prefix: string, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT document_id AS id FROM documents WHERE starts_with(document_id, $1) ORDER BY document_id COLLATE "C" LIMIT $2`,
      [prefix, limit],
    );
    return rows.rows.map((r) => r.id);
  }

  async chunkIdsWithPrefix(prefix: string, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT chunk_id AS id FROM chunks WHERE starts_with(chunk_id, $1) ORDER BY chunk_id COLLATE "C" LIMIT $2`,
      [prefix, limit],
    );
    return rows.rows.map((r) => r.id);
  }

  async chunkIdAt(documentId: string, offset: number): Promise<string | undefined> {
    // As the SQLite store: the chunk holding the offset, else the last one starting before it, else the first.
    const rows = await this.db.query<{ id: string }>(
      `SELECT c.chunk_id AS id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.document_id = $1
       ORDER BY (c.start_offset <= $2 AND c.end_offset > $2) DESC, (c.start_offset <= $2) DESC,
         CASE WHEN c.start_offset <= $2 THEN -c.start_offset ELSE c.start_offset END LIMIT 1`,
      [documentId, offset],
    );
    return rows.rows[0]?.id;
  }

  async getDocumentBySource(source: string): Promise<StoredDocument | undefined> {
    const row = (await this.db.query<DocumentRow>(`SELECT ${DOC_COLUMNS} FROM documents d WHERE d.source = $1`, [source])).rows[0];
    return row ? toDocument(row) : undefined;
  }

  async getDocument(documentId: string): Promise<StoredDocument | undefined> {
    const row = (await this.db.query<DocumentRow>(`SELECT ${DOC_COLUMNS} FROM documents d WHERE d.document_id = $1`, [documentId])).rows[0];
    return row ? toDocument(row) : undefined;
  }

  async documentState(source: string): Promise<DocumentState | undefined> {
    return (await this.db.query<DocumentState>("SELECT fingerprint, base_dir FROM documents WHERE source = $1", [source])).rows[0];
  }

  async documentsAt(sources: readonly string[], documentIds: readonly string[]): Promise<StoredDocument[]> {
    if (sources.length === 0 && documentIds.length === 0) return [];
    const rows = await this.db.query<DocumentRow>(
      `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.source = ANY($1::text[]) OR d.document_id = ANY($2::text[])`,
      [sources, documentIds],
    );
    return rows.rows.map(toDocument);
  }

  async heldFingerprints(fingerprints: readonly string[]): Promise<string[]> {
    if (fingerprints.length === 0) return [];
    const rows = await this.db.query<{ f: string }>("SELECT DISTINCT fingerprint AS f FROM documents WHERE fingerprint = ANY($1::text[])", [fingerprints]);
    return rows.rows.map((r) => r.f);
  }

  async replaceDocument(doc: StoredDocument, chunks: NewChunk[], vectors?: readonly ChunkVectors[]): Promise<void> {
    if (vectors && vectors.length !== chunks.length) {
      throw new GroundkitError("INTERNAL", `${vectors.length} vectors for ${chunks.length} chunks.`);
    }
    const units = vectors ? await this.unitVectors(vectors.map(windowsOf)) : undefined;
    const postings = chunks.map((ch) => postingsOf(chunkTokens(ch.text, ch.heading_path)));
    const statements = this.archive([{ source: doc.source, contentHash: doc.content_hash, at: doc.ingested_at }]);
    statements.push(this.removeDocumentRows([doc.source]), this.insertDocument(doc, chunks, postings));
    if (units && units.length > 0) statements.push(this.upsertVectors(chunks.map((c) => c.chunk_id), units, "chunk_id"));
    statements.push(BUMP_GENERATION);
    // In a savepoint of the caller's transaction, or a transaction of its own.
    await this.tx((s) => runAll(s.db, statements));
  }

  /**
   * A write batch's documents with a few statements for all of them (bulk-write.ts)
   * in a savepoint; when that fails (one bad document fails the statement), it
   * rolls back and the documents are written one by one, so only the bad one fails.
   */
  async replaceDocuments(writes: readonly DocumentWrite[]): Promise<unknown[]> {
    if (writes.length < 2) return replaceEach(this, writes);
    try {
      await this.tx((s) => s.writeBulk(writes));
      return writes.map(() => undefined);
    } catch {
      return replaceEach(this, writes);
    }
  }

  /**
   * Tokenize the batch and build its statement now (bulk-write.ts: it reserves its ids itself, so it does
   * not depend on the server): ingest calls this while the batch before is still being written.
   */
  prepareWrites(writes: readonly DocumentWrite[]): void {
    if (writes.length < 2 || this.shared.prepared.has(writes)) return;
    // A failure is met again, and reported, where the write builds the statement itself.
    this.shared.prepared.set(writes, batchStatement(writes).catch(() => undefined));
  }

  private async writeBulk(writes: readonly DocumentWrite[]): Promise<void> {
    for (const w of writes) {
      if (w.vectors && w.vectors.length !== w.chunks.length) throw new GroundkitError("INTERNAL", `${w.vectors.length} vectors for ${w.chunks.length} chunks.`);
    }
    const vectors = writes.flatMap((w) => (w.vectors ?? []).map(windowsOf));
    const units = vectors.length > 0 ? await this.unitVectors(vectors) : [];
    const bulk = (await this.shared.prepared.get(writes)) ?? (await batchStatement(writes));
    // Once: a batch that fails here is written again document by document.
    this.shared.prepared.delete(writes);
    // With history on, each replaced document is kept as a version before its rows go (as in replaceDocument).
    const archives = this.archive(writes.map((w) => ({ source: w.doc.source, contentHash: w.doc.content_hash, at: w.doc.ingested_at })));
    await runAll(this.db, [...archives, this.removeDocumentRows(writes.map((w) => w.doc.source))]);
    const ids = (await this.db.query<{ chunks: number[] }>(bulk.sql, bulk.params)).rows[0]!.chunks;
    if (units.length > 0) {
      // The ids the statement reserved for the chunks that carry vectors, in the order of `units`.
      const keys: number[] = [];
      let next = 0;
      for (const w of writes) {
        for (let j = 0; j < w.chunks.length; j++, next++) if (w.vectors) keys.push(ids[next]!);
      }
      await runAll(this.db, [this.upsertVectors(keys, units, "id")]);
    }
  }

  /** The statement writing the document row, its chunks and their postings (run in the caller's transaction). */
  private insertDocument(doc: StoredDocument, chunks: NewChunk[], postings: ReturnType<typeof postingsOf>[]): Statement {
    const col = <K extends keyof NewChunk>(k: K): Array<NewChunk[K]> => chunks.map((c) => c[k]);
    const pChunk: string[] = [];
    const pTerm: string[] = [];
    const pTf: number[] = [];
    postings.forEach((p, i) => {
      for (let j = 0; j < p.terms.length; j++) {
        pChunk.push(chunks[i]!.chunk_id);
        pTerm.push(p.terms[j]!);
        pTf.push(p.tfs[j]!);
      }
    });
    const totalLen = postings.reduce((n, p) => n + p.dl, 0);
    return {
      sql: `WITH doc AS (
         INSERT INTO documents (id, document_id, source, source_class, extractor, base_dir, fingerprint, content_hash,
           content_length, ingested_at, metadata)
         VALUES (nextval('document_ids'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id),
       ins AS (
         INSERT INTO chunks (id, chunk_id, doc_id, ordinal, text, start_offset, end_offset, start_line, end_line,
           page_start, page_end, text_hash, metadata, dl)
         SELECT nextval('chunk_ids'), u.chunk_id, doc.id, u.ordinal, u.text, u.start_offset, u.end_offset, u.start_line,
           u.end_line, u.page_start, u.page_end, u.text_hash, u.metadata, u.dl
         FROM doc, unnest($11::text[], $12::int[], $13::text[], $14::bigint[], $15::bigint[], $16::int[], $17::int[],
           $18::int[], $19::int[], $20::text[], $21::text[], $22::int[])
           AS u(chunk_id, ordinal, text, start_offset, end_offset, start_line, end_line, page_start, page_end, text_hash, metadata, dl)
         RETURNING id, chunk_id, dl),
       post AS (
         INSERT INTO bm25_postings (term, chunk, tf, dl)
         SELECT p.term, ins.id, p.tf, ins.dl FROM unnest($23::text[], $24::text[], $25::int[]) AS p(chunk_id, term, tf)
         JOIN ins ON ins.chunk_id = p.chunk_id)
       UPDATE bm25_stats SET docs = docs + $26, total_len = total_len + $27`,
      params: [
        doc.document_id,
        doc.source,
        doc.source_class,
        doc.extractor,
        doc.base_dir,
        doc.fingerprint,
        doc.content_hash,
        doc.content_length,
        doc.ingested_at,
        JSON.stringify(doc.metadata),
        col("chunk_id"),
        col("ordinal"),
        col("text"),
        col("start_offset"),
        col("end_offset"),
        col("start_line"),
        col("end_line"),
        col("page_start"),
        col("page_end"),
        col("text_hash"),
        chunks.map(chunkMetadataJson),
        postings.map((p) => p.dl),
        pChunk,
        pTerm,
        pTf,
        chunks.length,
        totalLen,
      ],
    };
  }

  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.tx(fn);
  }

  deleteDocument(documentId: string): Promise<boolean> {
    return this.tx(async (s) => {
      const doc = await s.getDocument(documentId);
      if (!doc) return false;
      const at = new Date().toISOString();
      await runAll(s.db, [...this.archive([{ source: doc.source, contentHash: null, at }]), this.removeDocumentRows([doc.source]), BUMP_GENERATION]);
      return true;
    });
  }

  /** With history on, the statement keeping the documents at these sources as versions before their rows go. */
  private archive(docs: history.ArchivedDocument[]): Statement[] {
    return this.shared.recordHistory ? [history.archiveStatement(docs)] : [];
  }

  setHistoryRecording(on: boolean): Promise<void> {
    this.shared.recordHistory = on;
    return Promise.resolve();
  }

  historyOf(documentId: string): Promise<HistoryVersion[]> {
    return history.versionsOf(this.db, documentId);
  }

  historySpans(versionId: number): Promise<HistorySpan[]> {
    return history.spansOf(this.db, versionId);
  }

  historyChunk(chunkId: string): Promise<HistoryChunk | undefined> {
    return history.chunkOf(this.db, chunkId);
  }

  pruneHistory(retention: HistoryRetention, now: Date): Promise<HistoryPruned> {
    return this.tx((s) => history.prune(s.db, retention, now));
  }

  historyHealth(): Promise<HistoryHealth> {
    return history.health(this.db);
  }

  historyTotals(): Promise<HistoryTotals> {
    return history.totals(this.db);
  }

  historyPage(afterVersionId: number, limit: number): Promise<HistoryRecord[]> {
    return history.page(this.db, afterVersionId, limit);
  }

  writeHistory(records: readonly HistoryRecord[]): Promise<void> {
    return this.tx((s) => history.write(s.db, records));
  }

  /** The statement deleting documents' rows; their chunks, postings and vectors go by ON DELETE CASCADE (run in the caller's transaction). */
  private removeDocumentRows(sources: string[]): Statement {
    return {
      sql: `WITH d AS (SELECT id FROM documents WHERE source = ANY($1::text[])),
       c AS (SELECT count(*) AS n, COALESCE(sum(dl), 0) AS s FROM chunks WHERE doc_id IN (SELECT id FROM d)),
       u AS (UPDATE bm25_stats SET docs = docs - c.n, total_len = total_len - c.s FROM c WHERE c.n > 0 RETURNING 1)
       DELETE FROM documents WHERE id IN (SELECT id FROM d)`,
      params: [sources],
    };
  }

  async documentsWithFingerprint(fingerprint: string, limit: number): Promise<DocumentRef[]> {
    return (
      await this.db.query<DocumentRef>(
        `SELECT id AS rowid, document_id, source, source_class FROM documents WHERE fingerprint = $1 ORDER BY source COLLATE "C" LIMIT $2`,
        [fingerprint, limit],
      )
    ).rows.map((r) => ({ ...r, rowid: Number(r.rowid) }));
  }

  moveDocument(documentId: string, to: DocumentMove): Promise<boolean> {
    return this.tx(async (s) => {
      const moved = await s.db.query("UPDATE documents SET source = $2, base_dir = $3, metadata = $4 WHERE document_id = $1", [
        documentId,
        to.source,
        to.base_dir,
        JSON.stringify(to.metadata),
      ]);
      if (moved.rowCount === 0) return false;
      // Counted, so every process's cache of hit rows (store/chunk-row-cache.ts) reads the moved rows again.
      const countMove = {
        sql: `INSERT INTO meta (key, value) VALUES ($1, '1') ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text`,
        params: [MOVES_KEY],
      };
      await runAll(s.db, [countMove, BUMP_GENERATION]);
      return true;
    });
  }

  async documentsSharingChunks(textHashes: readonly string[], minShared: number, limit: number): Promise<SharedChunks[]> {
    const rows = await this.db.query<SharedChunks>(
      `SELECT d.document_id, d.source, d.source_class, d.ingested_at, count(DISTINCT c.text_hash)::int AS shared,
              (SELECT count(DISTINCT c2.text_hash) FROM chunks c2 WHERE c2.doc_id = c.doc_id)::int AS distinct_chunks
       FROM chunks c JOIN documents d ON d.id = c.doc_id
       WHERE c.text_hash = ANY($1::text[])
       GROUP BY c.doc_id, d.document_id, d.source, d.source_class, d.ingested_at HAVING count(DISTINCT c.text_hash) >= $2
       ORDER BY shared DESC, d.document_id COLLATE "C" LIMIT $3`,
      [[...new Set(textHashes)], minShared, limit],
    );
    return rows.rows;
  }

  async chunksWithTextHash(textHash: string, limit: number): Promise<StoredChunk[]> {
    const rows = await this.db.query<JoinedRow>(
      `SELECT ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id
       WHERE c.text_hash = $1 ORDER BY c.chunk_id COLLATE "C" LIMIT $2`,
      [textHash, limit],
    );
    return rows.rows.map(toChunk);
  }

  /**
   * Walks run only under the collection's writer lock, so any other walker's
   * rows here are a dead writer's (a killed process never reaches close()):
   * sweep them all with this walk's start.
   */
  async resetSeenSources(): Promise<void> {
    this.shared.seenPending = [];
    await this.db.query("DELETE FROM walk_seen");
  }

  async markSourceSeen(source: string): Promise<void> {
    this.shared.seenPending.push(source);
    if (this.shared.seenPending.length >= SEEN_PAGE) await this.flushSeen();
  }

  async unseenDocumentsUnder(prefix: string, afterRowid: number, limit: number): Promise<DocumentRef[]> {
    await this.flushSeen();
    return (
      await this.db.query<DocumentRef>(
        `SELECT id AS rowid, document_id, source, source_class FROM documents d
       WHERE id > $1 AND starts_with(source, $2)
         AND NOT EXISTS (SELECT 1 FROM walk_seen s WHERE s.walker = $3 AND s.source = d.source)
       ORDER BY id LIMIT $4`,
        [afterRowid, prefix, this.shared.walker, limit],
      )
    ).rows;
  }

  private async flushSeen(): Promise<void> {
    if (this.shared.seenPending.length === 0) return;
    const pending = this.shared.seenPending;
    this.shared.seenPending = [];
    await this.db.query("INSERT INTO walk_seen (walker, source) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING", [this.shared.walker, pending]);
  }

  async getChunk(chunkId: string): Promise<StoredChunk | undefined> {
    const row = (
      await this.db.query<JoinedRow>(`SELECT ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.chunk_id = $1`, [
        chunkId,
      ])
    ).rows[0];
    return row ? toChunk(row) : undefined;
  }

  /**
   * BM25 top-k: one statement reads what the process does not hold of the
   * query terms' segment blocks and the newest chunks' postings, the process
   * scores with the SQLite engine's MaxScore/block-max code, and the hits'
   * rows are read by id (lexical-search.ts, lexical-rows.ts; ADR 0020).
   */
  async searchLexical(terms: string[], limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    const q = countQueryTerms(terms);
    if (q.terms.length === 0 || !(limit >= 1)) return [];
    let allowed: AllowedChunksSql | undefined;
    if (filter) {
      const params = new Params();
      allowed = { sql: await this.filteredChunkIds(filter, params), params: params.values };
    }
    return searchLexicalRows(this.db, this.shared.lexical, terms, limit, allowed, this.shared.hitRows);
  }

  /** A SELECT of the chunk ids passing a filter; path globs are matched here, in code, first. */
  private async filteredChunkIds(filter: ChunkFilter, params: Params): Promise<string> {
    const globs = new Map<string, number[]>();
    const patterns = globsOf(filter);
    if (patterns.length > 0) {
      const docs = (await this.db.query<[number, string, string]>(`SELECT d.id, ${PATH_OF_DOCUMENT}, d.source FROM documents d`, [], { rowMode: "array" }))
        .rows;
      let remaining = GLOB_STEPS_PER_STATEMENT;
      for (const { glob: pattern, absolute } of patterns) {
        const match = compileGlob(pattern, { dot: true, errorCode: "INVALID_FILTER" });
        const meter = {
          spend: (steps: number) => {
            remaining -= steps;
            if (remaining < 0) {
              throw new GroundkitError(
                "INVALID_FILTER",
                `The path filter '${pattern.slice(0, 80)}' needs more than ${GLOB_STEPS_PER_STATEMENT} matching steps on this ` +
                  "collection; use a simpler glob (fewer '*' per segment, shorter literal runs) or path^=<prefix>.",
              );
            }
          },
        };
        // An absolute glob matches the absolute source, as SQLite does.
        globs.set(globKey({ glob: pattern, absolute }), docs.filter(([, path, source]) => match(absolute ? source : path, meter)).map(([id]) => id));
      }
    }
    return `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE ${compileChunkFilter(filter, globs, params)}`;
  }

  /** Check each chunk's window vectors (width against the stored one, finite, a direction) and return unit-length copies. */
  private async unitVectors(vectors: ReadonlyArray<readonly Float32Array[]>, against: "stored" | "replacing" = "stored"): Promise<Float32Array[][]> {
    if (vectors.length === 0) return [];
    const dims = vectors[0]![0]!.length;
    checkDimensions(dims);
    // Replacing every vector (re-embedding) may change the width; adding to the stored ones (or a vector(d) column) may not.
    let stored: number | undefined;
    if (against === "stored") {
      const col = await readVectorColumn(this.db);
      stored = col.dims ?? col.declaredDims;
    }
    if (stored !== undefined && stored !== dims) {
      throw new GroundkitError(
        "EMBEDDING_MISMATCH",
        `The collection stores ${stored}-dimensional vectors; ${dims}-dimensional vectors cannot be added.`,
        { stored, requested: dims },
      );
    }
    return vectors.map((windows) => windows.map((v) => unitCopy(v, checkVector(v, dims))));
  }

  /**
   * The statement inserting or replacing the window vectors of existing chunks, keyed by chunk row id or chunk
   * id (a chunk's windows beyond those given are deleted first by the caller, or went with its old row).
   */
  private upsertVectors(keys: Array<number | string>, units: Float32Array[][], by: "id" | "chunk_id"): Statement {
    const rowKeys: Array<number | string> = [];
    const wins: number[] = [];
    const literals: string[] = [];
    units.forEach((windows, i) =>
      windows.forEach((v, w) => {
        rowKeys.push(keys[i]!);
        wins.push(w);
        literals.push(vectorLiteral(v));
      }),
    );
    return {
      sql: `INSERT INTO vectors (chunk, win, embedding)
       SELECT c.id, u.w, u.e::real[] FROM unnest($1::${by === "id" ? "bigint" : "text"}[], $2::smallint[], $3::text[]) AS u(k, w, e)
       JOIN chunks c ON c.${by} = u.k
       ON CONFLICT (chunk, win) DO UPDATE SET embedding = excluded.embedding`,
      params: [rowKeys, wins, literals],
    };
  }

  /**
   * Chunks nearest to a query vector, score = cosine similarity (the float8
   * dot product of the unit vectors, whichever way the candidates were
   * found). With pgvector, candidates come from the HNSW index and are
   * rescored; a filter passing few vectors, or an index scan that came back
   * short (dead rows, a filter rejecting most of the graph), is searched
   * exactly instead. See docs/decisions/0011-postgres-store.md. Equal scores
   * come in store/hit-order.ts's order, as in every store.
   */
  async searchVectors(query: Float32Array, limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    return (await this.nearestChunks(query, limit, filter)).sort(byScoreThenTie);
  }

  private nearestChunks(query: Float32Array, limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    return this.snapshot(async (s) => {
      const col = await readVectorColumn(s.db);
      if (col.dims === undefined) throw new GroundkitError("NO_VECTORS", "This collection has no vectors yet.");
      const q = unitCopy(query, checkVector(query, col.dims));
      if (!Number.isInteger(limit) || limit < 1 || limit > 4096) {
        throw new GroundkitError("INVALID_ARGUMENT", `k must be an integer from 1 to 4096, got ${limit}.`);
      }
      const plan = planOf(col);
      if (plan === "array-exact") {
        // Every vector scored in SQL, each chunk at its best window; only the best k reach the (repeated) scoring below.
        return (
          await s.scoredFrom(
            q,
            limit,
            filter,
            (_params, where) =>
              `SELECT v.chunk, v.embedding FROM (SELECT DISTINCT ON (v.chunk) v.chunk, v.embedding, ${EXACT_SCORE} AS sc FROM vectors v ${where}
               ORDER BY v.chunk, sc DESC) v ORDER BY v.sc DESC, v.chunk LIMIT $2`,
          )
        ).hits;
      }
      return s.pgvectorSearch(col, plan === "hnsw" ? "hnsw" : "exact", q, limit, filter);
    });
  }

  private async pgvectorSearch(col: VectorColumn, how: "hnsw" | "exact", q: Float32Array, limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    const schema = col.extensionSchema!;
    let matching: number | undefined;
    if (how === "hnsw" && filter) {
      const params = new Params();
      const ids = await this.filteredChunkIds(filter, params);
      matching = (await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM vectors v WHERE v.chunk IN (${ids})`, params.values)).rows[0]!.n;
      if (matching === 0) return [];
      if (matching <= (this.shared.vectorOptions.filterExactMax ?? DEFAULT_FILTER_EXACT_MAX)) how = "exact";
    }
    const total = matching ?? (await this.countVectors());
    // Candidates are vectors, and a chunk's windows may take several places: widen until enough distinct chunks come back.
    for (let candidates = limit + RESCORE_MARGIN; ; candidates *= 4) {
      const search = (way: "hnsw" | "exact") =>
        this.scoredFrom(q, limit, filter, (params, where) => pgvectorCandidates(schema, way, where, params.add(candidates, "::int")));
      let found: Awaited<ReturnType<typeof search>>;
      if (how === "exact") found = await search("exact");
      else {
        const settings = hnswSettings(candidates);
        await this.db.query(settings.sql, settings.params);
        found = await search("hnsw");
        // Fewer candidates than asked, and fewer than there are: the index scan stopped short, so scan exactly.
        if (found.candidates < candidates && found.candidates < total) found = await search("exact");
      }
      if (found.chunks >= limit + RESCORE_MARGIN || found.candidates < candidates || candidates >= total) return found.hits;
    }
  }

  /**
   * Score the candidate rows (chunk, embedding) that `candidatesSql` selects
   * (given the parameters and the filter's WHERE) exactly, each chunk by its
   * best window, and keep the best `limit` chunks, ties by row id. `candidates`
   * counts the rows it selected, `chunks` the distinct chunks among them.
   */
  private async scoredFrom(
    q: Float32Array,
    limit: number,
    filter: ChunkFilter | undefined,
    candidatesSql: (params: Params, where: string) => string,
  ): Promise<{ hits: ScoredChunk[]; candidates: number; chunks: number }> {
    const params = new Params([vectorLiteral(q), limit]);
    const where = filter ? `WHERE v.chunk IN (${await this.filteredChunkIds(filter, params)})` : "";
    const rows = (
      await this.db.query<JoinedRow & { score: number; rowid_: number; candidates_: number; chunks_: number }>(
        `WITH cand AS MATERIALIZED (${candidatesSql(params, where)}),
       s AS (SELECT x.chunk, max(x.score) AS score FROM (SELECT v.chunk, ${EXACT_SCORE} AS score FROM cand v) x
             GROUP BY x.chunk ORDER BY score DESC, x.chunk LIMIT $2)
       SELECT s.score, s.chunk AS rowid_, (SELECT count(*) FROM cand) AS candidates_, (SELECT count(DISTINCT chunk) FROM cand) AS chunks_,
         ${CHUNK_COLUMNS}, ${DOC_COLUMNS}
       FROM s JOIN chunks c ON c.id = s.chunk JOIN documents d ON d.id = c.doc_id ORDER BY s.score DESC, s.chunk`,
        params.values,
      )
    ).rows;
    return { hits: rows.map((r) => toScoredChunk(r, r.score)), candidates: rows[0]?.candidates_ ?? 0, chunks: rows[0]?.chunks_ ?? 0 };
  }

  /** Every chunk's rowid and text, in rowid order (for re-embedding). */
  async allChunkTexts(): Promise<Array<{ rowid: number; text: string }>> {
    return (await this.db.query<{ rowid: number; text: string }>("SELECT id AS rowid, text FROM chunks ORDER BY id")).rows;
  }

  async vectorDimensions(): Promise<number | undefined> {
    const row = (await this.db.query<{ d: number | null }>("SELECT array_length(embedding::real[], 1) AS d FROM vectors LIMIT 1")).rows[0];
    return row?.d ?? undefined;
  }

  async countVectors(): Promise<number> {
    return (await this.db.query<{ n: number }>("SELECT count(*) AS n FROM vectors")).rows[0]!.n;
  }

  async countChunksWithVectors(): Promise<number> {
    return (await this.db.query<{ n: number }>("SELECT count(*) AS n FROM vectors WHERE win = 0")).rows[0]!.n;
  }

  async chunksMissingVectors(limit: number): Promise<Array<{ rowid: number; text: string }>> {
    return (
      await this.db.query<{ rowid: number; text: string }>(
        `SELECT c.id AS rowid, c.text FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk = c.id)
       ORDER BY c.id LIMIT $1`,
        [Math.max(0, Math.floor(limit))],
      )
    ).rows;
  }

  /**
   * Write vectors for existing chunks in one transaction, each chunk's windows replacing any it had (rows whose
   * chunk vanished meanwhile are skipped).
   */
  async writeVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>): Promise<void> {
    if (rows.length === 0) return;
    const units = await this.unitVectors(rows.map((r) => windowsOf(r.vector)));
    const ids = rows.map((r) => r.rowid);
    await this.tx((s) => runAll(s.db, [{ sql: "DELETE FROM vectors WHERE chunk = ANY($1::bigint[])", params: [ids] }, this.upsertVectors(ids, units, "id")]));
  }

  /** Replace every vector and the recorded identity in one transaction (re-embedding swaps atomically). */
  async replaceAllVectors(rows: Array<{ rowid: number; vector: ChunkVectors }>, meta: Record<string, string>): Promise<void> {
    const units = await this.unitVectors(rows.map((r) => windowsOf(r.vector)), "replacing");
    await this.tx(async (s) => {
      // With pgvector the index goes too: the writer's syncVectorIndex builds it again over the new vectors.
      const statements: Statement[] =
        rows.length > 0 ? replaceAllStatements(await readVectorColumn(s.db), units[0]![0]!.length) : [{ sql: "DELETE FROM vectors" }];
      if (rows.length > 0) statements.push(this.upsertVectors(rows.map((r) => r.rowid), units, "id"));
      await runAll(s.db, statements);
      for (const [k, v] of Object.entries(meta)) await s.setMeta(k, v);
      await runAll(s.db, [BUMP_GENERATION]);
    });
  }

  async documentsAfter(afterRowid: number, limit: number): Promise<DocumentRef[]> {
    return (
      await this.db.query<DocumentRef>("SELECT id AS rowid, document_id, source, source_class FROM documents WHERE id > $1 ORDER BY id LIMIT $2", [
        afterRowid,
        limit,
      ])
    ).rows;
  }

  async chunksOf(documentId: string): Promise<Array<NewChunk & { rowid: number }>> {
    const rows = await this.db.query<JoinedRow & { rowid_: number }>(
      `SELECT c.id AS rowid_, ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id
         WHERE d.document_id = $1 ORDER BY c.ordinal`,
      [documentId],
    );
    return rows.rows.map((r) => {
      const { document: _document, ...chunk } = toChunk(r);
      return { ...chunk, rowid: r.rowid_ };
    });
  }

  async vectorsOf(rowids: number[]): Promise<Map<number, Float32Array[]>> {
    const out = new Map<number, Float32Array[]>();
    if (rowids.length === 0) return out;
    const rows = (
      await this.db.query<{ chunk: number; embedding: number[] }>(
        "SELECT chunk, embedding::real[] AS embedding FROM vectors WHERE chunk = ANY($1::bigint[]) ORDER BY chunk, win",
        [rowids],
      )
    ).rows;
    for (const r of rows) {
      const windows = out.get(r.chunk) ?? [];
      windows.push(Float32Array.from(r.embedding));
      out.set(r.chunk, windows);
    }
    return out;
  }

  async allMeta(): Promise<Record<string, string>> {
    const rows = (await this.db.query<{ key: string; value: string }>("SELECT key, value FROM meta")).rows;
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  async getMeta(key: string): Promise<string | undefined> {
    return (await this.db.query<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key])).rows[0]?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db.query("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
  }

  stats(): Promise<StoreStats> {
    return this.snapshot(async (s) => {
      const byClass = (await s.db.query<{ cls: string; docs: number; chunks: number }>(COUNTS_BY_CLASS_SQL)).rows;
      const meta = await s.allMeta();
      return statsOf(byClass, SCHEMA_VERSION, (k) => meta[k]);
    });
  }

  /** `grk doctor`'s row checks and safe repairs, as SQL on this collection's schema (store-health.ts). */
  health(): StoreHealth {
    return postgresHealth(this.db, this, (fn) => this.tx((s) => fn(s.db)));
  }

  metadataFields(): Promise<string[]> {
    const sql = "SELECT DISTINCT k.key FROM documents d, json_object_keys(d.metadata::json) AS k(key) ORDER BY k.key";
    return this.snapshot(async (s) => (await s.db.query<{ key: string }>(sql)).rows.map((r) => r.key));
  }

  /** Close the collection's pool (a transaction's handle has nothing of its own to close). */
  async close(): Promise<void> {
    if (this.client) return;
    try {
      await this.pool.query("DELETE FROM walk_seen WHERE walker = $1", [this.shared.walker]);
    } catch {
      // The walk record is scratch; a server that is gone keeps nothing of this session anyway.
    } finally {
      await this.pool.close();
      await this.shared.replicas?.close();
    }
  }
}

/** Chunks tokenized between two turns of the event loop when a batch is built ahead. */
const SLICE_CHUNKS = 64;

/**
 * The one statement writing a batch's documents, chunks and postings (bulk-write.ts), built giving the event
 * loop back every {@link SLICE_CHUNKS} chunks: built ahead, it runs while the batch before is written, whose
 * statements' answers would otherwise wait the whole ~20 ms of a batch's tokenizing, the server idle
 * meanwhile (about 10 % of a 20,000-chunk first ingest).
 */
async function batchStatement(writes: readonly DocumentWrite[]): Promise<Statement> {
  const docs: BulkDocument[] = [];
  let since = 0;
  for (const w of writes) {
    const postings: ChunkPostings[] = [];
    for (const ch of w.chunks) {
      if (++since >= SLICE_CHUNKS) {
        since = 0;
        await nextTurn();
      }
      postings.push(postingsOf(chunkTokens(ch.text, ch.heading_path)));
    }
    docs.push({ doc: w.doc, chunks: w.chunks, postings });
  }
  await nextTurn();
  return bulkInsertStatement(docs);
}
