/**
 * Turning a config file's retrieval sections into collection options, shared by
 * the CLI and the servers so every surface behaves the same.
 */
import type { OpenCollectionOptions } from "./types.js";
import type { ConfigFile } from "../core/config.js";
import { parseEmbeddingConfig } from "../embed/registry.js";
import { parseRerankerConfig } from "../retrieve/rerank/registry.js";
import { parseChatConfig } from "../answer/chat-config.js";
import { parseStoreConfig } from "../store/store-config.js";

/** Options that tune retrieval, as opposed to naming the collection. */
export type CollectionSettings = Pick<OpenCollectionOptions, "embedding" | "reranker" | "retrieval" | "chunking" | "extraction" | "chat" | "store">;

/** The store, embedding, reranker, chat, retrieval, extraction and first-ingest chunking options a config file asks for. */
export function collectionSettings(config: ConfigFile): CollectionSettings {
  const r = config.retrieval;
  const x = config.extraction;
  return {
    store: config.store === undefined ? undefined : parseStoreConfig(config.store),
    embedding: config.embedding === undefined ? undefined : parseEmbeddingConfig(config.embedding),
    reranker: config.rerank === undefined ? undefined : parseRerankerConfig(config.rerank),
    chat: config.chat === undefined ? undefined : parseChatConfig(config.chat),
    retrieval: r
      ? {
          denseMinScore: r.dense_min_score,
          rrfK: r.rrf_k,
          hybridWeights: r.hybrid_weights,
          fusion: r.fusion,
          rankBonus: r.rrf_rank_bonus,
          convexDenseWeight: r.convex_dense_weight,
          codeDenseWeight: r.code_dense_weight,
          hybridPool: r.hybrid_pool,
          rerankDepth: r.rerank_depth,
        }
      : undefined,
    chunking:
      config.chunk_size === undefined && config.chunk_overlap === undefined
        ? undefined
        : { chunkSize: config.chunk_size, chunkOverlap: config.chunk_overlap },
    extraction: x
      ? { timeoutMs: x.timeout_ms, maxMemoryMb: x.max_memory_mb, maxOutputCodePoints: x.max_output_code_points }
      : undefined,
  };
}
