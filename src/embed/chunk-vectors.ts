/**
 * What a chunk is stored with: one vector from a one-vector provider, one per
 * window from a provider under window policy "max" (docs/decisions/0032-max-over-windows.md).
 */
import type { ChunkVectors } from "../store/vectors.js";
import type { EmbeddingProgress, EmbeddingProvider } from "./provider.js";

/**
 * Each chunk text's vectors, in input order; progress counts chunks, whatever number of windows each has.
 *
 * @example
 *   await store.writeVectors((await embedChunks(provider, texts)).map((vector, i) => ({ rowid: rowids[i]!, vector })));
 */
export function embedChunks(provider: EmbeddingProvider, texts: string[], onProgress?: EmbeddingProgress): Promise<ChunkVectors[]> {
  return provider.embedDocumentWindows !== undefined ? provider.embedDocumentWindows(texts, onProgress) : provider.embedDocuments(texts, onProgress);
}

/** How many vectors a chunk's {@link ChunkVectors} are. */
export function vectorCount(vectors: ChunkVectors): number {
  return vectors instanceof Float32Array ? 1 : vectors.length;
}
