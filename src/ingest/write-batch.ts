/**
 * Documents chunked and ready to store, committed several at a time. One
 * commit per document cost about a third of ingest time; a batch shares one
 * commit, while each document still goes in its own savepoint: a document that
 * fails to write rolls back alone, and a crash leaves every document at its
 * old or its new state.
 */
import { GroundkitError, toGroundkitError } from "../core/errors.js";
import type { NewChunk, Store, StoredDocument } from "../store/store.js";
import type { ChunkVectors } from "../store/vectors.js";

/** One document ready to write. */
export interface PendingDocument {
  doc: StoredDocument;
  chunks: NewChunk[];
  vectors?: ChunkVectors[] | undefined;
  /** It replaces a stored document of the same source (for the run's change reports). */
  replaces?: boolean | undefined;
  /** It is a document moved with edits from this source (counted as moved, not indexed; ingest/moves.ts). */
  movedFrom?: string | undefined;
}

/** When a batch is committed: whichever limit is reached first. */
export interface WriteBatchLimits {
  documents: number;
  chunks: number;
  /** UTF-16 code units of chunk text held. */
  textUnits: number;
  /** Age of the oldest pending document, so progress stays visible on slow (e.g. embedding) runs. */
  maxAgeMs: number;
}

/**
 * Defaults: enough documents that commits stop showing in a profile of the
 * bench corpus, while the text held (at most ~16 MiB) and the work a crash
 * loses (at most about a second) stay small.
 */
export const DEFAULT_WRITE_BATCH_LIMITS: WriteBatchLimits = {
  documents: 256,
  chunks: 4096,
  textUnits: 8 * 1024 * 1024,
  maxAgeMs: 1000,
};

/**
 * Dense ingest embeds a batch before committing it: at most 256 chunks (about
 * 12 s of the local model here), so progress and commits keep coming, while
 * the model still gets full batches.
 */
export const DENSE_WRITE_BATCH_LIMITS: WriteBatchLimits = { ...DEFAULT_WRITE_BATCH_LIMITS, chunks: 256 };

/** What a commit did, document by document. */
export interface BatchOutcome {
  written: Array<{ pending: PendingDocument }>;
  failed: Array<{ pending: PendingDocument; error: GroundkitError }>;
}

export class WriteBatch {
  private pending: PendingDocument[] = [];
  private chunks = 0;
  private textUnits = 0;
  private oldest = 0;

  constructor(
    private readonly store: Store,
    private readonly limits: WriteBatchLimits = DEFAULT_WRITE_BATCH_LIMITS,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  add(doc: PendingDocument): void {
    if (this.pending.length === 0) this.oldest = performance.now();
    this.pending.push(doc);
    this.chunks += doc.chunks.length;
    for (const chunk of doc.chunks) this.textUnits += chunk.text.length;
  }

  /** Whether a limit is reached and the batch should be committed now. */
  full(): boolean {
    return (
      this.pending.length >= this.limits.documents ||
      this.chunks >= this.limits.chunks ||
      this.textUnits >= this.limits.textUnits ||
      (this.pending.length > 0 && performance.now() - this.oldest >= this.limits.maxAgeMs)
    );
  }

  /**
   * Embed every pending document's chunks in one call, so the model gets full
   * batches (ingested documents are often a single chunk each). Runs before the
   * transaction opens: no write lock is held while the model works.
   *
   * @throws whatever `embed` throws; the batch is left as it was
   */
  async embed(embed: (texts: string[]) => Promise<ChunkVectors[]>): Promise<void> {
    await embedDocuments(this.pending, embed);
  }

  /** Empty the batch without writing, returning what it held. */
  discard(): PendingDocument[] {
    const dropped = this.pending;
    this.pending = [];
    this.chunks = 0;
    this.textUnits = 0;
    return dropped;
  }

  /** Write every pending document in one transaction and empty the batch. Never throws (the Promise never rejects). */
  commit(): Promise<BatchOutcome> {
    return writeDocuments(this.store, this.discard());
  }
}

/** Write `batch` in one transaction of `store`. Never throws (the Promise never rejects). */
export async function writeDocuments(store: Store, batch: readonly PendingDocument[]): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { written: [], failed: [] };
  if (batch.length === 0) return outcome;
  try {
    await store.transaction(async (tx) => {
      const errors = await tx.replaceDocuments(batch);
      batch.forEach((pending, i) => {
        if (errors[i] === undefined) outcome.written.push({ pending });
        else outcome.failed.push({ pending, error: toGroundkitError(errors[i]) });
      });
    });
  } catch (err) {
    // The commit itself failed (e.g. disk full, lock timeout): nothing of the batch was written.
    const error = toGroundkitError(err);
    return { written: [], failed: batch.map((pending) => ({ pending, error })) };
  }
  return outcome;
}

/** Embed the chunks of `docs` in one call and attach each document's vectors. */
export async function embedDocuments(
  docs: readonly PendingDocument[],
  embed: (texts: string[]) => Promise<ChunkVectors[]>,
): Promise<void> {
  const texts = docs.flatMap((d) => d.chunks.map((c) => c.text));
  if (texts.length === 0) return;
  const vectors = await embed(texts);
  if (vectors.length !== texts.length) {
    throw new GroundkitError("EMBEDDING_FAILED", `The embedding provider returned ${vectors.length} vectors for ${texts.length} texts.`);
  }
  let next = 0;
  for (const doc of docs) {
    doc.vectors = vectors.slice(next, next + doc.chunks.length);
    next += doc.chunks.length;
  }
}
