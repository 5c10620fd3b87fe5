/** A collection's vectors: binding its embedding provider, backfilling chunks without vectors, re-embedding. */
import { GroundkitError } from "../core/errors.js";
import { bindProvider, identityMeta, recordedIdentity } from "../embed/binding.js";
import { embedChunks, vectorCount } from "../embed/chunk-vectors.js";
import type { EmbeddingProvider } from "../embed/provider.js";
import type { EmbeddingConfig } from "../embed/registry.js";
import { INGEST_SPANS } from "../ingest/ingest-tracing.js";
import { withSpan } from "../obs/tracing.js";
import type { ChunkVectors } from "../store/vectors.js";
import type { CollectionCore } from "./core.js";
import type { LockWaitOptions } from "./types.js";

/** Chunks embedded per backfill/re-embed batch (one transaction each). */
const BACKFILL_BATCH = 256;

/**
 * The embedding provider for this collection. Dense search needs stored
 * vectors (the error names the remedy); dense ingest records the identity
 * on first use.
 */
export async function bindEmbedding(core: CollectionCore, forIngest: boolean): Promise<EmbeddingProvider> {
  if (!forIngest && (await core.store.countVectors()) === 0) {
    throw new GroundkitError("NO_VECTORS", `Collection '${core.name}' has no vectors, so dense and hybrid search are unavailable.`);
  }
  const { provider, config } = await bindProvider(core.store, core.name, core.options.embedding, {
    vectorCache: core.options.vectorCache,
  });
  if (forIngest && !(await recordedIdentity(core.store))) {
    for (const [k, v] of Object.entries(identityMeta(provider, config))) await core.store.setMeta(k, v);
  }
  return provider;
}

/** Embed every chunk that has no vector yet, in batches (each batch its own transaction). */
export async function backfillVectors(
  core: CollectionCore,
  provider: EmbeddingProvider,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  let written = 0;
  // Progress counts chunks, however many windows each has.
  const total = (await core.store.stats()).chunks - (await core.store.countChunksWithVectors());
  let done = 0;
  for (;;) {
    const batch = await core.store.chunksMissingVectors(BACKFILL_BATCH);
    if (batch.length === 0) return written;
    const vectors = await withSpan(INGEST_SPANS.embed, { "groundkit.ingest.backfill": batch.length }, () =>
      embedChunks(provider, batch.map((b) => b.text)),
    );
    await core.store.writeVectors(batch.map((b, i) => ({ rowid: b.rowid, vector: vectors[i]! })));
    written += vectors.reduce((n, v) => n + vectorCount(v), 0);
    done += batch.length;
    onProgress?.(done, total);
  }
}

/**
 * Re-embed every chunk with another provider and swap the vectors and the
 * recorded identity atomically: searches see the old vectors until the swap.
 */
export async function reembed(
  core: CollectionCore,
  config: EmbeddingConfig,
  onProgress?: (done: number, total: number) => void,
  lock: LockWaitOptions = {},
): Promise<{ vectors_written: number }> {
  return core.writing("reembed", lock, async () => {
    const { provider } = await bindProvider(core.store, core.name, config, { allowChange: true });
    const rows: Array<{ rowid: number; vector: ChunkVectors }> = [];
    const all = await core.store.allChunkTexts();
    for (let i = 0; i < all.length; i += BACKFILL_BATCH) {
      const batch = all.slice(i, i + BACKFILL_BATCH);
      const vectors = await embedChunks(provider, batch.map((b) => b.text));
      batch.forEach((b, j) => rows.push({ rowid: b.rowid, vector: vectors[j]! }));
      onProgress?.(rows.length, all.length);
    }
    await core.store.replaceAllVectors(rows, identityMeta(provider, config));
    await core.store.syncVectorIndex();
    return { vectors_written: rows.reduce((n, r) => n + vectorCount(r.vector), 0) };
  });
}
