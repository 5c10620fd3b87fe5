/**
 * An open collection: the one object every surface (CLI, REST, MCP) talks to.
 * Each method is a concern of its own in this folder (ingest.ts, search.ts,
 * documents.ts, …) working on the collection's {@link CollectionCore}.
 */
import type { SearchHit, Verification } from "../core/contracts.js";
import type { EmbeddingConfig } from "../embed/registry.js";
import type { IngestOptions, IngestSummary } from "../ingest/ingest.js";
import { recordedRoots, type IngestRoot } from "../ingest/roots.js";
import type { OpenedStore } from "../store/backends.js";
import type { StoredDocument } from "../store/store.js";
import type { AnswerReport } from "../answer/answer.js";
import type { GroundingReport } from "../answer/grounding.js";
import type { QuoteCheck } from "../answer/verify-quote.js";
import * as answering from "./answer.js";
import * as chunks from "./chunks.js";
import { copyCollection } from "./copy.js";
import { collectionCore, type CollectionCore } from "./core.js";
import * as documents from "./documents.js";
import type { DoctorCheck, RepairAction, SampleOutcome } from "./health.js";
import * as ingesting from "./ingest.js";
import * as searching from "./search.js";
import * as reporting from "./status.js";
import type {
  ChunkView,
  CollectionAnswerOptions,
  CollectionStatus,
  DenseIngestOptions,
  DocumentPage,
  DocumentView,
  LockWaitOptions,
  OpenCollectionOptions,
  RemoveSummary,
  RetrievedChunk,
  SearchOptions,
  SearchOutcome,
} from "./types.js";
import { reembed } from "./vectors.js";
import { documentHistory, readVersion, type DocumentHistory, type DocumentVersionText } from "./history.js";
import type { HistoryHealth } from "../store/history.js";
import { GroundkitError } from "../core/errors.js";

/** An open collection. Close it when done. */
export class Collection {
  private readonly core: CollectionCore;
  /** Whether opening this handle created the collection (a failed first ingest then removes it again). */
  createdNow = false;
  /** Where the index is (a file, or a server and schema), for `status`. */
  readonly path: string;

  constructor(
    readonly name: string,
    readonly indexDir: string,
    opened: OpenedStore,
    options: OpenCollectionOptions = {},
  ) {
    this.core = collectionCore(name, indexDir, opened, options);
    this.path = this.core.path;
  }

  /**
   * Copy this collection into `target`, an empty collection (on the same or
   * the other store), keeping every id, offset and hash, and its document history (copy.ts).
   */
  copyInto(
    target: Collection,
    opts: LockWaitOptions & { onProgress?: ((done: number, total: number) => void) | undefined } = {},
  ): Promise<{ documents: number; chunks: number; vectors: number; history_versions: number }> {
    return copyCollection(this.core, target.core, opts);
  }

  /**
   * Ingest files, folders and URLs; returns the run's summary. With `dense`,
   * chunks are embedded and their vectors committed with them, and chunks that
   * still lack a vector (an earlier BM25-only ingest) are backfilled.
   */
  ingest(inputs: string[], opts: Partial<IngestOptions> & DenseIngestOptions & LockWaitOptions = {}): Promise<IngestSummary> {
    return ingesting.ingest(this.core, inputs, opts);
  }

  /** The roots this collection was ingested from (what {@link Collection.update} re-ingests). */
  roots(): Promise<IngestRoot[]> {
    return recordedRoots(this.core.store);
  }

  /**
   * Ingest every recorded root again, each with the include/exclude and base
   * dir it was recorded with, under one hold of the writer lock.
   */
  update(
    opts: Pick<IngestOptions, "allowPrivateNetwork" | "fetchTimeoutMs" | "onProgress"> &
      Partial<Pick<IngestOptions, "maxFileSize">> &
      DenseIngestOptions &
      LockWaitOptions = {},
  ): Promise<IngestSummary & { roots: number }> {
    return ingesting.update(this.core, opts);
  }

  /**
   * Re-embed every chunk with another provider and swap the vectors and the
   * recorded identity atomically: searches see the old vectors until the swap.
   */
  reembed(
    config: EmbeddingConfig,
    onProgress?: (done: number, total: number) => void,
    lock: LockWaitOptions = {},
  ): Promise<{ vectors_written: number }> {
    return reembed(this.core, config, onProgress, lock);
  }

  /** Search; each hit carries its citation and matched passage (and a fresh verdict with `verify`). */
  async search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
    return (await this.searchOutcome(query, opts)).results;
  }

  /** As {@link search}, also saying why when nothing matched (see retrieve/no-results.ts). */
  searchOutcome(query: string, opts: SearchOptions = {}): Promise<SearchOutcome> {
    return searching.searchOutcome(this.core, query, opts);
  }

  /**
   * Ranked chunks without the user-facing top_k cap or verification, for
   * evaluation and internal pipelines (e.g. deep candidate pools).
   */
  retrieve(query: string, limit: number, opts: Omit<SearchOptions, "topK" | "verify" | "baseDir"> = {}): Promise<RetrievedChunk[]> {
    return searching.retrieve(this.core, query, limit, opts);
  }

  /**
   * A chunk with its citation and a fresh verdict; with `contextChars`, the
   * source text around a verified span (read in the same pass as verification).
   */
  getChunk(chunkId: string, opts: { baseDir?: string | undefined; contextChars?: number | undefined } = {}): Promise<ChunkView> {
    return chunks.getChunk(this.core, chunkId, opts);
  }

  /**
   * Verify a citation on its own (no chunk row needed: it carries its text hash).
   * Only a source this collection indexed under the citation's document id is
   * read; any other citation is unresolvable, saying nothing about the file.
   */
  verify(raw: unknown, opts: { baseDir?: string | undefined; originalText?: string | undefined } = {}): Promise<Verification> {
    return chunks.verify(this.core, raw, opts);
  }

  /**
   * Answer a question from this collection's passages with the configured chat
   * model, and ground the answer (answer.ts).
   *
   * @throws GroundkitError CHAT_NOT_CONFIGURED without a chat model; GENERATION_FAILED when it fails
   */
  answer(question: string, opts: CollectionAnswerOptions = {}): Promise<AnswerReport> {
    return answering.answer(this.core, question, opts);
  }

  /**
   * Ground an answer written elsewhere against the passages it was written
   * from (`hits[i]` is passage `[i + 1]`): the same report `answer` gives.
   *
   * @example
   *   const hits = await col.search("how long are backups kept");
   *   const report = await col.ground('Backups are kept "for 30 days" [1].', hits);
   */
  ground(answer: string, hits: readonly SearchHit[], opts: { baseDir?: string | undefined } = {}): Promise<GroundingReport> {
    return answering.ground(this.core, answer, hits, opts);
  }

  /**
   * Whether `quote` occurs verbatim (whitespace aside) in a chunk or in a
   * document's current text, with the citation and verdict of every occurrence.
   *
   * @throws GroundkitError CHUNK_NOT_FOUND / DOCUMENT_NOT_FOUND, INVALID_ARGUMENT for an empty quote or neither id
   */
  verifyQuote(
    quote: string,
    where: { chunkId?: string | undefined; documentId?: string | undefined },
    opts: { baseDir?: string | undefined } = {},
  ): Promise<QuoteCheck> {
    return answering.verifyQuote(this.core, quote, where, opts);
  }

  /** Delete one document (its chunks, postings and snapshot). Returns false when it did not exist. */
  deleteDocument(documentId: string, lock: LockWaitOptions = {}): Promise<boolean> {
    return documents.deleteDocument(this.core, documentId, lock);
  }

  /**
   * Remove documents by reference (a source, a folder, a document id), under
   * the writer lock; a removed root is forgotten (documents.ts).
   */
  removeDocuments(refs: readonly string[], lock: LockWaitOptions = {}): Promise<RemoveSummary> {
    return documents.removeDocuments(this.core, refs, lock);
  }

  /**
   * The document a reference names: its source (an absolute path or a URL as
   * stored) or its id, or a unique prefix of its id.
   *
   * @throws GroundkitError DOCUMENT_NOT_FOUND, AMBIGUOUS_ID
   */
  findDocument(ref: string): Promise<StoredDocument> {
    return documents.findDocument(this.core, ref);
  }

  /**
   * A line range of a document's indexed text with a citation for exactly that
   * range, bounded to `maxChars` code points (default 20,000; at most 200,000).
   */
  getDocument(
    ref: string,
    opts: { startLine?: number | undefined; endLine?: number | undefined; maxChars?: number | undefined; baseDir?: string | undefined } = {},
  ): Promise<DocumentView> {
    return documents.getDocument(this.core, ref, opts);
  }

  /** Documents whose source starts with `prefix`, in source order, a page at a time (`after`: the previous page's `next_after`). */
  listDocuments(opts: { prefix?: string | undefined; after?: string | undefined; limit?: number | undefined } = {}): Promise<DocumentPage> {
    return documents.listDocuments(this.core, opts);
  }

  /** A document's versions (0: current, then the previous ones kept, newest first), by path, URL or id (history.ts). */
  history(ref: string): Promise<DocumentHistory> {
    return documentHistory(this.core.store, ref, (r) => this.currentDocument(r), this.name);
  }

  /** The text of one version of a document, by number (`grk history`) or ingest time. */
  readVersion(ref: string, version: string): Promise<DocumentVersionText> {
    return readVersion(this.core.store, ref, version, (r) => this.currentDocument(r), this.name);
  }

  /** Totals and integrity of the kept history (`grk doctor`). */
  historyHealth(): Promise<HistoryHealth> {
    return this.core.store.historyHealth();
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

  /** Counts, schema version, embedding identity, last ingest (status.ts); with `replicaLag`, the read replicas' lag. */
  status(opts: { replicaLag?: boolean } = {}): Promise<CollectionStatus> {
    return reporting.status(this.core, opts);
  }

  /** `grk doctor`'s checks of this collection (status.ts). Reads only. */
  checkHealth(opts: { sample: number }): Promise<{ checks: DoctorCheck[]; sample: Record<string, SampleOutcome> }> {
    return reporting.checkHealth(this.core, opts);
  }

  /** The repairs that lose nothing (health.ts), holding the writer lock; says what it did. */
  repair(lock: LockWaitOptions = {}): Promise<RepairAction[]> {
    return reporting.repair(this.core, lock);
  }

  close(): Promise<void> {
    return this.core.close();
  }
}
