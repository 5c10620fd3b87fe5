/** The options and results of the collection API: what a caller passes to and gets back from a `Collection`. */
import type { StoreConfig } from "../store/store-config.js";
import type { Citation, SearchHit, Verification } from "../core/contracts.js";
import type { ChunkSettings } from "../ingest/build-chunks.js";
import type { RecordedChunking } from "../ingest/chunking-settings.js";
import type { IngestRoot } from "../ingest/roots.js";
import type { DocumentLines } from "../cite/read-document.js";
import type { ReplicaStatus, VectorIndexTuning } from "../store/backends.js";
import type { VectorCache } from "../embed/vector-cache.js";
import type { EmbeddingIdentity } from "../embed/provider.js";
import type { EmbeddingConfig } from "../embed/registry.js";
import type { ExtractionLimits } from "../extract/limits.js";
import type { RerankerConfig } from "../retrieve/rerank/registry.js";
import type { NoResults } from "../retrieve/no-results.js";
import type { RetrievalSettings, SearchMode } from "../retrieve/search-pipeline.js";
import type { LockHolder } from "../store/writer-lock-holder.js";
import type { StoreStats, StoredDocument, VectorIndexStatus } from "../store/store.js";
import type { AnswerOptions } from "../answer/answer.js";
import type { ChatConfig } from "../answer/chat-config.js";
import type { HistoryRetention, HistoryTotals } from "../store/history.js";

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
  /** Change the history retention this collection records (history.ts parseHistorySpec). */
  history?: Partial<HistoryRetention> | undefined;
}

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
  /** The document history kept (counts, no integrity check: `grk doctor`) and the retention in force. */
  history: HistoryTotals & { retention: HistoryRetention };
  /** A server-backed store's read replicas and their lag (with `replicaLag`, when it has any). */
  replicas?: ReplicaStatus[];
}
