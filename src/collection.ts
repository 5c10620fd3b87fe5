/**
 * The library API every surface (CLI, REST, MCP) uses: open a collection,
 * ingest, search, fetch a chunk, verify a citation, report status.
 *
 * @example
 *   import { openCollection } from "groundkit";
 *   const col = await openCollection({ indexDir: ".groundkit", collection: "default", create: true });
 *   await col.ingest(["./docs"]);
 *   const hits = await col.search("how are citations checked", { verify: true });
 *   await col.close();
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { isAbsolute, join, resolve, sep } from "node:path";
import { checkCollectionName } from "./core/collection-name.js";
import { collectionNotFound } from "./collection-not-found.js";
import { DEFAULTS, type StoreConfig } from "./core/config.js";
import { CitationSchema, type Citation, type SearchHit, type Verification } from "./core/contracts.js";
import { GroundkitError } from "./core/errors.js";
import { citationOf } from "./cite/citation.js";
import { checkCitation, type VerifyContext } from "./cite/verify.js";
import type { CodePointText } from "./core/text.js";
import { readExtractedSource } from "./cite/read-extracted-source.js";
import type { SourceText } from "./cite/source-text.js";
import { readSnapshotSource } from "./cite/read-snapshot-source.js";
import type { ChunkSettings } from "./ingest/build-chunks.js";
import { decideChunking, parseRecordedChunking, recordChunking, type RecordedChunking } from "./ingest/chunking-settings.js";
// Ingest, answer and health-check modules load on first use: `grk search` never pays for them (issue 29).
import type { IngestOptions, IngestSummary } from "./ingest/ingest.js";
import { forgetRoot, forgetRootsUnder, recordRoots, recordedRoots, type IngestRoot } from "./ingest/roots.js";
import { DOCUMENT_CHARS, readDocumentLines, type DocumentLines } from "./cite/read-document.js";
import { looksLikeIdPrefix, resolveIdPrefix } from "./core/id-prefix.js";
import { hasUrlScheme } from "./net/url-shape.js";
import { SnapshotStore } from "./store/snapshots.js";
import { backendOf, storeKindOf, type OpenedStore, type StoreProbe, type VectorIndexTuning } from "./store/backends.js";
import { bindProvider, identityMeta, recordedIdentity } from "./embed/binding.js";
import type { VectorCache } from "./embed/vector-cache.js";
import type { EmbeddingIdentity, EmbeddingProvider } from "./embed/provider.js";
import type { EmbeddingConfig } from "./embed/registry.js";
import { resolveExtractionLimits, type ExtractionLimits } from "./extract/limits.js";
import { createReranker, type RerankerConfig } from "./retrieve/rerank/registry.js";
import type { Reranker } from "./retrieve/rerank/reranker.js";
import { checkQuery, checkTopK, DEFAULT_TOP_K } from "./retrieve/query.js";
import { ATTR, recordVerdicts, withSpan } from "./obs/tracing.js";
import { INGEST_SPANS, recordIngestSummary } from "./ingest/ingest-tracing.js";
import { DEFAULT_DENSE_MIN_SCORE } from "./retrieve/dense.js";
import { applyMinScore, checkMinScore, explainNoResults, type NoResults } from "./retrieve/no-results.js";
import { bestPassage, queryMarkTerms } from "./retrieve/passage.js";
import { rankChunks, type RetrievalSettings, type SearchMode } from "./retrieve/search-pipeline.js";
import type { LockHolder } from "./store/writer-lock-holder.js";
import type { Store } from "./store/store.js";
import { SqliteStore } from "./store/sqlite/sqlite-store.js";
import type { NewChunk, ScoredChunk, StoreStats, StoredChunk, StoredDocument, VectorIndexStatus } from "./store/store.js";
import { codeSymbolLabel } from "./core/code-languages.js";
import { formatIssues } from "./core/validation.js";
import type { DoctorCheck, HealthParts, RepairAction, SampleOutcome } from "./collection-health.js";
import type { AnswerOptions, AnswerReport, AnswerSources } from "./answer/answer.js";
import { passageContext, type ChunkPiece } from "./answer/passage-context.js";
import type { ChatConfig } from "./answer/chat-config.js";
import type { GroundingChecks, GroundingReport } from "./answer/grounding.js";
import type { QuoteCheck, QuoteSources } from "./answer/verify-quote.js";
import { textAsCited } from "./cite/as-cited.js";
import {
  documentHistory,
  historyChunkView,
  readVersion,
  recordedRetention,
  recordRetention,
  type DocumentHistory,
  type DocumentVersionText,
  type HistoryRetention,
} from "./collection-history.js";
import type { HistoryHealth } from "./store/history.js";

export interface CollectionLocation {
  /** Directory holding collection files (default `.groundkit`); with a PostgreSQL store, its snapshots. */
  indexDir?: string | undefined;
  /** Collection name (default `default`). */
  collection?: string | undefined;
  /** Where the collection's index lives (default: a SQLite file in the index dir). */
  store?: StoreConfig | undefined;
}

export interface OpenCollectionOptions extends CollectionLocation {
  /** Create the collection if it does not exist (ingest does; readers do not). */
  create?: boolean | undefined;
  /** Open the file read-only: nothing is written, not even a schema migration (`grk doctor` without `--repair`). */
  readonly?: boolean | undefined;
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
  vectorIndex?: VectorIndexTuning | undefined;
  /** The chat model `answer` writes with (a config file's `chat` section). */
  chat?: ChatConfig | undefined;
}

/** Options of {@link Collection.answer}. */
export interface CollectionAnswerOptions extends AnswerOptions {
  /** The chat model to use instead of the collection's configured one. */
  chat?: ChatConfig | undefined;
  /** Override the containment root used for verification. */
  baseDir?: string | undefined;
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
  /** Drop hits scoring under this floor (the mode's own score: BM25, cosine, RRF or the reranker's). */
  minScore?: number | undefined;
  /** Length of each hit's matched passage in code points [240]. */
  passageChars?: number | undefined;
  /**
   * Also return this many code points of source text each side of each cited span
   * (implies `verify`: context comes only from a verified read, one read per source).
   */
  contextChars?: number | undefined;
}

/** A search's hits and, when there are none, why. */
export interface SearchOutcome {
  results: SearchHit[];
  /** Present only when `results` is empty. */
  no_results?: NoResults | undefined;
}

export interface ChunkView {
  chunk_id: string;
  document_id: string;
  text: string;
  heading_path: string[];
  /** As on a search hit: the code file's language and what the chunk holds. */
  lang?: string | undefined;
  symbol?: string | undefined;
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
  /**
   * Called as the documents of a dense ingest are embedded, after every batch the provider sends:
   * chunks embedded so far in this run (one large file reports as it goes, not once at its end).
   */
  onChunksEmbedded?: ((embedded: number) => void) | undefined;
  /** Called while the ANN index is (re)built at the end of an ingest: vectors added so far, of all. */
  onIndexProgress?: ((done: number, total: number) => void) | undefined;
  /** Change the history retention this collection records (collection-history.ts parseHistorySpec). */
  history?: Partial<HistoryRetention> | undefined;
}

/** Documents copied per transaction by {@link Collection.copyInto}. */
const COPY_PAGE = 200;

/** Meta keys each store keeps for itself, never copied between collections. */
const STORE_OWN_META = new Set(["generation", "application_id", "schema_version", "writer_holder"]);

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

/** A document as `grk ls` and `list_documents` show it. */
export interface DocumentSummary {
  document_id: string;
  source: string;
  source_class: StoredDocument["source_class"];
  extractor: string | null;
  chunks: number;
  ingested_at: string;
  title: string | null;
}

/** A page of {@link Collection.listDocuments}. */
export interface DocumentPage {
  documents: DocumentSummary[];
  /** Pass as `after` to get the next page; null on the last page. */
  next_after: string | null;
}

/** Documents listed per page by default, and the most one page may hold. */
export const DOCUMENT_PAGE = { default: 100, max: 1000 } as const;

/** A line range of a document, as `grk get` and `get_document` return it. */
export interface DocumentView extends DocumentLines {
  document_id: string;
  source: string;
  source_class: StoredDocument["source_class"];
}

/** What {@link Collection.removeDocuments} did. */
export interface RemoveSummary {
  removed: Array<{ document_id: string; source: string }>;
  /** References that named no document (nor a folder holding any). */
  not_found: string[];
  /** Recorded roots forgotten because they were removed (a later update does not bring them back). */
  roots_forgotten: string[];
}

export type { IngestRoot };

export interface CollectionStatus extends StoreStats {
  collection: string;
  path: string;
  vectors: number;
  /** Which vector index dense search uses, its size and whether it is current. */
  vector_index: VectorIndexStatus;
  embedding: EmbeddingIdentity | null;
  base_dirs: string[];
  /** What `grk update` re-ingests. */
  roots: IngestRoot[];
  /** The chunking every ingest of this collection uses unless asked for another. */
  chunker: RecordedChunking | null;
}

function locate(loc: CollectionLocation): { indexDir: string; name: string } {
  const indexDir = resolve(loc.indexDir ?? DEFAULTS.indexDir);
  const name = checkCollectionName(loc.collection ?? DEFAULTS.collection);
  return { indexDir, name };
}

/** Open a collection. Throws COLLECTION_NOT_FOUND unless it exists or `create` is set. */
export async function openCollection(opts: OpenCollectionOptions = {}): Promise<Collection> {
  const { indexDir, name } = locate(opts);
  // Refuse bad limits up front, not once per file.
  resolveExtractionLimits(opts.extraction);
  const backend = await backendOf(opts.store);
  let opened;
  try {
    opened = await backend.open(
      { indexDir, name, store: opts.store },
      { create: opts.create ?? false, readonly: opts.readonly, vectorIndex: opts.vectorIndex },
    );
  } catch (err) {
    if (!(err instanceof GroundkitError) || err.code !== "COLLECTION_NOT_FOUND") throw err;
    throw await collectionNotFound(name, err.message, () => backend.list({ indexDir, store: opts.store }));
  }
  const col = new Collection(name, indexDir, opened, opts);
  col.createdNow = opened.createdNow;
  return col;
}

/** Names of the collections of a location's store: the files of its index dir, or the schemas of its PostgreSQL server. */
export async function listCollections(loc: { indexDir?: string | undefined; store: StoreConfig | undefined }): Promise<string[]> {
  return (await backendOf(loc.store)).list({ indexDir: resolve(loc.indexDir ?? DEFAULTS.indexDir), store: loc.store });
}

export type { StoreProbe };
export { storeKindOf };

/** The file whose identity says a collection was deleted or replaced; undefined on a server-backed store. */
export async function collectionFile(loc: CollectionLocation): Promise<string | undefined> {
  const { indexDir, name } = locate(loc);
  return (await backendOf(loc.store)).fileOf({ indexDir, name, store: loc.store });
}

/**
 * Refuse `grk doctor` on a store its checks cannot read (they read SQLite files).
 *
 * @throws GroundkitError STORE_UNSUPPORTED
 */
export async function checkDoctorSupported(store: StoreConfig | undefined): Promise<void> {
  const backend = await backendOf(store);
  if (!backend.doctorChecks) {
    throw new GroundkitError(
      "STORE_UNSUPPORTED",
      `grk doctor checks SQLite collections; this configuration's store is ${backend.kind}, whose own consistency checks (and backups) are the database's.`,
    );
  }
}

/** Whether the store behind the collections answers: always for SQLite files; a bounded ping for PostgreSQL. */
export function storeProbe(store: StoreConfig | undefined): StoreProbe {
  let probe: Promise<StoreProbe> | undefined;
  return {
    check: async () => {
      probe ??= backendOf(store).then((b) => b.probe());
      return (await probe).check();
    },
    close: async () => {
      if (probe) await (await probe).close();
      probe = undefined;
    },
  };
}

/**
 * Delete a collection: its index and its snapshots. Refused with
 * COLLECTION_BUSY while another writer holds it (this call does not wait).
 */
export async function deleteCollection(loc: CollectionLocation): Promise<void> {
  const { indexDir, name } = locate(loc);
  const backend = await backendOf(loc.store);
  try {
    await backend.drop({ indexDir, name, store: loc.store });
  } catch (err) {
    if (!(err instanceof GroundkitError) || err.code !== "COLLECTION_NOT_FOUND") throw err;
    throw await collectionNotFound(name, err.message, () => backend.list({ indexDir, store: loc.store }));
  }
  rmSync(join(indexDir, `${name}.snapshots`), { recursive: true, force: true });
}

/**
 * Remove a collection that holds no document (an ingest that created it
 * indexed nothing: a refused URL, a folder of unsupported files), so a failed
 * first ingest leaves no empty collection behind. Its recorded roots do not
 * keep it: a root that gave no document is no reason to exist. Best effort:
 * false when it holds anything, is busy with another writer (which may be
 * filling it) or cannot be opened. Its lock file stays (decision 0006).
 */
export async function removeIfUnused(loc: CollectionLocation): Promise<boolean> {
  try {
    const col = await openCollection(loc);
    let unused: boolean;
    try {
      const s = await col.status();
      unused = s.documents === 0;
    } finally {
      await col.close();
    }
    if (unused) await deleteCollection(loc);
    return unused;
  } catch {
    return false;
  }
}

/** An open collection. Close it when done. */
export class Collection {
  private readonly snapshots: SnapshotStore;
  private rerankerPromise: Promise<Reranker> | undefined;
  /** Whether opening this handle created the collection (a failed first ingest then removes it again). */
  createdNow = false;
  private readonly store: Store;
  /** Where the index is (a file, or a server and schema), for `status`. */
  readonly path: string;

  constructor(
    readonly name: string,
    readonly indexDir: string,
    private readonly opened: OpenedStore,
    private readonly options: OpenCollectionOptions = {},
  ) {
    this.snapshots = new SnapshotStore(join(indexDir, `${name}.snapshots`));
    this.store = opened.store;
    this.path = opened.location;
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
    return this.opened.withWriterLock(opts, async () => {
      // Under the lock: the retention the last writer recorded says whether replaced and removed documents are kept.
      await this.store.setHistoryRecording((await recordedRetention(this.store)).enabled);
      return fn();
    });
  }

  /**
   * Copy this collection into `target`, an empty collection (on the same or
   * the other store), keeping every document and chunk id, offset and hash,
   * so a citation verified here verifies there; vectors, the recorded
   * chunking and embedding identity, and URL snapshots come along. Holds the
   * target's writer lock; writes a page of documents per transaction.
   */
  async copyInto(
    target: Collection,
    opts: LockWaitOptions & { onProgress?: ((done: number, total: number) => void) | undefined } = {},
  ): Promise<{ documents: number; chunks: number; vectors: number }> {
    return target.writing("copy", opts, async () => {
      if ((await target.store.stats()).documents > 0) {
        throw new GroundkitError("INVALID_ARGUMENT", `Collection '${target.name}' (${target.path}) is not empty; copy into a new collection.`);
      }
      const total = (await this.store.stats()).documents;
      const done = { documents: 0, chunks: 0, vectors: 0 };
      for (let after = 0; ; ) {
        const page = await this.store.documentsAfter(after, COPY_PAGE);
        if (page.length === 0) break;
        const writes: Array<{ doc: StoredDocument; chunks: NewChunk[]; vectors: Float32Array[] | undefined }> = [];
        for (const ref of page) {
          const doc = await this.store.getDocument(ref.document_id);
          if (!doc) continue; // deleted since the page was read
          const chunks = await this.store.chunksOf(ref.document_id);
          const vectors = await this.store.vectorsOf(chunks.map((c) => c.rowid));
          // A document's vectors go with it only when every chunk has one; the rest are backfilled by `ingest --dense`.
          const all = chunks.length > 0 && chunks.every((c) => vectors.has(c.rowid));
          writes.push({ doc, chunks: chunks.map(({ rowid: _rowid, ...c }) => c), vectors: all ? chunks.map((c) => vectors.get(c.rowid)!) : undefined });
        }
        await target.store.transaction(async (tx) => {
          for (const w of writes) await tx.replaceDocument(w.doc, w.chunks, w.vectors);
        });
        for (const w of writes) {
          done.documents++;
          done.chunks += w.chunks.length;
          done.vectors += w.vectors?.length ?? 0;
        }
        after = page[page.length - 1]!.rowid;
        opts.onProgress?.(done.documents, total);
      }
      // What the collection recorded (chunking, embedding identity, base dirs, last ingest), not the store's own bookkeeping.
      for (const [key, value] of Object.entries(await this.store.allMeta())) {
        if (!STORE_OWN_META.has(key)) await target.store.setMeta(key, value);
      }
      if (resolve(this.snapshots.dir) !== resolve(target.snapshots.dir) && existsSync(this.snapshots.dir)) {
        cpSync(this.snapshots.dir, target.snapshots.dir, { recursive: true });
      }
      // As after an ingest: the target's vector index (pgvector HNSW, or SQLite's opt-in ANN) catches up under the lock.
      await target.store.syncVectorIndex();
      return done;
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
    const attributes = { [ATTR.collection]: this.name, "groundkit.ingest.dense": opts.dense ?? false, "groundkit.ingest.inputs": inputs.length };
    return withSpan(INGEST_SPANS.run, attributes, (span) =>
      this.writing("ingest", opts, async () => {
        const summary = await this.ingestLocked(inputs, opts);
        recordIngestSummary(span, summary);
        return summary;
      }),
    );
  }

  /** Ingest under the writer lock (the caller holds it); records the inputs reached as roots. */
  private async ingestLocked(
    inputs: string[],
    opts: Partial<IngestOptions> & DenseIngestOptions,
  ): Promise<IngestSummary> {
    // Decided under the lock: the recorded chunking is what the previous writer left.
    const chunking = decideChunking(
      parseRecordedChunking(await this.store.getMeta("chunker")),
      { chunkSize: opts.chunkSize, chunkOverlap: opts.chunkOverlap },
      this.options.chunking,
    );
    const { chunk_size: chunkSize, chunk_overlap: chunkOverlap } = chunking;
    const recorded = await recordedRetention(this.store);
    const retention = { ...recorded, ...opts.history };
    await recordRetention(this.store, recorded, retention);
    await this.store.setHistoryRecording(retention.enabled);
    const provider = opts.dense ? await this.bindEmbedding(true) : undefined;
    let embedded = 0;
    const embed = provider
      ? async (texts: string[]) => {
          const vectors = await provider.embedDocuments(texts, (done) => opts.onChunksEmbedded?.(embedded + done));
          embedded += texts.length;
          opts.onChunksEmbedded?.(embedded);
          return vectors;
        }
      : undefined;
    const [{ Ingestor }, { Dispatcher }] = await Promise.all([import("./ingest/ingest.js"), import("./ingest/dispatch.js")]);
    const ingestor = new Ingestor(
      this.store,
      {
        ...opts,
        chunkSize,
        chunkOverlap,
        maxFileSize: opts.maxFileSize ?? DEFAULTS.maxFileSize,
        embed,
      },
      new Dispatcher(undefined, this.options.extraction),
      this.snapshots,
    );
    const summary = await ingestor.run(inputs);
    // Converge after any crash: temp files and snapshots without a document go.
    await this.snapshots.sweep(async (id) => (await this.store.getDocument(id))?.source_class === "snapshot");
    await this.store.setMeta("chunker", recordChunking(chunking));
    const at = new Date().toISOString();
    await recordRoots(
      this.store,
      ingestor.reached.map((r) => ({
        ...r,
        base_dir: r.kind === "path" && opts.baseDir ? resolve(opts.baseDir) : null,
        include: [...(opts.include ?? [])],
        exclude: [...(opts.exclude ?? [])],
        ingested_at: at,
      })),
    );
    summary.chunking = chunking;
    if (provider) summary.vectors_written += await this.backfillVectors(provider, opts.onEmbedProgress);
    // Retention is enforced at ingest, so history stays within its bounds without a job of its own.
    if (retention.enabled) await this.store.pruneHistory(retention, new Date());
    // Under the writer lock: fold this run's vector changes into the saved ANN index (a no-op when current).
    await this.store.syncVectorIndex(opts.onIndexProgress);
    return summary;
  }

  /** The roots this collection was ingested from (what {@link Collection.update} re-ingests). */
  roots(): Promise<IngestRoot[]> {
    return recordedRoots(this.store);
  }

  /**
   * Ingest every recorded root again, each with the include/exclude and base
   * dir it was recorded with, under one hold of the writer lock. A collection
   * with vectors stays dense (new chunks are embedded).
   */
  async update(
    opts: Pick<IngestOptions, "allowPrivateNetwork" | "fetchTimeoutMs" | "onProgress"> &
      Partial<Pick<IngestOptions, "maxFileSize">> &
      DenseIngestOptions &
      LockWaitOptions = {},
  ): Promise<IngestSummary & { roots: number }> {
    return this.writing("update", opts, async () => {
      const roots = await recordedRoots(this.store);
      const dense = opts.dense ?? (await this.store.countVectors()) > 0;
      const summaries: IngestSummary[] = [];
      for (const root of roots) {
        summaries.push(
          await this.ingestLocked([root.source], {
            ...opts,
            dense,
            baseDir: root.base_dir ?? undefined,
            include: root.include,
            exclude: root.exclude,
          }),
        );
      }
      const { mergeSummaries } = await import("./ingest/ingest.js");
      return { ...mergeSummaries(summaries), roots: roots.length };
    });
  }

  /** Embed every chunk that has no vector yet, in batches (each batch its own transaction). */
  private async backfillVectors(provider: EmbeddingProvider, onProgress?: (done: number, total: number) => void): Promise<number> {
    let written = 0;
    const total = (await this.store.stats()).chunks - (await this.store.countVectors());
    for (;;) {
      const batch = await this.store.chunksMissingVectors(BACKFILL_BATCH);
      if (batch.length === 0) return written;
      const vectors = await withSpan(INGEST_SPANS.embed, { "groundkit.ingest.backfill": batch.length }, () =>
        provider.embedDocuments(batch.map((b) => b.text)),
      );
      await this.store.writeVectors(batch.map((b, i) => ({ rowid: b.rowid, vector: vectors[i]! })));
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
      const all = await this.store.allChunkTexts();
      for (let i = 0; i < all.length; i += BACKFILL_BATCH) {
        const batch = all.slice(i, i + BACKFILL_BATCH);
        const vectors = await provider.embedDocuments(batch.map((b) => b.text));
        batch.forEach((b, j) => rows.push({ rowid: b.rowid, vector: vectors[j]! }));
        onProgress?.(rows.length, all.length);
      }
      await this.store.replaceAllVectors(rows, identityMeta(provider, config));
      await this.store.syncVectorIndex();
      return { vectors_written: rows.length };
    });
  }

  /** Search; each hit carries its citation and matched passage (and a fresh verdict with `verify`). */
  async search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
    return (await this.searchOutcome(query, opts)).results;
  }

  /** As {@link search}, also saying why when nothing matched (see retrieve/no-results.ts). */
  async searchOutcome(query: string, opts: SearchOptions = {}): Promise<SearchOutcome> {
    const attributes = {
      [ATTR.collection]: this.name,
      [ATTR.mode]: opts.mode ?? "bm25",
      [ATTR.topK]: opts.topK ?? DEFAULT_TOP_K,
      [ATTR.rerank]: opts.rerank ?? false,
      [ATTR.verify]: opts.verify ?? false,
      [ATTR.filters]: opts.filters?.length ?? 0,
    };
    return withSpan("groundkit.search", attributes, async (span) => {
      const outcome = await this.searchOutcomeUntraced(query, opts);
      span.setAttribute(ATTR.hits, outcome.results.length);
      return outcome;
    });
  }

  private async searchOutcomeUntraced(query: string, opts: SearchOptions): Promise<SearchOutcome> {
    checkQuery(query);
    const topK = checkTopK(opts.topK);
    const minScore = checkMinScore(opts.minScore);
    const contextChars = checkContextChars(opts.contextChars);
    const { kept: rows, bestDropped } = applyMinScore(await this.rank(query, topK, opts), minScore);
    const marks = queryMarkTerms(query);
    const hits: SearchHit[] = rows.map((row, i) => ({
      rank: i + 1,
      score: row.score,
      chunk_id: row.chunk_id,
      document_id: row.document.document_id,
      text: row.text,
      heading_path: row.heading_path,
      ...codeLabels(row),
      citation: citationOf(row),
      passage: bestPassage(row.text, marks, row.start_offset, opts.passageChars),
    }));
    if (opts.verify || contextChars > 0) {
      await withSpan("groundkit.search.verify", { [ATTR.hits]: hits.length }, async (span) => {
        // One read (or re-extraction) per source for the whole result list.
        const readCache = new Map<string, Promise<SourceText>>();
        for (const [i, hit] of hits.entries()) {
          const { verification, content } = await checkCitation(hit.citation, {
            ...this.verifyContext(rows[i]!, opts.baseDir),
            readCache,
          });
          hit.verification = verification;
          if (contextChars > 0) hit.context = contextAround(verification, content, hit.citation, contextChars);
        }
        recordVerdicts(span, hits.map((h) => h.verification?.verdict));
      });
    }
    if (hits.length > 0) return { results: hits };
    const mode = opts.mode ?? "bm25";
    const no_results = await explainNoResults(this.store, {
      query,
      mode,
      filtered: (opts.filters?.length ?? 0) > 0,
      minScore,
      bestDropped,
      denseMinScore: this.options.retrieval?.denseMinScore ?? DEFAULT_DENSE_MIN_SCORE,
    });
    return { results: hits, no_results };
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
    if (!forIngest && (await this.store.countVectors()) === 0) {
      throw new GroundkitError(
        "NO_VECTORS",
        `Collection '${this.name}' has no vectors, so dense and hybrid search are unavailable.`,
      );
    }
    const { provider, config } = await bindProvider(this.store, this.name, this.options.embedding, {
      vectorCache: this.options.vectorCache,
    });
    if (forIngest && !(await recordedIdentity(this.store))) {
      for (const [k, v] of Object.entries(identityMeta(provider, config))) await this.store.setMeta(k, v);
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
    const chunk = await this.store.getChunk(await this.resolveChunkId(chunkId));
    if (!chunk) {
      // A chunk an earlier version of its document had: shown as it was, verified against the document now.
      const kept = await historyChunkView(this.store, chunkId);
      if (!kept) throw new GroundkitError("CHUNK_NOT_FOUND", `No chunk ${chunkId} in collection '${this.name}'.`);
      return { ...kept, verification: await this.verify(kept.citation, { baseDir: opts.baseDir }), context: null };
    }
    const citation = citationOf(chunk);
    const { verification, content } = await checkCitation(citation, this.verifyContext(chunk, opts.baseDir));
    await this.addTextAsCited(citation, verification, content);
    const context = contextAround(verification, content, citation, opts.contextChars ?? 0);
    return {
      chunk_id: chunk.chunk_id,
      document_id: chunk.document.document_id,
      text: chunk.text,
      heading_path: chunk.heading_path,
      ...codeLabels(chunk),
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
    const stored = await this.store.getChunk(citation.chunk_id);
    const doc = await this.store.getDocument(citation.document_id);
    const { verification, content } = await checkCitation(citation, {
      ...this.readers(),
      indexed: doc,
      baseDir: opts.baseDir ? resolve(opts.baseDir) : (doc?.base_dir ?? (doc && (await this.recordedBaseDirFor(doc.source)))),
      originalText: opts.originalText ?? (stored?.text_hash === citation.text_hash ? stored.text : undefined),
    });
    return this.addTextAsCited(citation, verification, content);
  }

  /**
   * A verdict other than `verified` carries the cited text as this collection last held it, when it still does,
   * and what the source says now where it was cited (or where it moved), to set them side by side.
   */
  private async addTextAsCited(citation: Citation, verification: Verification, content: CodePointText | undefined): Promise<Verification> {
    if (verification.verdict === "verified") return verification;
    const asCited = await textAsCited(this.store, citation);
    if (!asCited) return verification;
    verification.as_cited = asCited;
    const at = verification.relocated ?? { start_offset: citation.start_offset, end_offset: citation.end_offset };
    if (content && at.start_offset < content.length) verification.current_text = content.slice(at.start_offset, Math.min(at.end_offset, content.length));
    return verification;
  }

  /** A document's versions (0: current, then the previous ones kept, newest first), by path, URL or id. */
  async history(ref: string): Promise<DocumentHistory> {
    return documentHistory(this.store, ref, (r) => this.currentDocument(r), this.name);
  }

  /** The text of one version of a document, by number (`grk history`) or ingest time. */
  async readVersion(ref: string, version: string): Promise<DocumentVersionText> {
    return readVersion(this.store, ref, version, (r) => this.currentDocument(r), this.name);
  }

  /** Totals and integrity of the kept history (`grk doctor`, `grk status`). */
  async historyHealth(): Promise<HistoryHealth> {
    return this.store.historyHealth();
  }

  /** The document a reference names now, undefined when none (a removed one may still have history). */
  private async currentDocument(ref: string): Promise<StoredDocument | undefined> {
    try {
      return await this.findDocument(ref);
    } catch (err) {
      if (err instanceof GroundkitError && err.code === "DOCUMENT_NOT_FOUND") return undefined;
      throw err;
    }
  }

  /**
   * Answer a question from this collection's passages with the configured chat
   * model, and ground the answer: every sentence's citations, every quote
   * found (or not) in a cited passage with a citation of its own, every cited
   * passage re-verified, and a verdict. Nothing retrieved: no model call.
   *
   * @throws GroundkitError CHAT_NOT_CONFIGURED without a chat model; GENERATION_FAILED when it fails
   */
  async answer(question: string, opts: CollectionAnswerOptions = {}): Promise<AnswerReport> {
    checkQuery(question);
    const config = opts.chat ?? this.options.chat;
    if (!config) {
      throw new GroundkitError("CHAT_NOT_CONFIGURED", "No chat model is configured, so there is nothing to write an answer with.");
    }
    const [{ createChatProvider }, { answerQuestion }] = await Promise.all([import("./answer/chat-registry.js"), import("./answer/answer.js")]);
    const chat = await createChatProvider(config);
    const baseDir = opts.baseDir;
    const chunksByDocument = new Map<string, Promise<ChunkPiece[]>>();
    const sources: AnswerSources = {
      collection: this.name,
      search: (query, o) => this.search(query, { ...o, baseDir }),
      passageContext: async (hit) => {
        // One read of a document's chunks per answer, however many of its passages were retrieved.
        let chunks = chunksByDocument.get(hit.document_id);
        if (!chunks) chunksByDocument.set(hit.document_id, (chunks = this.store.chunksOf(hit.document_id)));
        return passageContext(await chunks, hit.text, hit.citation.start_offset, hit.citation.end_offset);
      },
      ...this.groundingChecks(baseDir),
    };
    return answerQuestion(question, chat, config, sources, opts);
  }

  /**
   * Ground an answer written elsewhere against the passages it was written
   * from (`hits[i]` is passage `[i + 1]`): the same report `answer` gives.
   *
   * @example
   *   const hits = await col.search("how long are backups kept");
   *   const report = await col.ground('Backups are kept "for 30 days" [1].', hits);
   */
  async ground(answer: string, hits: readonly SearchHit[], opts: { baseDir?: string | undefined } = {}): Promise<GroundingReport> {
    const { groundAnswer } = await import("./answer/grounding.js");
    return groundAnswer(answer, hits, this.groundingChecks(opts.baseDir));
  }

  /** Passage and quote checks that share one read per source. */
  private groundingChecks(baseDir: string | undefined): GroundingChecks {
    const readCache = new Map<string, Promise<SourceText>>();
    return {
      checkPassage: (hit) => this.checkWithCache(hit.citation, hit.text, baseDir, readCache),
      verifyCitation: async (citation) => (await this.checkWithCache(citation, undefined, baseDir, readCache)).verification,
    };
  }

  /**
   * Whether `quote` occurs verbatim (whitespace aside) in a chunk or in a
   * document's current text, with the citation and verdict of every occurrence.
   *
   * @throws GroundkitError CHUNK_NOT_FOUND / DOCUMENT_NOT_FOUND, INVALID_ARGUMENT for an empty quote or neither id
   */
  async verifyQuote(
    quote: string,
    where: { chunkId?: string | undefined; documentId?: string | undefined },
    opts: { baseDir?: string | undefined } = {},
  ): Promise<QuoteCheck> {
    const readCache = new Map<string, Promise<SourceText>>();
    const sources: QuoteSources = {
      chunk: async (id) => {
        const chunk = await this.store.getChunk(id);
        return chunk ? { text: chunk.text, citation: citationOf(chunk) } : undefined;
      },
      document: async (id) => {
        const doc = await this.store.getDocument(id);
        return doc ? { document_id: doc.document_id, source: doc.source, source_class: doc.source_class, extractor: doc.extractor } : undefined;
      },
      check: (citation, originalText) => this.checkWithCache(citation, originalText, opts.baseDir, readCache),
      verify: async (citation) => (await this.checkWithCache(citation, undefined, opts.baseDir, readCache)).verification,
    };
    if ((where.chunkId === undefined) === (where.documentId === undefined)) {
      throw new GroundkitError("INVALID_ARGUMENT", "Name exactly one of chunk_id and document_id to look for the quote in.");
    }
    const { verifyQuoteInChunk, verifyQuoteInDocument } = await import("./answer/verify-quote.js");
    return where.chunkId !== undefined
      ? verifyQuoteInChunk(quote, where.chunkId, sources, this.name)
      : verifyQuoteInDocument(quote, where.documentId!, sources, this.name);
  }

  /** Check a citation of this collection, sharing source reads through `readCache`. */
  private async checkWithCache(
    citation: Citation,
    originalText: string | undefined,
    baseDir: string | undefined,
    readCache: Map<string, Promise<SourceText>>,
  ): ReturnType<typeof checkCitation> {
    const doc = await this.store.getDocument(citation.document_id);
    return checkCitation(citation, {
      ...this.readers(),
      indexed: doc,
      baseDir: baseDir ? resolve(baseDir) : (doc?.base_dir ?? (doc && (await this.recordedBaseDirFor(doc.source)))),
      originalText,
      readCache,
    });
  }

  /** Delete one document (its chunks, postings and snapshot). Returns false when it did not exist. */
  async deleteDocument(documentId: string, lock: LockWaitOptions = {}): Promise<boolean> {
    return this.writing("delete", lock, async () => {
      const doc = await this.store.getDocument(await this.resolveDocumentId(documentId));
      if (!doc) return false;
      await this.removeDocument(doc);
      return true;
    });
  }

  private async removeDocument(doc: StoredDocument): Promise<void> {
    await this.store.deleteDocument(doc.document_id);
    if (doc.source_class === "snapshot") await this.snapshots.remove(doc.document_id);
  }

  /**
   * Remove documents by reference, under the writer lock: an absolute path or
   * URL names a document's source; a folder removes every document under it; a
   * (short) document id names one document. A removed root (or one under a
   * removed folder) is forgotten, so a later update does not bring it back.
   */
  async removeDocuments(refs: readonly string[], lock: LockWaitOptions = {}): Promise<RemoveSummary> {
    return this.writing("remove", lock, async () => {
      const out: RemoveSummary = { removed: [], not_found: [], roots_forgotten: [] };
      for (const ref of refs) {
        const docs = await this.documentsNamedBy(ref);
        const forgotten = hasUrlScheme(ref)
          ? (await forgetRoot(this.store, ref))
            ? [ref]
            : []
          : isAbsolutePath(ref)
            ? await forgetRootsUnder(this.store, ref)
            : [];
        out.roots_forgotten.push(...forgotten);
        if (docs.length === 0 && forgotten.length === 0) out.not_found.push(ref);
        for (const doc of docs) {
          await this.removeDocument(doc);
          out.removed.push({ document_id: doc.document_id, source: doc.source });
        }
      }
      return out;
    });
  }

  /** The documents a removal reference names (see removeDocuments), read a page at a time. */
  private async documentsNamedBy(ref: string): Promise<StoredDocument[]> {
    const exact = await this.store.getDocumentBySource(ref);
    if (exact) return [exact];
    if (isAbsolutePath(ref)) {
      const prefix = ref.endsWith(sep) ? ref : ref + sep;
      const docs: StoredDocument[] = [];
      for (let after: string | undefined; ; ) {
        const page = await this.store.listDocuments({ prefix, after, limit: DOCUMENT_PAGE.max });
        docs.push(...page);
        if (page.length < DOCUMENT_PAGE.max) return docs;
        after = page[page.length - 1]!.source;
      }
    }
    const id = await this.resolveDocumentId(ref);
    const byId = await this.store.getDocument(id);
    return byId ? [byId] : [];
  }

  /**
   * The document a reference names: its source (an absolute path or a URL as
   * stored) or its id, or a unique prefix of its id.
   *
   * @throws GroundkitError DOCUMENT_NOT_FOUND, AMBIGUOUS_ID
   */
  async findDocument(ref: string): Promise<StoredDocument> {
    const doc = (await this.store.getDocumentBySource(ref)) ?? (await this.store.getDocument(await this.resolveDocumentId(ref)));
    if (!doc) throw new GroundkitError("DOCUMENT_NOT_FOUND", `No document ${ref} in collection '${this.name}'.`);
    return doc;
  }

  /**
   * A line range of a document's indexed text with a citation for exactly that
   * range, bounded to `maxChars` code points (default 20,000; at most 200,000).
   */
  async getDocument(
    ref: string,
    opts: { startLine?: number | undefined; endLine?: number | undefined; maxChars?: number | undefined; baseDir?: string | undefined } = {},
  ): Promise<DocumentView> {
    const doc = await this.findDocument(ref);
    const maxChars = opts.maxChars ?? DOCUMENT_CHARS.default;
    if (!Number.isInteger(maxChars) || maxChars < 1 || maxChars > DOCUMENT_CHARS.max) {
      throw new GroundkitError("INVALID_ARGUMENT", `max_chars must be an integer from 1 to ${DOCUMENT_CHARS.max}; got ${maxChars}.`);
    }
    for (const [name, v] of [["start line", opts.startLine], ["end line", opts.endLine]] as const) {
      if (v !== undefined && (!Number.isInteger(v) || v < 1)) {
        throw new GroundkitError("INVALID_ARGUMENT", `The ${name} must be a positive integer; got ${v}.`);
      }
    }
    const lines = await readDocumentLines(
      doc,
      { startLine: opts.startLine, endLine: opts.endLine, maxChars },
      {
        ...this.readers(),
        indexed: doc,
        baseDir: opts.baseDir ? resolve(opts.baseDir) : (doc.base_dir ?? (await this.recordedBaseDirFor(doc.source))),
      },
      (offset) => this.store.chunkIdAt(doc.document_id, offset),
    );
    return { document_id: doc.document_id, source: doc.source, source_class: doc.source_class, ...lines };
  }

  /** Documents whose source starts with `prefix`, in source order, a page at a time (`after`: the previous page's `next_after`). */
  async listDocuments(opts: { prefix?: string | undefined; after?: string | undefined; limit?: number | undefined } = {}): Promise<DocumentPage> {
    const limit = opts.limit ?? DOCUMENT_PAGE.default;
    if (!Number.isInteger(limit) || limit < 1 || limit > DOCUMENT_PAGE.max) {
      throw new GroundkitError("INVALID_ARGUMENT", `The page size must be an integer from 1 to ${DOCUMENT_PAGE.max}; got ${limit}.`);
    }
    // One more than asked says whether another page follows.
    const rows = await this.store.listDocuments({ prefix: opts.prefix, after: opts.after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    return {
      documents: page.map((d) => ({
        document_id: d.document_id,
        source: d.source,
        source_class: d.source_class,
        extractor: d.extractor,
        chunks: d.chunks,
        ingested_at: d.ingested_at,
        title: typeof d.metadata.title === "string" ? d.metadata.title : null,
      })),
      next_after: rows.length > limit ? page[page.length - 1]!.source : null,
    };
  }

  /** A full chunk id for an id or a unique prefix of one (unchanged when nothing matches). */
  private async resolveChunkId(ref: string): Promise<string> {
    if (!looksLikeIdPrefix(ref) || (await this.store.getChunk(ref))) return ref;
    return (await resolveIdPrefix("chunk", ref, (p, n) => this.store.chunkIdsWithPrefix(p, n))) ?? ref;
  }

  /** A full document id for an id or a unique prefix of one (unchanged when nothing matches). */
  private async resolveDocumentId(ref: string): Promise<string> {
    if (!looksLikeIdPrefix(ref) || (await this.store.getDocument(ref))) return ref;
    return (await resolveIdPrefix("document", ref, (p, n) => this.store.documentIdsWithPrefix(p, n))) ?? ref;
  }

  /** Counts, schema version, embedding identity, last ingest. */
  async status(): Promise<CollectionStatus> {
    const chunker = await this.store.getMeta("chunker");
    return {
      collection: this.name,
      path: this.path,
      ...(await this.store.stats()),
      vectors: await this.store.countVectors(),
      vector_index: await this.store.vectorIndexStatus(),
      embedding: (await recordedIdentity(this.store)) ?? null,
      base_dirs: await this.baseDirs(),
      roots: await recordedRoots(this.store),
      chunker: parseRecordedChunking(chunker),
    };
  }

  /**
   * `grk doctor`'s checks of this collection's rows, derived structures,
   * vectors, embedding and extractor identities, snapshots, and a
   * re-verification of up to `sample` random citations per source class.
   * Reads only (open the collection `readonly` to be sure of it).
   */
  async checkHealth(opts: { sample: number }): Promise<{ checks: DoctorCheck[]; sample: Record<string, SampleOutcome> }> {
    const { runHealthChecks } = await import("./collection-health.js");
    return runHealthChecks(await this.healthParts(), opts);
  }

  /** The repairs that lose nothing (collection-health.ts), holding the writer lock; says what it did. */
  repair(lock: LockWaitOptions = {}): Promise<RepairAction[]> {
    return this.writing("repair", lock, async () => {
      const { repairCollection } = await import("./collection-health.js");
      return repairCollection(await this.healthParts(), (provider) => this.backfillVectors(provider));
    });
  }

  private async healthParts(): Promise<HealthParts> {
    if (!(this.store instanceof SqliteStore)) {
      throw new GroundkitError("STORE_UNSUPPORTED", `grk doctor checks SQLite collections; '${this.name}' is in PostgreSQL.`);
    }
    return {
      name: this.name,
      store: this.store,
      snapshots: this.snapshots,
      embedding: this.options.embedding,
      baseDirs: await this.baseDirs(),
      verifyChunk: async (chunkId) => (await this.getChunk(chunkId)).verification,
    };
  }

  async close(): Promise<void> {
    await this.store.close();
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

  private async baseDirs(): Promise<string[]> {
    return JSON.parse((await this.store.getMeta("base_dirs")) ?? "[]") as string[];
  }

  /** The deepest base dir recorded at ingest that lexically contains `source`. */
  private async recordedBaseDirFor(source: string): Promise<string | undefined> {
    return (await this.baseDirs())
      .filter((d) => source.startsWith(d.endsWith(sep) ? d : d + sep))
      .sort((a, b) => b.length - a.length)[0];
  }
}

function isAbsolutePath(ref: string): boolean {
  return !hasUrlScheme(ref) && isAbsolute(ref);
}

/** Reject a negative or fractional context length; 0 (the default) means none. */
function checkContextChars(chars: number | undefined): number {
  const n = chars ?? 0;
  if (!Number.isInteger(n) || n < 0) {
    throw new GroundkitError("INVALID_ARGUMENT", `context_chars must be a non-negative integer; got ${String(chars)}.`);
  }
  return n;
}

/** Source text each side of a verified span; null when unverified or not asked for. */
function contextAround(
  verification: Verification,
  content: CodePointText | undefined,
  citation: Citation,
  chars: number,
): { before: string; after: string } | null {
  if (verification.verdict !== "verified" || !content || chars <= 0) return null;
  return {
    before: content.slice(Math.max(0, citation.start_offset - chars), citation.start_offset),
    after: content.slice(citation.end_offset, Math.min(content.length, citation.end_offset + chars)),
  };
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

/** A hit's `lang` and `symbol` for a chunk of a code or configuration file (nothing for others). */
function codeLabels(chunk: StoredChunk): { lang?: string; symbol?: string } {
  const lang = chunk.code?.lang;
  const symbol = chunk.code ? codeSymbolLabel(chunk.code) : null;
  return { ...(lang !== undefined ? { lang } : {}), ...(symbol !== null ? { symbol } : {}) };
}
