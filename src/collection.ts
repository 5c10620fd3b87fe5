/**
 * The library API every surface (CLI, REST, MCP) uses: open a collection,
 * ingest, search, fetch a chunk, verify a citation, report status.
 *
 * @example
 *   import { openCollection } from "groundkit";
 *   const col = openCollection({ indexDir: ".groundkit", collection: "default", create: true });
 *   await col.ingest(["./docs"]);
 *   const hits = await col.search("how are citations checked", { verify: true });
 *   col.close();
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { checkCollectionName } from "./core/collection-name.js";
import { DEFAULTS } from "./core/config.js";
import { CitationSchema, type Citation, type SearchHit, type Verification } from "./core/contracts.js";
import { GroundkitError } from "./core/errors.js";
import { citationOf } from "./cite/citation.js";
import { checkCitation, verifyCitation, type VerifyContext } from "./cite/verify.js";
import { readExtractedSource } from "./cite/read-extracted-source.js";
import type { SourceText } from "./cite/source-text.js";
import { readSnapshotSource } from "./cite/read-snapshot-source.js";
import type { ChunkSettings } from "./ingest/build-chunks.js";
import { decideChunking, parseRecordedChunking, recordChunking, type RecordedChunking } from "./ingest/chunking-settings.js";
import { Dispatcher } from "./ingest/dispatch.js";
import { Ingestor, type IngestOptions, type IngestSummary } from "./ingest/ingest.js";
import { SnapshotStore } from "./store/snapshots.js";
import { checkIndexDirIfPresent, ensureIndexDir, storeOpenError } from "./store/index-dir.js";
import { bindProvider, identityMeta, recordedIdentity } from "./embed/binding.js";
import type { VectorCache } from "./embed/vector-cache.js";
import type { EmbeddingIdentity, EmbeddingProvider } from "./embed/provider.js";
import type { EmbeddingConfig } from "./embed/registry.js";
import { resolveExtractionLimits, type ExtractionLimits } from "./extract/limits.js";
import { createReranker, type RerankerConfig } from "./retrieve/rerank/registry.js";
import type { Reranker } from "./retrieve/rerank/reranker.js";
import { checkQuery, checkTopK } from "./retrieve/query.js";
import { rankChunks, type RetrievalSettings, type SearchMode } from "./retrieve/search-pipeline.js";
import { SqliteStore } from "./store/sqlite/sqlite-store.js";
import { withWriterLock, WriterLock, type LockHolder } from "./store/sqlite/writer-lock.js";
import type { ScoredChunk, StoreStats, StoredChunk, VectorIndexStatus } from "./store/store.js";
import type { AnnOptions } from "./store/sqlite/ann-index.js";
import { removeAnnFiles } from "./store/sqlite/ann-file.js";
import { formatIssues } from "./core/validation.js";

export interface CollectionLocation {
  /** Directory holding collection files (default `.groundkit`). */
  indexDir?: string | undefined;
  /** Collection name (default `default`). */
  collection?: string | undefined;
}

export interface OpenCollectionOptions extends CollectionLocation {
  /** Create the collection if it does not exist (ingest does; readers do not). */
  create?: boolean | undefined;
  /** Embedding provider for dense ingest/search (default: the one recorded, else the local model). */
  embedding?: EmbeddingConfig | undefined;
  /** Cross-encoder for `rerank` (no default: no npm package ships one). */
  reranker?: RerankerConfig | undefined;
  /** Retrieval tuning. */
  retrieval?: RetrievalSettings | undefined;
  /** Chunking for a collection's first ingest (a config file's); later ingests reuse what the collection recorded. */
  chunking?: Partial<ChunkSettings> | undefined;
  /** Budgets for extracting PDF and HTML, at ingest and at every re-verification (defaults: 30 s, 512 MiB, 64 Mi code points). */
  extraction?: Partial<ExtractionLimits> | undefined;
  /** Answer document embeddings from this cache and store new ones in it (eval reruns). */
  vectorCache?: VectorCache | undefined;
  /** How dense search uses the ANN index (default: HNSW from 10k vectors up; `mode: "exact"` never). */
  vectorIndex?: AnnOptions | undefined;
}

export type { RetrievalSettings, SearchMode };

export interface SearchOptions {
  topK?: number | undefined;
  /** Retrieval mode (default bm25). */
  mode?: SearchMode | undefined;
  /** Filter strings such as `path=guides/**`, `class=text`, `tag=security` (ANDed). */
  filters?: readonly string[] | undefined;
  /** Rescore the top candidates with the configured cross-encoder. */
  rerank?: boolean | undefined;
  /** Re-check every hit against its source. */
  verify?: boolean | undefined;
  /** Override the containment root used for verification. */
  baseDir?: string | undefined;
}

export interface ChunkView {
  chunk_id: string;
  document_id: string;
  text: string;
  heading_path: string[];
  citation: Citation;
  verification: Verification;
  /** Source text around the span (code points each side), only when verified and asked for. */
  context: { before: string; after: string } | null;
}

/**
 * How a writing call (ingest, reembed, delete) waits for the collection's
 * writer lock while another writer, in this process or another, holds it.
 */
export interface LockWaitOptions {
  /** Give up with COLLECTION_BUSY after this long [30 s]; 0 tries once. */
  lockTimeoutMs?: number | undefined;
  /** Called once, when another writer holds the lock and this call starts to wait (see describeWait). */
  onLockWait?: ((holder: LockHolder | undefined) => void) | undefined;
}

/** Options of a dense ingest. */
export interface DenseIngestOptions {
  /** Embed chunks (and backfill chunks without vectors) with the collection's embedding provider. */
  dense?: boolean | undefined;
  onEmbedProgress?: ((done: number, total: number) => void) | undefined;
  /** Called while the ANN index is (re)built at the end of an ingest: vectors added so far, of all. */
  onIndexProgress?: ((done: number, total: number) => void) | undefined;
}

/** Chunks embedded per backfill/re-embed batch (one transaction each). */
const BACKFILL_BATCH = 256;

/** A ranked chunk from {@link Collection.retrieve}. */
export interface RetrievedChunk {
  chunk_id: string;
  source: string;
  start_offset: number;
  end_offset: number;
  score: number;
}

export interface CollectionStatus extends StoreStats {
  collection: string;
  path: string;
  vectors: number;
  /** Which vector index dense search uses, its size and whether it is current. */
  vector_index: VectorIndexStatus;
  embedding: EmbeddingIdentity | null;
  base_dirs: string[];
  /** The chunking every ingest of this collection uses unless asked for another. */
  chunker: RecordedChunking | null;
}

const FILE_SUFFIX = ".sqlite3";

function locate(loc: CollectionLocation): { indexDir: string; name: string; file: string } {
  const indexDir = resolve(loc.indexDir ?? DEFAULTS.indexDir);
  const name = checkCollectionName(loc.collection ?? DEFAULTS.collection);
  return { indexDir, name, file: join(indexDir, name + FILE_SUFFIX) };
}

/** Open a collection. Throws COLLECTION_NOT_FOUND unless it exists or `create` is set. */
export function openCollection(opts: OpenCollectionOptions = {}): Collection {
  const { indexDir, name, file } = locate(opts);
  // Refuse bad limits up front, not once per file.
  resolveExtractionLimits(opts.extraction);
  if (opts.create) ensureIndexDir(indexDir);
  else {
    checkIndexDirIfPresent(indexDir);
    if (!safeIsFile(file)) throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${name}' does not exist in ${indexDir}.`);
  }
  let store: SqliteStore;
  try {
    store = SqliteStore.open(file, { create: opts.create ?? false, vectorIndex: opts.vectorIndex ?? annOptionsFromEnv() });
  } catch (err) {
    throw storeOpenError(indexDir, file, err);
  }
  return new Collection(name, indexDir, file, store, opts);
}

/**
 * Vector index tuning from the environment (docs/vector-index.md):
 * `GROUNDKIT_ANN=exact` turns the HNSW index off; `GROUNDKIT_ANN_MIN_VECTORS=N`
 * moves the size from which it is used (default 10,000).
 *
 * @throws GroundkitError INVALID_CONFIG for a value that is not one of those
 */
function annOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): AnnOptions | undefined {
  const mode = env.GROUNDKIT_ANN;
  const min = env.GROUNDKIT_ANN_MIN_VECTORS;
  if (!mode && !min) return undefined;
  if (mode && mode !== "exact" && mode !== "auto") {
    throw new GroundkitError("INVALID_CONFIG", `GROUNDKIT_ANN must be 'auto' or 'exact', got '${mode}'.`);
  }
  if (min && !/^\d{1,9}$/.test(min)) {
    throw new GroundkitError("INVALID_CONFIG", `GROUNDKIT_ANN_MIN_VECTORS must be a whole number, got '${min}'.`);
  }
  return { ...(mode ? { mode: mode as "auto" | "exact" } : {}), ...(min ? { minVectors: Number(min) } : {}) };
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function safeIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Names of the collections in an index directory. */
export function listCollections(indexDir: string = DEFAULTS.indexDir): string[] {
  let names: string[];
  try {
    names = readdirSync(resolve(indexDir));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(FILE_SUFFIX))
    .map((n) => n.slice(0, -FILE_SUFFIX.length))
    .sort();
}

/**
 * Delete a collection: its database, WAL files and snapshots. Refused with
 * COLLECTION_BUSY while another writer holds it (this call does not wait).
 * The empty writer-lock file stays (see docs/decisions/0006-writer-lock.md).
 */
export function deleteCollection(loc: CollectionLocation): void {
  const { indexDir, name, file } = locate(loc);
  if (!safeIsFile(file)) throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${name}' does not exist.`);
  const lock = WriterLock.acquireNow(WriterLock.pathFor(file), { collection: name, operation: "delete" });
  try {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    removeAnnFiles(file);
    rmSync(join(indexDir, `${name}.snapshots`), { recursive: true, force: true });
  } finally {
    lock.release();
  }
}

/** An open collection. Close it when done. */
export class Collection {
  private readonly snapshots: SnapshotStore;
  private rerankerPromise: Promise<Reranker> | undefined;
  /** The collection file this handle has open, to notice it was deleted or replaced while a writer waited. */
  private readonly openedInode: number | undefined;

  constructor(
    readonly name: string,
    readonly indexDir: string,
    readonly path: string,
    private readonly store: SqliteStore,
    private readonly options: OpenCollectionOptions = {},
  ) {
    this.snapshots = new SnapshotStore(join(indexDir, `${name}.snapshots`));
    this.openedInode = inodeOf(path);
  }

  /**
   * Run a writing call holding the collection's writer lock, so writers (this
   * process's and other processes') take turns and never prune or overwrite
   * each other's work. Released on every exit path; a killed holder's lock
   * goes with its process.
   */
  private async writing<T>(operation: string, lock: LockWaitOptions, fn: () => Promise<T>): Promise<T> {
    const opts = {
      collection: this.name,
      operation,
      timeoutMs: lock.lockTimeoutMs ?? DEFAULTS.lockTimeoutMs,
      onWait: lock.onLockWait,
    };
    return withWriterLock(WriterLock.pathFor(this.path), opts, async () => {
      // While this call waited, the collection may have been deleted: writing to the unlinked file would lose it all.
      if (this.openedInode === undefined || inodeOf(this.path) !== this.openedInode) {
        throw new GroundkitError(
          "COLLECTION_NOT_FOUND",
          `Collection '${this.name}' was deleted or replaced while this ${operation} waited for it; open it again.`,
        );
      }
      return fn();
    });
  }

  /**
   * Ingest files, folders and URLs; returns the run's summary. With `dense`,
   * chunks are embedded and their vectors committed with them, and chunks that
   * still lack a vector (an earlier BM25-only ingest) are backfilled.
   */
  async ingest(
    inputs: string[],
    opts: Partial<IngestOptions> & DenseIngestOptions & LockWaitOptions = {},
  ): Promise<IngestSummary> {
    return this.writing("ingest", opts, async () => {
      // Decided under the lock: the recorded chunking is what the previous writer left.
      const chunking = decideChunking(
        parseRecordedChunking(this.store.getMeta("chunker")),
        { chunkSize: opts.chunkSize, chunkOverlap: opts.chunkOverlap },
        this.options.chunking,
      );
      const { chunk_size: chunkSize, chunk_overlap: chunkOverlap } = chunking;
      const provider = opts.dense ? await this.bindEmbedding(true) : undefined;
      const ingestor = new Ingestor(
        this.store,
        {
          ...opts,
          chunkSize,
          chunkOverlap,
          maxFileSize: opts.maxFileSize ?? DEFAULTS.maxFileSize,
          embed: provider ? (texts) => provider.embedDocuments(texts) : undefined,
        },
        new Dispatcher(undefined, this.options.extraction),
        this.snapshots,
      );
      const summary = await ingestor.run(inputs);
      // Converge after any crash: temp files and snapshots without a document go.
      await this.snapshots.sweep((id) => this.store.getDocument(id)?.source_class === "snapshot");
      this.store.setMeta("chunker", recordChunking(chunking));
      summary.chunking = chunking;
      if (provider) summary.vectors_written += await this.backfillVectors(provider, opts.onEmbedProgress);
      // Under the writer lock: fold this run's vector changes into the saved ANN index (a no-op when current).
      this.store.syncVectorIndex(opts.onIndexProgress);
      return summary;
    });
  }

  /** Embed every chunk that has no vector yet, in batches (each batch its own transaction). */
  private async backfillVectors(provider: EmbeddingProvider, onProgress?: (done: number, total: number) => void): Promise<number> {
    let written = 0;
    const total = this.store.stats().chunks - this.store.countVectors();
    for (;;) {
      const batch = this.store.chunksMissingVectors(BACKFILL_BATCH);
      if (batch.length === 0) return written;
      const vectors = await provider.embedDocuments(batch.map((b) => b.text));
      this.store.writeVectors(batch.map((b, i) => ({ rowid: b.rowid, vector: vectors[i]! })));
      written += batch.length;
      onProgress?.(written, total);
    }
  }

  /**
   * Re-embed every chunk with another provider and swap the vectors and the
   * recorded identity atomically: searches see the old vectors until the swap.
   */
  async reembed(
    config: EmbeddingConfig,
    onProgress?: (done: number, total: number) => void,
    lock: LockWaitOptions = {},
  ): Promise<{ vectors_written: number }> {
    return this.writing("reembed", lock, async () => {
      const { provider } = await bindProvider(this.store, this.name, config, { allowChange: true });
      const rows: Array<{ rowid: number; vector: Float32Array }> = [];
      const all = this.store.allChunkTexts();
      for (let i = 0; i < all.length; i += BACKFILL_BATCH) {
        const batch = all.slice(i, i + BACKFILL_BATCH);
        const vectors = await provider.embedDocuments(batch.map((b) => b.text));
        batch.forEach((b, j) => rows.push({ rowid: b.rowid, vector: vectors[j]! }));
        onProgress?.(rows.length, all.length);
      }
      this.store.replaceAllVectors(rows, identityMeta(provider, config));
      this.store.syncVectorIndex();
      return { vectors_written: rows.length };
    });
  }

  /** Search; each hit carries its citation (and a fresh verdict with `verify`). */
  async search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
    checkQuery(query);
    const topK = checkTopK(opts.topK);
    const rows = await this.rank(query, topK, opts);
    const hits: SearchHit[] = rows.map((row, i) => ({
      rank: i + 1,
      score: row.score,
      chunk_id: row.chunk_id,
      document_id: row.document.document_id,
      text: row.text,
      heading_path: row.heading_path,
      citation: citationOf(row),
    }));
    if (opts.verify) {
      // One read (or re-extraction) per source for the whole result list.
      const readCache = new Map<string, Promise<SourceText>>();
      for (const [i, hit] of hits.entries()) {
        hit.verification = await verifyCitation(citationOf(rows[i]!), {
          ...this.verifyContext(rows[i]!, opts.baseDir),
          readCache,
        });
      }
    }
    return hits;
  }

  /**
   * Ranked chunks without the user-facing top_k cap or verification, for
   * evaluation and internal pipelines (e.g. deep candidate pools).
   */
  async retrieve(query: string, limit: number, opts: Omit<SearchOptions, "topK" | "verify" | "baseDir"> = {}): Promise<RetrievedChunk[]> {
    checkQuery(query);
    return (await this.rank(query, limit, opts)).map((row) => ({
      chunk_id: row.chunk_id,
      source: row.document.source,
      start_offset: row.start_offset,
      end_offset: row.end_offset,
      score: row.score,
    }));
  }

  /** The ranking behind search and retrieve (retrieve/search-pipeline.ts). */
  private rank(query: string, limit: number, opts: Omit<SearchOptions, "topK">): Promise<ScoredChunk[]> {
    const sources = {
      store: this.store,
      embedder: () => this.bindEmbedding(false),
      reranker: () => this.getReranker(),
      settings: this.options.retrieval ?? {},
    };
    return rankChunks(sources, query, limit, opts);
  }

  /**
   * The embedding provider for this collection. Dense search needs stored
   * vectors (the error names the remedy); dense ingest records the identity
   * on first use.
   */
  private async bindEmbedding(forIngest: boolean): Promise<EmbeddingProvider> {
    if (!forIngest && this.store.countVectors() === 0) {
      throw new GroundkitError(
        "NO_VECTORS",
        `Collection '${this.name}' has no vectors, so dense and hybrid search are unavailable. ` +
          `Run \`grk ingest <path> --dense --collection ${this.name}\` to embed its chunks (existing chunks are backfilled).`,
      );
    }
    const { provider, config } = await bindProvider(this.store, this.name, this.options.embedding, {
      vectorCache: this.options.vectorCache,
    });
    if (forIngest && !recordedIdentity(this.store)) {
      for (const [k, v] of Object.entries(identityMeta(provider, config))) this.store.setMeta(k, v);
    }
    return provider;
  }

  private getReranker(): Promise<Reranker> {
    const config = this.options.reranker;
    if (!config) {
      return Promise.reject(
        new GroundkitError(
          "INVALID_CONFIG",
          "No reranker is configured. Add a `rerank` section to groundkit.config.json (a local cross-encoder directory or an HTTP /rerank endpoint); see docs/retrieval.md.",
        ),
      );
    }
    this.rerankerPromise ??= createReranker(config);
    return this.rerankerPromise;
  }

  /**
   * A chunk with its citation and a fresh verdict; with `contextChars`, the
   * source text around a verified span (read in the same pass as verification).
   */
  async getChunk(
    chunkId: string,
    opts: { baseDir?: string | undefined; contextChars?: number | undefined } = {},
  ): Promise<ChunkView> {
    const chunk = this.store.getChunk(chunkId);
    if (!chunk) throw new GroundkitError("CHUNK_NOT_FOUND", `No chunk ${chunkId} in collection '${this.name}'.`);
    const citation = citationOf(chunk);
    const { verification, content } = await checkCitation(citation, this.verifyContext(chunk, opts.baseDir));
    const chars = opts.contextChars ?? 0;
    const context =
      verification.verdict === "verified" && content && chars > 0
        ? {
            before: content.slice(Math.max(0, citation.start_offset - chars), citation.start_offset),
            after: content.slice(citation.end_offset, Math.min(content.length, citation.end_offset + chars)),
          }
        : null;
    return {
      chunk_id: chunk.chunk_id,
      document_id: chunk.document.document_id,
      text: chunk.text,
      heading_path: chunk.heading_path,
      citation,
      verification,
      context,
    };
  }

  /**
   * Verify a citation on its own (no chunk row needed: it carries its text hash).
   * Only a source this collection indexed under the citation's document id is
   * read; any other citation is unresolvable, saying nothing about the file.
   * `originalText`, when given and matching the hash, lets a drift say where the text moved.
   */
  async verify(raw: unknown, opts: { baseDir?: string | undefined; originalText?: string | undefined } = {}): Promise<Verification> {
    const citation = parseCitation(raw);
    const stored = this.store.getChunk(citation.chunk_id);
    const doc = this.store.getDocument(citation.document_id);
    return verifyCitation(citation, {
      ...this.readers(),
      indexed: doc,
      baseDir: opts.baseDir ? resolve(opts.baseDir) : (doc?.base_dir ?? (doc && this.recordedBaseDirFor(doc.source))),
      originalText: opts.originalText ?? (stored?.text_hash === citation.text_hash ? stored.text : undefined),
    });
  }

  /** Delete one document (its chunks, postings and snapshot). Returns false when it did not exist. */
  async deleteDocument(documentId: string, lock: LockWaitOptions = {}): Promise<boolean> {
    return this.writing("delete", lock, async () => {
      const doc = this.store.getDocument(documentId);
      if (!doc) return false;
      this.store.deleteDocument(documentId);
      if (doc.source_class === "snapshot") await this.snapshots.remove(documentId);
      return true;
    });
  }

  /** Counts, schema version, embedding identity, last ingest. */
  status(): CollectionStatus {
    const chunker = this.store.getMeta("chunker");
    return {
      collection: this.name,
      path: this.path,
      ...this.store.stats(),
      vectors: this.store.countVectors(),
      vector_index: this.store.vectorIndexStatus(),
      embedding: recordedIdentity(this.store) ?? null,
      base_dirs: this.baseDirs(),
      chunker: parseRecordedChunking(chunker),
    };
  }

  close(): void {
    this.store.close();
    void this.rerankerPromise?.then((r) => r.close?.()).catch(() => undefined);
  }

  private verifyContext(chunk: StoredChunk, baseDir: string | undefined): VerifyContext {
    return {
      ...this.readers(),
      indexed: chunk.document,
      baseDir: baseDir ? resolve(baseDir) : (chunk.document.base_dir ?? undefined),
      originalText: chunk.text,
    };
  }

  /** How each source class obtains its current text. */
  private readers() {
    return {
      collection: this.name,
      maxFileSize: DEFAULTS.maxFileSize,
      readExtracted: (c: Citation, realPath: string) => readExtractedSource(c, realPath, DEFAULTS.maxFileSize, this.options.extraction),
      readSnapshot: (c: Citation) => readSnapshotSource(c, this.snapshots),
    };
  }

  private baseDirs(): string[] {
    return JSON.parse(this.store.getMeta("base_dirs") ?? "[]") as string[];
  }

  /** The deepest base dir recorded at ingest that lexically contains `source`. */
  private recordedBaseDirFor(source: string): string | undefined {
    return this.baseDirs()
      .filter((d) => source.startsWith(d.endsWith(sep) ? d : d + sep))
      .sort((a, b) => b.length - a.length)[0];
  }
}

/** Accept a bare citation or a search hit (`{citation, text}`) and validate it. */
export function parseCitation(raw: unknown): Citation {
  const candidate = (raw as { citation?: unknown } | null)?.citation ?? raw;
  const parsed = CitationSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new GroundkitError("INVALID_CITATION", `Not a valid citation: ${formatIssues(parsed.error, { max: 3 })}.`);
  }
  return parsed.data;
}
